import { afterAll, beforeAll } from 'vitest';
import { startRedis, type TestRedis } from '../../../test/support/redis.js';
import { MemoryTournaments } from './memory-tournaments.js';
import { RedisTournaments } from './redis-tournaments.js';
import { tournamentStoreContract } from './tournament-store.contract.js';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis.stop());

tournamentStoreContract('memory', async () => new MemoryTournaments());
tournamentStoreContract('redis', async () => new RedisTournaments(redis.client(), `t${Math.random().toString(36).slice(2, 8)}:`));
