import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from '../../test/support/redis.js';
import { MemoryStore } from './memory-store.js';
import { RedisStore } from './redis-store.js';
import { MemoryPlatform } from './platform-memory.js';
import { platformContract } from './platform.contract.js';
import { RedisPlatform } from './platform-redis.js';
import { sampleGame, storeContract } from './store.contract.js';

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

describe('redis: a move written to a game an older server stored', () => {
  it('appends after the moves its list holds, though its hash does not count them yet, and counts them from then on', async () => {
    const prefix = `plies${Math.random().toString(36).slice(2, 8)}:`;
    const store = new RedisStore(redis.client(), prefix);
    const game = sampleGame({ status: 'live', moves: ['f5', 'd6'], moveMs: [5, 6] });
    await store.create(game);
    await redis.client().hdel(`${prefix}game:${game.id}`, 'plies'); // as an older server wrote it
    expect(await store.update({ ...game, version: 2, moves: ['f5', 'd6', 'c3'], moveMs: [5, 6, 7] })).toBe(true);
    expect(await redis.client().hget(`${prefix}game:${game.id}`, 'plies')).toBe('3');
    expect(await store.update({ ...game, version: 3, moves: ['f5', 'd6', 'c3', 'd3'], moveMs: [5, 6, 7, 8] })).toBe(true);
    expect((await store.get(game.id))?.moves).toEqual(['f5', 'd6', 'c3', 'd3']);
  });
});

describe('redis: a finished game keeps its document deflated', () => {
  it('writes a live game as JSON and a finished one in a third of the bytes, and reads both, and a finished game an older server stored as JSON', async () => {
    const prefix = `doc${Math.random().toString(36).slice(2, 8)}:`;
    const store = new RedisStore(redis.client(), prefix);
    const live = sampleGame({ status: 'live', moves: ['f5'], moveMs: [5] });
    await store.create(live);
    const liveDoc = (await redis.client().hget(`${prefix}game:${live.id}`, 'doc'))!;
    expect(JSON.parse(liveDoc).status).toBe('live');
    const finished = { ...live, version: 2, status: 'finished' as const, result: { winner: 'black' as const, reason: 'resignation' as const } };
    expect(await store.update(finished)).toBe(true);
    const finishedDoc = (await redis.client().hget(`${prefix}game:${live.id}`, 'doc'))!;
    expect(finishedDoc.length).toBeLessThan(liveDoc.length / 2);
    expect(await store.get(live.id)).toEqual(finished);
    expect((await store.summaries('finished', 10)).map((g) => g.result)).toEqual([finished.result]);
    await redis.client().hset(`${prefix}game:${live.id}`, 'doc', JSON.stringify({ ...JSON.parse(liveDoc), status: 'finished', result: finished.result }));
    expect((await store.get(live.id))?.result).toEqual(finished.result);
  });
});
