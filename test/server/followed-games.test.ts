import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameView, SeatGrant } from '../../shared/protocol/index.js';
import type { Boardroom } from '../../server/app.js';
import { gameRoom, seatRoom } from '../../server/socket/broadcaster.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { Client, expectOk, startServer } from '../support/server.js';

// A connection that plays game after game keeps the rooms of its live games only: a finished game's
// rooms are left as the connection takes up another, not before (a rematch offered still reaches it).
let redis: TestRedis;
let server: Boardroom;
beforeAll(async () => {
  redis = await startRedis();
  server = await startServer({ REDIS_URL: redis.url, REDIS_PREFIX: 'followed' });
});
afterAll(async () => {
  await server?.close();
  await redis?.stop();
});

/** The players' sockets in each of a game's rooms, as this process's adapter holds them. */
const members = (gameId: string): number[] => {
  const rooms = server.io.of('/').adapter.rooms;
  return [gameRoom(gameId), seatRoom(gameId, 'black'), seatRoom(gameId, 'white')].map((room) => rooms.get(room)?.size ?? 0);
};

describe('the games a connection follows', () => {
  it('lose a finished game when the connection takes up another, and hear what comes after an end until then', async () => {
    const ann = await new Client(server.url).connected();
    const bob = await new Client(server.url).connected();
    const created = expectOk(await ann.ask<{ gameId: string; seat: SeatGrant }>('room:create', { game: 'gomoku', seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: 'Ann', color: 'black' } }));
    const first = created.gameId;
    const bobSeat = expectOk(await bob.ask<{ seat: SeatGrant }>('room:join', { gameId: first, name: 'Bob', color: 'white' })).seat;
    expect(members(first)).toEqual([2, 1, 1]);

    expectOk(await ann.ask('resign', { gameId: first, token: created.seat.token }));
    await ann.waitFor('ended', (e: { gameId: string }) => e.gameId === first, 5000);
    // Ended, and both still in its rooms: nobody has taken up another game.
    expect(members(first)).toEqual([2, 1, 1]);

    // Bob asks for a rematch: he follows the new game and leaves the finished one; Ann, still
    // on it, hears the offer there.
    const rematch = expectOk(await bob.ask<{ gameId: string }>('rematch', { gameId: first, token: bobSeat.token }));
    expect(members(first)).toEqual([1, 1, 0]);
    const offer = await ann.waitFor<GameView>('state', (v) => v.id === first && v.rematch === rematch.gameId, 5000);
    expect(offer.rematch).toBe(rematch.gameId);

    // Ann takes it: no socket is left in the finished game's rooms.
    expectOk(await ann.ask('room:join', { gameId: rematch.gameId, name: 'Ann', color: 'white' }));
    expect(members(first)).toEqual([0, 0, 0]);
    expect(members(rematch.gameId)).toEqual([2, 1, 1]);

    // A live game is never left: Ann watching a third game keeps her seat's rooms in the rematch.
    const third = expectOk(await bob.ask<{ gameId: string }>('room:create', { game: 'othello', seats: { black: { kind: 'human' }, white: { kind: 'human' } } })).gameId;
    expectOk(await ann.ask('room:watch', { gameId: third }));
    expect(members(rematch.gameId)).toEqual([2, 1, 1]);
    ann.close();
    bob.close();
  });
});
