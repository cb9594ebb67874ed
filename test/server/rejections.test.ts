import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ack, GameView } from '../../shared/protocol/index.js';
import type { Boardroom } from '../../server/app.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { ADMIN_TOKEN, Client, expectOk, startServer } from '../support/server.js';

// Every refusal is acknowledged with its stable code and a sentence, and changes nothing.
let redis: TestRedis;
let server: Boardroom;
let strict: Boardroom;
beforeAll(async () => {
  redis = await startRedis();
  server = await startServer({ REDIS_URL: redis.url, REDIS_PREFIX: 'rej' });
  strict = await startServer({ RATE_LIMIT: '5' });
});
afterAll(async () => {
  await strict?.close();
  await server?.close();
  await redis?.stop();
});

type Seat = { gameId: string; color: 'black' | 'white'; token: string };
async function liveRoom(game = 'othello', timeControl?: object) {
  const ann = await new Client(server.url).connected();
  const bob = await new Client(server.url).connected();
  const created = expectOk(await ann.ask<{ gameId: string; seat: Seat }>('room:create', { game, seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: 'Ann', color: 'black' }, ...(timeControl ? { timeControl } : {}) }));
  const joined = expectOk(await bob.ask<{ seat: Seat; view: GameView }>('room:join', { gameId: created.gameId, name: 'Bob' }));
  return { ann, bob, gameId: created.gameId, black: created.seat.token, white: joined.seat.token };
}

function code(ack: Ack<unknown>): string {
  if (ack.ok) return 'ok';
  expect(ack.error.message.length).toBeGreaterThan(10);
  return ack.error.code;
}

describe('refusals over the socket', () => {
  it('bad payloads, unknown rooms, full rooms, bad seats and tokens', async () => {
    const { ann, bob, gameId, black } = await liveRoom();
    expect(code(await ann.ask('move', { gameId }))).toBe('payload/invalid');
    expect(code(await ann.ask('move', 'not even an object'))).toBe('payload/invalid');
    expect(code(await ann.ask('room:watch', { gameId: 'nope' }))).toBe('room/not_found');
    expect(code(await ann.ask('room:join', { gameId, name: 'Cy' }))).toBe('room/full');
    expect(code(await ann.ask('room:create', { game: 'othello', seats: { black: { kind: 'bot', bot: 'deep-blue' }, white: { kind: 'human' } } }))).toBe('room/bad_seat');
    expect(code(await ann.ask('room:create', { game: 'othello', seats: { black: { kind: 'bot', bot: 'random' }, white: { kind: 'bot', bot: 'random' } }, sit: { name: 'Ann', color: 'black' } }))).toBe('room/bad_seat');
    expect(code(await ann.ask('move', { gameId, token: 'x'.repeat(43), ply: 0, move: 'f5' }))).toBe('seat/bad_token');
    expect(code(await ann.ask('draw:accept', { gameId, token: black }))).toBe('game/no_draw_offer');
    ann.close();
    bob.close();
  });

  it('every move refusal, the game unchanged after each', async () => {
    const { ann, bob, gameId, black, white } = await liveRoom();
    const cases: [string, unknown, string][] = [
      ['white before black', { gameId, token: white, ply: 0, move: 'f5' }, 'move/not_your_turn'],
      ['a stale ply', { gameId, token: black, ply: 4, move: 'f5' }, 'move/stale_ply'],
      ['unreadable', { gameId, token: black, ply: 0, move: 'f-5' }, 'move/syntax'],
      ['off the board by file', { gameId, token: black, ply: 0, move: 'z9' }, 'move/off_board'],
      ['off the board by rank', { gameId, token: black, ply: 0, move: 'i1' }, 'move/off_board'],
      ['rank 9', { gameId, token: black, ply: 0, move: 'a9' }, 'move/off_board'],
      ['a pass with moves', { gameId, token: black, ply: 0, move: 'pass' }, 'move/pass_not_allowed'],
      ['an occupied square', { gameId, token: black, ply: 0, move: 'd4' }, 'move/occupied'],
      ['no flip', { gameId, token: black, ply: 0, move: 'a1' }, 'move/no_flip'],
    ];
    for (const [, payload, expected] of cases) expect(code(await ann.ask('move', payload))).toBe(expected);
    const view = expectOk(await ann.ask<{ view: GameView }>('room:watch', { gameId })).view;
    expect(view.moves).toEqual([]);
    const waiting = expectOk(await ann.ask<{ gameId: string; seat: Seat }>('room:create', { game: 'gomoku', seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: 'Ann', color: 'black' } }));
    expect(code(await ann.ask('move', { gameId: waiting.gameId, token: waiting.seat.token, ply: 0, move: 'h8' }))).toBe('game/not_live');
    ann.close();
    bob.close();
  });

  it('gomoku and minichess refusals come with their own codes', async () => {
    const g = await liveRoom('gomoku');
    expectOk(await g.ann.ask('move', { gameId: g.gameId, token: g.black, ply: 0, move: 'h8' }));
    expect(code(await g.bob.ask('move', { gameId: g.gameId, token: g.white, ply: 1, move: 'h8' }))).toBe('move/occupied');
    expect(code(await g.bob.ask('move', { gameId: g.gameId, token: g.white, ply: 1, move: 'p8' }))).toBe('move/off_board');
    const m = await liveRoom('minichess');
    // MiniChess: white (Bob) moves first, so Ann's black token is early.
    expect(code(await m.ann.ask('move', { gameId: m.gameId, token: m.white, ply: 0, move: 'b3b4' }))).toBe('move/no_piece');
    expect(code(await m.ann.ask('move', { gameId: m.gameId, token: m.white, ply: 0, move: 'b5b4' }))).toBe('move/not_your_piece');
    expect(code(await m.ann.ask('move', { gameId: m.gameId, token: m.white, ply: 0, move: 'a1a2' }))).toBe('move/own_piece');
    expect(code(await m.ann.ask('move', { gameId: m.gameId, token: m.white, ply: 0, move: 'b2b4' }))).toBe('move/unreachable');
    expect(code(await m.ann.ask('move', { gameId: m.gameId, token: m.black, ply: 0, move: 'b2b3' }))).toBe('move/not_your_turn');
    for (const c of [g.ann, g.bob, m.ann, m.bob]) c.close();
  });

  it('a move after the flag falls loses on time', async () => {
    const { ann, bob, gameId, black, white } = await liveRoom('othello', { kind: 'per-move', moveMs: 1000 });
    // Once both sides have made their first move: before, a missed move aborts the game (test/server/first-move.test.ts).
    expectOk(await ann.ask('move', { gameId, token: black, ply: 0, move: 'f5' }));
    expectOk(await bob.ask('move', { gameId, token: white, ply: 1, move: 'd6' }));
    await new Promise((r) => setTimeout(r, 1300));
    expect(['clock/flag_fell', 'game/not_live']).toContain(code(await ann.ask('move', { gameId, token: black, ply: 2, move: 'c3' })));
    const ended = await bob.waitFor<{ view: GameView }>('ended', (e) => e.view.id === gameId);
    expect(ended.view.result).toEqual({ winner: 'white', reason: 'timeout' });
    ann.close();
    bob.close();
  });

  it('a connection over its message rate is refused with rate/limited', async () => {
    const c = await new Client(strict.url).connected();
    const acks = await Promise.all(Array.from({ length: 10 }, () => c.ask('rooms:list', {})));
    expect(acks.filter((a) => a.ok)).toHaveLength(5);
    expect(acks.filter((a) => !a.ok).map(code)).toEqual(Array(5).fill('rate/limited'));
    const refused = acks.find((a) => !a.ok);
    if (refused?.ok !== false) throw new Error('expected a refusal');
    expect(refused.error.retryAfterMs).toBeGreaterThan(0);
    expect(refused.error.retryAfterMs).toBeLessThanOrEqual(10_000);
    c.close();
  });

  it("the admin console's cookie is a random session id kept in the store, never the token; it opens the API and the admin socket until signed out", async () => {
    const login = await fetch(`${server.url}/admin/api/session`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(login.status).toBe(201);
    const cookie = login.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/boardroom_admin=[\w-]{40,}; Max-Age=\d+; Path=\/; .*HttpOnly; SameSite=Strict/);
    expect(cookie).not.toContain(ADMIN_TOKEN);
    const session = cookie.split(';', 1)[0]!;
    expect((await fetch(`${server.url}/admin/api/games`, { headers: { cookie: session } })).status).toBe(200);
    const admin = await new Client(server.url, '/admin', undefined, session).connected();
    expect((await admin.ask('admin:queue', {})).ok).toBe(true);
    admin.close();
    for (const forged of [`boardroom_admin=${ADMIN_TOKEN}`, `${session}x`, 'boardroom_admin=abc']) {
      expect((await fetch(`${server.url}/admin/api/games`, { headers: { cookie: forged } })).status, forged).toBe(401);
    }
    // Signing out revokes the session in the store: the same cookie no longer opens anything.
    expect((await fetch(`${server.url}/admin/api/signout`, { method: 'POST', headers: { cookie: session } })).status).toBe(200);
    expect((await fetch(`${server.url}/admin/api/games`, { headers: { cookie: session } })).status).toBe(401);
    const refused = new Client(server.url, '/admin', undefined, session);
    await expect(refused.connected()).rejects.toMatchObject({ data: { code: 'auth/required' } });
    refused.close();
    expect((await fetch(`${server.url}/admin/api/session`, { method: 'POST' })).status).toBe(401);
  });

  it('a WebSocket from a page of another site is refused; one with no Origin (a program) or the same site is let in', async () => {
    const { io } = await import('socket.io-client');
    const connect = (origin?: string) =>
      new Promise<string>((resolve) => {
        const socket = io(server.url, { transports: ['websocket'], reconnection: false, ...(origin ? { extraHeaders: { origin } } : {}) });
        socket.once('connect', () => (socket.close(), resolve('connected')));
        socket.once('connect_error', () => (socket.close(), resolve('refused')));
      });
    expect(await connect('https://evil.example')).toBe('refused');
    expect(await connect()).toBe('connected');
    expect(await connect(server.url)).toBe('connected');
  });

  it('every event on every namespace is answered, an unknown one with event/unknown', async () => {
    const token = await fetch(`${server.url}/admin/api/agents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
      body: JSON.stringify({ name: 'asker' }),
    }).then((r) => r.json() as Promise<{ token: string }>);
    const clients = [
      await new Client(server.url).connected(),
      await new Client(server.url, '/agent', { token: token.token }).connected(),
      await new Client(server.url, '/admin', { token: ADMIN_TOKEN }).connected(),
    ];
    const events = ['rooms:list', 'room:create', 'room:join', 'room:watch', 'room:unwatch', 'room:resume', 'room:leave', 'move', 'resign', 'draw:offer', 'draw:accept', 'draw:decline', 'rematch', 'hello', 'admin:list', 'admin:unlist', 'admin:open', 'admin:close', 'admin:end', 'admin:queue', 'no-such-event'];
    for (const client of clients) {
      for (const event of events) {
        const ack = await client.ask(event, { gameId: 'nope' });
        expect(typeof ack.ok, `${event} answered`).toBe('boolean');
        if (!ack.ok) expect(ack.error.code, `${event} has a code`).toMatch(/^[a-z]+\/[a-z_]+$/);
      }
      expect(code(await client.ask('no-such-event', {}))).toBe('event/unknown');
    }
    for (const c of clients) c.close();
  });

  it('agents and admins must authenticate', async () => {
    for (const ns of ['/agent', '/admin']) {
      const none = new Client(server.url, ns);
      await expect(none.connected()).rejects.toMatchObject({ data: { code: 'auth/required' } });
      const wrong = new Client(server.url, ns, { token: 'wrong-token-wrong-token' });
      await expect(wrong.connected()).rejects.toMatchObject({ data: { code: 'auth/bad_token' } });
    }
    const admin = await new Client(server.url, '/admin', { token: ADMIN_TOKEN }).connected();
    expect(code(await admin.ask('admin:list', {}))).toBe('ok');
    admin.close();
  });

  it('HTTP refusals: unknown game, admin without token, oversized body', async () => {
    const missing = await fetch(`${server.url}/api/games/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 'room/not_found' } });
    const noToken = await fetch(`${server.url}/admin/api/games`);
    expect(noToken.status).toBe(401);
    expect(await noToken.json()).toMatchObject({ error: { code: 'auth/bad_token' } });
    const big = await fetch(`${server.url}/admin/api/agents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
      body: JSON.stringify({ name: 'x'.repeat(40_000) }),
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ error: { code: 'payload/too_large' } });
    for (const [method, path] of [['GET', '/admin/api/agents'], ['GET', '/api/nothing'], ['DELETE', '/api/bots']]) {
      const res = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(await res.json()).toMatchObject({ ok: false, error: { code: 'route/not_found' } });
    }
  });
});
