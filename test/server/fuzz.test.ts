import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_ERROR_CODES } from '../../shared/protocol/index.js';
import { MOVE_ERROR_CODES } from '../../shared/rules.js';
import { seededRandom } from '../../shared/random.js';
import type { Boardroom } from '../../server/app.js';
import { ADMIN_TOKEN, Client, expectOk, startServer } from '../support/server.js';

// Every request of every namespace, a few hundred seeded malformed payloads each: wrong types,
// huge and deep values, prototype keys, near-misses aimed at a live game, and requests sent with
// no acknowledgement at all. Each is answered with a stable code, the server stays up, and the
// live game does not change. A failure names its seed, so it replays.
const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const PER_EVENT = 200;
const EVENTS = {
  '/': ['rooms:list', 'room:create', 'room:join', 'room:watch', 'room:unwatch', 'room:resume', 'room:leave', 'move', 'resign', 'draw:offer', 'draw:accept', 'draw:decline', 'rematch', 'seek', 'seek:cancel', 'seek:bot', 'tournaments:list', 'tournament:create', 'tournament:follow', 'tournament:unfollow', 'tournament:join', 'tournament:withdraw', 'tournament:start', 'tournament:bots', 'tournament:seat'],
  '/agent': ['hello', 'rooms:list', 'room:create', 'room:join', 'room:watch', 'challenge', 'challenge:decline', 'move', 'resign', 'draw:offer', 'draw:accept', 'draw:decline', 'ladder:join', 'ladder:leave', 'tournaments:list', 'tournament:follow', 'tournament:join', 'tournament:withdraw'],
  '/admin': ['admin:list', 'admin:unlist', 'admin:open', 'admin:close', 'admin:end', 'admin:queue'],
} as const;
const CODES = new Set<string>([...SERVER_ERROR_CODES, ...MOVE_ERROR_CODES]);

let server: Boardroom;
beforeAll(async () => {
  server = await startServer({ RATE_LIMIT: '10000' });
});
afterAll(() => server?.close());

/** A malformed payload, aimed now and then at the live game `gameId`. */
function payload(random: () => number, gameId: string): unknown {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const scalar = (): unknown => pick([null, true, 0, -1, 1e308, NaN, '', 'x', 'f5', 'black', '🂡', 'a'.repeat(300), [], {}]);
  const deep = (depth: number): unknown => (depth === 0 ? scalar() : random() < 0.5 ? [deep(depth - 1)] : { a: deep(depth - 1) });
  const near = (): Record<string, unknown> => ({
    gameId: pick([gameId, gameId.toUpperCase(), `${gameId} `, 'nope', 42, null]),
    token: pick(['x'.repeat(43), '', 7, null, 'a'.repeat(200)]),
    ply: pick([0, 1, -1, 1.5, '0', 1e9, null]),
    move: pick(['f5', 'pass', 'z9', '', 'a'.repeat(20), 3]),
    name: pick(['Ann', '', 'x'.repeat(100), 5]),
    color: pick(['black', 'white', 'any', 'random', 'purple', 1]),
    game: pick(['othello', 'gomoku', 'minichess', 'chess', null]),
    seekId: pick(['nope', '', 9]),
    seats: pick([{ black: { kind: 'bot', bot: 'nope' }, white: { kind: 'human' } }, { black: 'human' }, []]),
    timeControl: pick([{ kind: 'per-move', moveMs: -1 }, { kind: 'bank' }, 'fast']),
  });
  switch (Math.floor(random() * 7)) {
    case 0:
      return scalar();
    case 1:
      return deep(1 + Math.floor(random() * 200));
    case 2:
      return JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "gameId": "nope"}');
    case 3:
      return { ...near(), extra: 'x'.repeat(Math.floor(random() * 8000)) };
    case 4:
      return Object.fromEntries(Object.entries(near()).filter(() => random() < 0.5));
    case 5:
      return Array.from({ length: Math.floor(random() * 50) }, scalar);
    default:
      return near();
  }
}

describe('fuzzing every request', () => {
  it(`answers ${PER_EVENT} malformed payloads on each event of each namespace with a stable code, and no live game changes (seed ${SEED})`, async () => {
    const agent = await fetch(`${server.url}/admin/api/agents`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` }, body: JSON.stringify({ name: 'fuzzer' }) });
    const { token } = (await agent.json()) as { token: string };
    const host = await new Client(server.url).connected();
    const room = expectOk(await host.ask<{ gameId: string; seat: { token: string } }>('room:create', { game: 'othello', timeControl: { kind: 'none' }, seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: 'Host', color: 'black' } }));
    const guest = await new Client(server.url).connected();
    const joined = expectOk(await guest.ask<{ seat: { token: string } }>('room:join', { gameId: room.gameId, name: 'Guest' }));
    expectOk(await host.ask('move', { gameId: room.gameId, token: room.seat.token, ply: 0, move: 'f5' }));
    const before = await (await fetch(`${server.url}/api/games/${room.gameId}`)).json();

    const clients = {
      '/': await new Client(server.url).connected(),
      '/agent': await new Client(server.url, '/agent', { token }).connected(),
      '/admin': await new Client(server.url, '/admin', { token: ADMIN_TOKEN }).connected(),
    };
    const random = seededRandom(SEED);
    const unanswered: string[] = [];
    const badCodes: string[] = [];
    let answered = 0;
    for (const [namespace, events] of Object.entries(EVENTS) as [keyof typeof EVENTS, readonly string[]][]) {
      const client = clients[namespace];
      for (const event of events) {
        const sent = Array.from({ length: PER_EVENT }, () => payload(random, room.gameId));
        // Some go with no acknowledgement at all: the server must not trip over the missing callback.
        for (const p of sent.slice(0, 10)) client.socket.emit(event, p);
        const acks = await Promise.all(sent.slice(10).map((p) => client.ask(event, p).catch(() => undefined)));
        for (const ack of acks) {
          if (!ack) unanswered.push(`${namespace} ${event}`);
          else if (ack.ok) answered++;
          else if (!CODES.has(ack.error.code) || typeof ack.error.message !== 'string') badCodes.push(`${namespace} ${event}: ${JSON.stringify(ack.error).slice(0, 120)}`);
          else answered++;
        }
      }
    }
    expect(unanswered).toEqual([]);
    expect(badCodes).toEqual([]);
    expect(answered).toBe(Object.values(EVENTS).flat().length * (PER_EVENT - 10));
    // The server is up, nothing was polluted, and the live game is as it was (the admin may end
    // games, but never with a malformed request).
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await (await fetch(`${server.url}/api/games/${room.gameId}`)).json()).toEqual(before);
    expectOk(await guest.ask('move', { gameId: room.gameId, token: joined.seat.token, ply: 1, move: 'd6' }));
    for (const c of [host, guest, ...Object.values(clients)]) c.close();
  }, 120_000);

  it('a message over the 16 KiB limit closes only its own connection', async () => {
    const big = await new Client(server.url).connected();
    const other = await new Client(server.url).connected();
    const closed = new Promise<string>((resolve) => big.socket.once('disconnect', resolve));
    big.socket.emit('room:create', { game: 'othello', pad: 'x'.repeat(20_000) });
    expect(await closed).toMatch(/transport/);
    expect((await other.ask('rooms:list', {})).ok).toBe(true);
    other.close();
  });
});
