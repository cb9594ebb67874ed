import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminPage, GameView } from '../../shared/protocol/index.js';
import type { Boardroom } from '../../server/app.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { ADMIN_TOKEN, Client, expectOk, startServer } from '../support/server.js';

type Seat = { gameId: string; color: 'black' | 'white'; token: string };
let redis: TestRedis;
let server: Boardroom;
beforeAll(async () => {
  redis = await startRedis();
  server = await startServer({ REDIS_URL: redis.url, REDIS_PREFIX: 'end' });
});
afterAll(async () => {
  await server?.close();
  await redis?.stop();
});

async function room(game = 'othello') {
  const ann = await new Client(server.url).connected();
  const bob = await new Client(server.url).connected();
  const created = expectOk(await ann.ask<{ gameId: string; seat: Seat }>('room:create', { game, seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: 'Ann', color: 'black' } }));
  const joined = expectOk(await bob.ask<{ seat: Seat }>('room:join', { gameId: created.gameId, name: 'Bob' }));
  return { ann, bob, gameId: created.gameId, black: created.seat.token, white: joined.seat.token };
}

describe('how games end', () => {
  it('a draw offered and accepted; a declined offer keeps the game going', async () => {
    const { ann, bob, gameId, black, white } = await room();
    expectOk(await ann.ask('draw:offer', { gameId, token: black }));
    const offered = await bob.waitFor<GameView>('state', (v) => v.id === gameId && v.drawOffer === 'black');
    expect(offered.status).toBe('live');
    expectOk(await bob.ask('draw:decline', { gameId, token: white }));
    await ann.waitFor<GameView>('state', (v) => v.id === gameId && v.drawOffer === null);
    expectOk(await bob.ask('draw:offer', { gameId, token: white }));
    expectOk(await ann.ask('draw:accept', { gameId, token: black }));
    const ended = await bob.waitFor<{ view: GameView }>('ended', (e) => e.view.id === gameId);
    expect(ended.view.result).toEqual({ winner: null, reason: 'agreement' });
    ann.close();
    bob.close();
  });

  it('resignation, then a rematch with colours swapped that both players sit in', async () => {
    const { ann, bob, gameId, black, white } = await room('gomoku');
    expectOk(await ann.ask('resign', { gameId, token: black }));
    const ended = await bob.waitFor<{ view: GameView }>('ended', (e) => e.view.id === gameId);
    expect(ended.view.result).toEqual({ winner: 'white', reason: 'resignation' });
    const a = expectOk(await ann.ask<{ gameId: string; seat: Seat }>('rematch', { gameId, token: black }));
    expect(a.seat.color).toBe('white');
    const b = expectOk(await bob.ask<{ gameId: string; seat: Seat }>('rematch', { gameId, token: white }));
    expect(b.gameId).toBe(a.gameId);
    expect(b.seat.color).toBe('black');
    const fresh = expectOk(await ann.ask<{ view: GameView }>('room:watch', { gameId: a.gameId })).view;
    expect(fresh).toMatchObject({ status: 'live', seats: { black: { name: 'Bob' }, white: { name: 'Ann' } } });
    const finished = (await (await fetch(`${server.url}/api/games?limit=50`)).json()) as { games: { id: string }[] };
    expect(finished.games.map((g) => g.id)).toContain(gameId);
    ann.close();
    bob.close();
  });

  it('an admin sees live games and adjudicates one', async () => {
    const { ann, bob, gameId } = await room('minichess');
    const admin = await new Client(server.url, '/admin', { token: ADMIN_TOKEN }).connected();
    const listed = expectOk(await admin.ask<{ page: AdminPage }>('admin:list', { game: 'minichess', limit: 100 }));
    expect(listed.page.rows.map((g) => g.id)).toContain(gameId);
    expectOk(await admin.ask('admin:end', { gameId, winner: 'white', reason: 'white is a queen up' }));
    const ended = await ann.waitFor<{ view: GameView }>('ended', (e) => e.view.id === gameId);
    expect(ended.view.result).toEqual({ winner: 'white', reason: 'adjudication', note: 'white is a queen up' });
    // The table is read at most once a second: the ended game leaves it by the next reading.
    const listedOverHttp = async () => ((await (await fetch(`${server.url}/admin/api/games?limit=100`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json()) as AdminPage).rows.map((g) => g.id);
    await expect.poll(listedOverHttp, { timeout: 3000, interval: 200 }).not.toContain(gameId);
    for (const c of [ann, bob, admin]) c.close();
  });
});
