import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameView } from '../../shared/protocol/index.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { ADMIN_TOKEN, Client, expectOk, kill9, playMove, searching, spawnBuilt, startServer } from '../support/server.js';
import { playRandomly, rulesAgree } from './play.js';

type Seat = { gameId: string; color: 'black' | 'white'; token: string };
let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis?.stop());

async function humanRoom(url: string, game: string, otherUrl = url) {
  const ann = await new Client(url).connected();
  const bob = await new Client(otherUrl).connected();
  const created = expectOk(await ann.ask<{ gameId: string; seat: Seat }>('room:create', { game, seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: 'Ann', color: 'black' } }));
  const joined = expectOk(await bob.ask<{ seat: Seat; view: GameView }>('room:join', { gameId: created.gameId, name: 'Bob' }));
  return { ann, bob, gameId: created.gameId, black: created.seat.token, white: joined.seat.token, view: joined.view };
}

describe('reconnection', () => {
  it('a dropped player resumes its seat from a new connection with the full state', async () => {
    const server = await startServer({ REDIS_URL: redis.url, REDIS_PREFIX: 'rec', RECONNECT_GRACE_MS: '60000' });
    const { ann, bob, gameId, black, white } = await humanRoom(server.url, 'othello');
    expectOk(await ann.ask('move', { gameId, token: black, ply: 0, move: 'f5' }));
    ann.close();
    const away = await bob.waitFor<GameView>('state', (v) => v.id === gameId && !v.seats.black.connected);
    expect(away.status).toBe('live');
    expectOk(await bob.ask('move', { gameId, token: white, ply: 1, move: 'd6' }));
    const again = await new Client(server.url).connected();
    const resumed = expectOk(await again.ask<{ seat: Seat; view: GameView }>('room:resume', { gameId, token: black }));
    expect(resumed.seat.color).toBe('black');
    expect(resumed.view.moves).toEqual(['f5', 'd6']);
    expect(resumed.view.seats.black.connected).toBe(true);
    expectOk(await again.ask('move', { gameId, token: black, ply: 2, move: resumed.view.legal[0] }));
    const late = await new Client(server.url).connected();
    expect(expectOk(await late.ask<{ view: GameView }>('room:watch', { gameId })).view.moves).toHaveLength(3);
    for (const c of [again, bob, late]) c.close();
    await server.close();
  });

  it('a player away past the grace loses by abandonment', async () => {
    const server = await startServer({ REDIS_URL: redis.url, REDIS_PREFIX: 'aband', RECONNECT_GRACE_MS: '1500' });
    const { ann, bob, gameId, black, white, view } = await humanRoom(server.url, 'gomoku');
    // Both sides move first: a side gone before then aborts the game (test/server/first-move.test.ts).
    await playMove(bob, await playMove(ann, view, black, 'h8'), white, 'a1');
    ann.close();
    const ended = await bob.waitFor<{ view: GameView }>('ended', (e) => e.view.id === gameId, 15_000);
    expect(ended.view.result).toEqual({ winner: 'white', reason: 'abandonment' });
    bob.close();
    await server.close();
  });
});

describe('shutdown', () => {
  it('a server closing just as its players leave leaves no unhandled rejection behind', async () => {
    const rejections: unknown[] = [];
    const onRejection = (error: unknown) => rejections.push(error);
    process.on('unhandledRejection', onRejection);
    try {
      for (let round = 0; round < 6; round++) {
        const server = await startServer({ REDIS_URL: redis.url, REDIS_PREFIX: `shut${round}`, RECONNECT_GRACE_MS: '60000' });
        const rooms = [];
        for (let i = 0; i < 4; i++) rooms.push(await humanRoom(server.url, 'othello'));
        // Their leaving sets off seat updates and adapter publishes while the server closes, a
        // little later each round.
        for (const { ann, bob } of rooms) for (const c of [ann, bob]) c.close();
        await new Promise((resolve) => setTimeout(resolve, round));
        await server.close();
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
    } finally {
      process.off('unhandledRejection', onRejection);
    }
    expect(rejections.map(String)).toEqual([]);
  });
});

describe('processes', () => {
  it('a server killed with SIGKILL mid-game comes back with the game, and it finishes', async () => {
    const env = { REDIS_URL: redis.url, REDIS_PREFIX: 'kill', RECONNECT_GRACE_MS: '60000' };
    const first = spawnBuilt('main', env);
    const port = await first.ready;
    const url = `http://127.0.0.1:${port}`;
    const { ann, bob, gameId, black, white } = await humanRoom(url, 'minichess');
    const acked: string[] = [];
    let view = expectOk(await bob.ask<{ view: GameView }>('room:watch', { gameId })).view;
    for (let i = 0; i < 6 && view.status === 'live'; i++) {
      const token = view.toMove === 'black' ? black : white;
      const client = view.toMove === 'black' ? ann : bob;
      const move = view.legal[0]!;
      view = await playMove(client, view, token, move);
      acked.push(move);
    }
    await kill9(first.child);
    ann.close();
    bob.close();
    const second = spawnBuilt('main', env);
    const url2 = `http://127.0.0.1:${await second.ready}`;
    const ann2 = await new Client(url2).connected();
    const bob2 = await new Client(url2).connected();
    const a = expectOk(await ann2.ask<{ seat: Seat; view: GameView }>('room:resume', { gameId, token: black }));
    const b = expectOk(await bob2.ask<{ seat: Seat; view: GameView }>('room:resume', { gameId, token: white }));
    expect(a.view.moves).toEqual(acked); // no acknowledged move lost
    const [endA] = await Promise.all([playRandomly(ann2, gameId, black, 'black', a.view), playRandomly(bob2, gameId, white, 'white', b.view)]);
    expect(endA.status).toBe('finished');
    expect(rulesAgree(endA)).toBe(true);
    ann2.close();
    bob2.close();
    await kill9(second.child);
  });

  it('a player who vanishes while the server is down loses by abandonment after the grace, not the one who stayed', async () => {
    const grace = 2000;
    const env = { REDIS_URL: redis.url, REDIS_PREFIX: 'ghost', RECONNECT_GRACE_MS: String(grace) };
    const first = spawnBuilt('main', env);
    const url = `http://127.0.0.1:${await first.ready}`;
    const rooms = [await humanRoom(url, 'othello'), await humanRoom(url, 'gomoku')];
    for (const r of rooms) {
      const moved = await playMove(r.ann, r.view, r.black, r.view.legal[0]!);
      await playMove(r.bob, moved, r.white, moved.legal[0]!);
    }
    await kill9(first.child);
    // Everyone's socket dies with the process; only Bob comes back, to a new process.
    for (const r of rooms) for (const c of [r.ann, r.bob]) c.close();
    const second = spawnBuilt('main', env);
    const url2 = `http://127.0.0.1:${await second.ready}`;
    const restarted = Date.now();
    const bob = await new Client(url2).connected();
    for (const r of rooms) expect(expectOk(await bob.ask<{ view: GameView }>('room:resume', { gameId: r.gameId, token: r.white })).view.status).toBe('live');
    const ends = await Promise.all(rooms.map((r) => bob.waitFor<{ view: GameView }>('ended', (e) => e.view.id === r.gameId, 30_000)));
    for (const e of ends) expect(e.view.result).toEqual({ winner: 'white', reason: 'abandonment' });
    // The dead process's lease runs out, the next sweep finds the seat held by no one, then the grace.
    expect(Date.now() - restarted).toBeLessThan(grace + 10_000);
    bob.close();
    await kill9(second.child);
  });

  it('two server processes on one Redis: players on different processes play a game', async () => {
    const env = { REDIS_URL: redis.url, REDIS_PREFIX: 'two' };
    const one = spawnBuilt('main', env);
    const two = spawnBuilt('main', env);
    const [p1, p2] = await Promise.all([one.ready, two.ready]);
    const { ann, bob, gameId, black, white, view } = await humanRoom(`http://127.0.0.1:${p1}`, 'othello', `http://127.0.0.1:${p2}`);
    const watcher = await new Client(`http://127.0.0.1:${p2}`).connected();
    expectOk(await watcher.ask('room:watch', { gameId }));
    const [a, b] = await Promise.all([playRandomly(ann, gameId, black, 'black', view), playRandomly(bob, gameId, white, 'white', view)]);
    expect(a.moves).toEqual(b.moves);
    expect(rulesAgree(a)).toBe(true);
    await watcher.waitFor<{ gameId: string }>('ended', (e) => e.gameId === gameId); // sent after the last move
    const seen = watcher.events.filter((e) => e.event === 'moved').length;
    expect(seen).toBe(a.moves.length);
    for (const c of [ann, bob, watcher]) c.close();
    await Promise.all([kill9(one.child), kill9(two.child)]);
  });

  it('a bot worker killed mid-search: the job goes to another worker and the bot still moves', async () => {
    const env = { REDIS_URL: redis.url, REDIS_PREFIX: 'wkill', BOT_LOCK_MS: '2000', BOT_THREADS: '1' };
    const server = await startServer(env);
    const first = spawnBuilt('worker', env);
    await first.ready;
    const ann = await new Client(server.url).connected();
    const admin = await new Client(server.url, '/admin', { token: ADMIN_TOKEN }).connected();
    const created = expectOk(await ann.ask<{ gameId: string; seat: Seat }>('room:create', {
      game: 'othello',
      timeControl: { kind: 'none' },
      seats: { black: { kind: 'bot', bot: 'engine-5' }, white: { kind: 'human' } },
      sit: { name: 'Ann', color: 'white' },
    }));
    await searching(admin, created.gameId);
    await kill9(first.child);
    const second = spawnBuilt('worker', env);
    await second.ready;
    const moved = await ann.waitFor<{ gameId: string; ply: number; color: string }>('moved', (e) => e.gameId === created.gameId, 60_000);
    expect(moved).toMatchObject({ ply: 0, color: 'black' });
    ann.close();
    admin.close();
    await kill9(second.child);
    await server.close();
  });
});
