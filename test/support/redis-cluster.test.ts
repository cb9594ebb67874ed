import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisCluster, type TestRedisCluster } from './redis-cluster.js';

let cluster: TestRedisCluster;
beforeAll(async () => {
  cluster = await startRedisCluster();
}, 60_000);
afterAll(() => cluster?.stop());

describe('the tests\' Redis Cluster', () => {
  it('serves keys of every slot from three masters, and a replica takes a killed master\'s slots', async () => {
    const client = cluster.client();
    const masters = await cluster.masters();
    expect(masters).toHaveLength(3);
    const keys = Array.from({ length: 30 }, (_, i) => `k${i}`);
    for (const key of keys) await client.set(key, key);
    const owners = new Set(await Promise.all(keys.map(async (key) => (await cluster.masterOf(key)).port)));
    expect(owners.size).toBe(3);
    const victim = await cluster.masterOf('k1');
    await victim.kill();
    await cluster.untilOk();
    expect((await cluster.masterOf('k1')).port).not.toBe(victim.port);
    expect(await cluster.masters()).toHaveLength(3);
  }, 60_000);
});
