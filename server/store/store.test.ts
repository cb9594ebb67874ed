import { afterAll, beforeAll } from 'vitest';
import { startRedis, type TestRedis } from '../../test/support/redis.js';
import { MemoryStore } from './memory-store.js';
import { RedisStore } from './redis-store.js';
import { MemoryPlatform } from './platform-memory.js';
import { platformContract } from './platform.contract.js';
import { RedisPlatform } from './platform-redis.js';
import { storeContract } from './store.contract.js';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis.stop());

storeContract('memory', async () => new MemoryStore());
storeContract('redis', async () => new RedisStore(redis.client(), `t${Math.random().toString(36).slice(2, 8)}:`));
platformContract('memory', async () => new MemoryPlatform());
platformContract('redis', async () => new RedisPlatform(redis.client(), `p${Math.random().toString(36).slice(2, 8)}:`));
