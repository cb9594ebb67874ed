import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SpectatorsEvent } from '../../shared/protocol/index.js';
import type { Boardroom } from '../../server/app.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { Client, expectOk, startServer } from '../support/server.js';

// The spectator count, across two web processes sharing one Redis (the adapter counts every process's sockets).
let redis: TestRedis;
let one: Boardroom;
let two: Boardroom;
beforeAll(async () => {
  redis = await startRedis();
  one = await startServer({ REDIS_URL: redis.url, REDIS_PREFIX: 'spectators' });
  two = await startServer({ REDIS_URL: redis.url, REDIS_PREFIX: 'spectators' });
});
afterAll(async () => {
  await one?.close();
  await two?.close();
  await redis?.stop();
});

describe('spectators', () => {
  it('players and spectators hear how many watch, as spectators come and go, in either process', async () => {
    const ann = await new Client(one.url).connected();
    const created = expectOk(await ann.ask<{ gameId: string }>('room:create', { game: 'gomoku', seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: 'Ann', color: 'black' } }));
    const gameId = created.gameId;
    const count = (client: Client, n: number) => client.waitFor<SpectatorsEvent>('spectators', (e) => e.gameId === gameId && e.count === n, 5000);
    // Ann, alone, hears that nobody watches.
    await count(ann, 0);
    const watchers = [await new Client(one.url).connected(), await new Client(two.url).connected(), await new Client(two.url).connected()];
    for (const w of watchers) expectOk(await w.ask('room:watch', { gameId }));
    await count(ann, 3);
    await count(watchers[0]!, 3);
    // A spectator who sits down is a player, no longer counted; one who leaves, or drops, is gone.
    const bob = watchers[2]!;
    ann.events.length = 0;
    expectOk(await bob.ask('room:join', { gameId, name: 'Bob', color: 'white' }));
    await count(ann, 2);
    ann.events.length = 0;
    expectOk(await watchers[1]!.ask('room:unwatch', { gameId }));
    await count(ann, 1);
    ann.events.length = 0;
    watchers[0]!.close();
    const last = await count(bob, 0);
    expect(last).toEqual({ gameId, count: 0 });
    for (const c of [ann, ...watchers]) c.close();
  });
});
