import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisCluster, type TestRedisCluster } from '../../test/support/redis-cluster.js';
import { platformContract } from './platform.contract.js';
import { RedisPlatform } from './platform-redis.js';
import { RedisStore } from './redis-store.js';
import { sampleGame, storeContract } from './store.contract.js';

let cluster: TestRedisCluster;
beforeAll(async () => {
  cluster = await startRedisCluster();
}, 60_000);
afterAll(() => cluster?.stop());

const prefix = (letter: string) => `${letter}${Math.random().toString(36).slice(2, 8)}:`;

// Every script touches one slot, or the cluster refuses it (CROSSSLOT): the contracts pass on three masters.
storeContract('redis cluster', async () => new RedisStore(cluster.client(), prefix('t')));
platformContract('redis cluster', async () => new RedisPlatform(cluster.client(), prefix('p')));

describe('redis cluster: where the keys are', () => {
  it("spreads games over every master, each game's keys in one slot", async () => {
    const store = new RedisStore(cluster.client(), prefix('spread'));
    const games = Array.from({ length: 24 }, () => sampleGame({ status: 'live', moves: ['f5'], moveMs: [5] }));
    for (const game of games) expect(await store.create(game)).toBe(true);
    const owners = await Promise.all(games.map(async (game) => [(await cluster.masterOf(`x:game:{${game.id}}`)).port, (await cluster.masterOf(`x:game:{${game.id}}:moves`)).port]));
    for (const [hash, moves] of owners) expect(moves).toBe(hash);
    expect(new Set(owners.map(([hash]) => hash)).size).toBe(3);
  });
});
