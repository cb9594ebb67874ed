import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameView } from '../../shared/protocol/index.js';
import type { Boardroom } from '../../server/app.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { Client, expectOk, startServer } from '../support/server.js';

// The first-move grace on a running server (shortened to a second): a game nobody starts is
// aborted, both players are told why, and its record names no winner.
type Seat = { gameId: string; color: 'black' | 'white'; token: string };
let redis: TestRedis;
let server: Boardroom;
beforeAll(async () => {
  redis = await startRedis();
  server = await startServer({ REDIS_URL: redis.url, REDIS_PREFIX: 'first', FIRST_MOVE_GRACE_MS: '1000' });
});
afterAll(async () => {
  await server?.close();
  await redis?.stop();
});

async function room() {
  const ann = await new Client(server.url).connected();
  const bob = await new Client(server.url).connected();
  const timeControl = { kind: 'bank', initialMs: 60_000, incrementMs: 0 };
  const created = expectOk(await ann.ask<{ gameId: string; seat: Seat }>('room:create', { game: 'othello', timeControl, seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: 'Ann', color: 'black' } }));
  const joined = expectOk(await bob.ask<{ seat: Seat }>('room:join', { gameId: created.gameId, name: 'Bob' }));
  return { ann, bob, gameId: created.gameId, black: created.seat.token, white: joined.seat.token };
}

async function record(gameId: string): Promise<{ status: string; result: unknown }> {
  return (await (await fetch(`${server.url}/api/games/${gameId}`)).json()) as { status: string; result: unknown };
}

describe('the first move', () => {
  it('nobody moves: both players hear the game ended aborted, with no winner, and the record says so', async () => {
    const { ann, bob, gameId } = await room();
    const ends = await Promise.all([ann, bob].map((c) => c.waitFor<{ view: GameView }>('ended', (e) => e.view.id === gameId, 10_000)));
    for (const { view } of ends) expect(view).toMatchObject({ status: 'finished', ply: 0, result: { winner: null, reason: 'aborted' } });
    expect(await record(gameId)).toMatchObject({ status: 'finished', result: { winner: null, reason: 'aborted' } });
    ann.close();
    bob.close();
  });

  it('black moves, white never answers: aborted, and white’s late first move is refused', async () => {
    const { ann, bob, gameId, black, white } = await room();
    expectOk(await ann.ask('move', { gameId, token: black, ply: 0, move: 'f5' }));
    const ended = await ann.waitFor<{ view: GameView }>('ended', (e) => e.view.id === gameId, 10_000);
    expect(ended.view).toMatchObject({ ply: 1, result: { winner: null, reason: 'aborted' } });
    const late = await bob.ask('move', { gameId, token: white, ply: 1, move: 'd6' });
    expect(late.ok ? 'ok' : late.error.code).toBe('game/not_live');
    ann.close();
    bob.close();
  });
});
