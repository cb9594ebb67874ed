import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

describe('redis: agents registered before names were one namespace', () => {
  it('are found, kept and guarded in any letter case: the names hash is indexed again by the lower-cased name', async () => {
    const prefix = `old${Math.random().toString(36).slice(2, 8)}:`;
    // As an older server wrote them: the name hash's field is the name as given.
    await redis.client().hset(`${prefix}agents:names`, 'Edax-Bridge', 'hash-1');
    await redis.client().hset(`${prefix}agents`, 'hash-1', JSON.stringify({ name: 'Edax-Bridge', createdAt: 5 }));
    const store = new RedisStore(redis.client(), prefix);
    expect(await store.agentNamed('edax-bridge')).toEqual({ name: 'Edax-Bridge', createdAt: 5 });
    expect(await store.putAgent('hash-2', { name: 'EDAX-BRIDGE', createdAt: 6 })).toBe(false);
    expect(await store.replaceAgentToken('Edax-Bridge', 'hash-3')).toBe(true);
    expect(await store.getAgent('hash-3')).toEqual({ name: 'Edax-Bridge', createdAt: 5 });
    expect(await store.deleteAgent('edax-BRIDGE')).toBe(true);
    expect(await store.agentNamed('Edax-Bridge')).toBeUndefined();
  });
});
