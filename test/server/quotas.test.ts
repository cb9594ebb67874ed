import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io } from 'socket.io-client';
import type { Ack } from '../../shared/protocol/index.js';
import type { Boardroom } from '../../server/app.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { ADMIN_TOKEN, Client, newAgentToken, Opened, playScripted } from '../support/server.js';

// Quotas hold under concurrency: what one owner sends at once is counted and checked in one step,
// and a refused handshake leaves no connection counted.
let redis: TestRedis;
const opened = new Opened();
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await opened.closeAll();
  await redis?.stop();
});

let prefixes = 0;
const MODES: Record<'redis' | 'embedded', () => Record<string, string>> = {
  redis: () => ({ REDIS_URL: redis.url, REDIS_PREFIX: `quotas${++prefixes}` }),
  embedded: () => ({}),
};

const serve = (env: Record<string, string>): Promise<Boardroom> => opened.server(env);
const connect = (server: Boardroom, namespace = '/', auth?: Record<string, string>): Promise<Client> => opened.client(server, namespace, auth);

const agentToken = (server: Boardroom, name: string): Promise<string> => newAgentToken(server.url, name);

async function revoke(server: Boardroom, name: string): Promise<number> {
  return (await fetch(`${server.url}/admin/api/agents/${name}`, { method: 'DELETE', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).status;
}

/** The code a handshake is refused with, or 'connected'. */
async function handshake(server: Boardroom, namespace: string, auth?: Record<string, string>): Promise<string> {
  const socket = io(server.url + namespace, { transports: ['websocket'], reconnection: false, forceNew: true, ...(auth ? { auth } : {}) });
  try {
    return await new Promise<string>((resolve) => {
      socket.once('connect', () => resolve('connected'));
      socket.once('connect_error', (error: Error & { data?: { code?: string } }) => resolve(error.data?.code ?? error.message));
    });
  } finally {
    socket.close();
  }
}

/** Connections the platform counts from every address, summed over the server processes (Redis mode). */
async function countedConnections(prefix: string): Promise<number> {
  const client = redis.client();
  const keys = await client.keys(`${prefix}:connections:*`);
  const counts = await Promise.all(keys.map((key) => client.hvals(key)));
  return counts.flat().reduce((sum, n) => sum + Number(n), 0);
}

/** Rooms held by every owner in a quota's set (Redis mode). */
async function heldRooms(prefix: string, set: string): Promise<number> {
  const client = redis.client();
  const keys = await client.keys(`${prefix}:held:${set}:*`);
  const counts = await Promise.all(keys.map((key) => client.zcard(key)));
  return counts.reduce((sum, n) => sum + n, 0);
}

function tally(acks: readonly Ack<unknown>[]): Record<string, number> {
  const codes: Record<string, number> = {};
  for (const ack of acks) {
    const code = ack.ok ? 'ok' : ack.error.code;
    codes[code] = (codes[code] ?? 0) + 1;
  }
  return codes;
}

const humanRoom = { game: 'gomoku', seats: { black: { kind: 'human' }, white: { kind: 'human' } } };
const botRoom = { game: 'othello', seats: { black: { kind: 'human' }, white: { kind: 'bot', bot: 'random' } } };

describe.each(Object.keys(MODES) as (keyof typeof MODES)[])('connection quota, %s', (mode) => {
  it('refused /agent handshakes, revoked and unknown tokens, leave no connection counted: the address still connects', async () => {
    const env = MODES[mode]();
    const server = await serve({ ...env, QUOTA_CONNECTIONS: '3' });
    const token = await agentToken(server, 'revoked');
    expect(await revoke(server, 'revoked')).toBe(200);
    const refused = await Promise.all(Array.from({ length: 8 }, (_, i) => handshake(server, '/agent', { token: i % 2 === 0 ? token : 'not-a-token' })));
    expect(new Set(refused)).toEqual(new Set(['auth/bad_token']));
    expect(await handshake(server, '/agent')).toBe('auth/required');
    expect(await handshake(server, '/admin', { token: 'wrong' })).toBe('auth/bad_token');
    if (env.REDIS_PREFIX) expect(await countedConnections(env.REDIS_PREFIX)).toBe(0);
    // Exactly the quota's connections from the address, then a refusal.
    await connect(server, '/agent', { token: await agentToken(server, 'valid') });
    await connect(server);
    await connect(server);
    expect(await handshake(server, '/')).toBe('quota/connections');
    if (env.REDIS_PREFIX) expect(await countedConnections(env.REDIS_PREFIX)).toBe(3);
  });

  it('a handshake the client abandons before it completes leaves no connection counted', async () => {
    const env = MODES[mode]();
    const server = await serve({ ...env, QUOTA_CONNECTIONS: '2' });
    for (let i = 0; i < 4; i++) {
      const socket = io(server.url, { transports: ['websocket'], reconnection: false, forceNew: true });
      // The connect packet is written when the transport opens: close right behind it.
      await new Promise<void>((resolve) => socket.io.once('open', () => setImmediate(() => (socket.io.engine.close(), resolve()))));
      socket.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    if (env.REDIS_PREFIX) expect(await countedConnections(env.REDIS_PREFIX)).toBe(0);
    expect(await handshake(server, '/')).toBe('connected');
    await connect(server);
    await connect(server);
    expect(await handshake(server, '/')).toBe('quota/connections');
  });
});

describe.each(Object.keys(MODES) as (keyof typeof MODES)[])('room quotas under concurrency, %s', (mode) => {
  it('30 room:create at once from one connection with a live-room quota of 20: exactly 20 made', async () => {
    const server = await serve({ ...MODES[mode](), QUOTA_LIVE_ROOMS: '20' });
    const ann = await connect(server);
    const acks = await Promise.all(Array.from({ length: 30 }, () => ann.ask('room:create', humanRoom)));
    expect(tally(acks)).toEqual({ ok: 20, 'quota/live_rooms': 10 });
    expect(await ann.ask('room:create', humanRoom)).toMatchObject({ ok: false, error: { code: 'quota/live_rooms' } });
  });

  it('25 bot rooms at once with a bot-game quota of 10: exactly 10 made, and the refused ones hold no room', async () => {
    const server = await serve({ ...MODES[mode](), QUOTA_LIVE_ROOMS: '12', QUOTA_LIVE_BOT_GAMES: '10' });
    const ann = await connect(server);
    const acks = await Promise.all(Array.from({ length: 25 }, () => ann.ask('room:create', botRoom)));
    expect(tally(acks).ok).toBe(10);
    const more = await Promise.all(Array.from({ length: 3 }, () => ann.ask('room:create', humanRoom)));
    expect(tally(more)).toEqual({ ok: 2, 'quota/live_rooms': 1 });
  });

  it('rooms refused by the per-minute quota hold no room', async () => {
    const env = MODES[mode]();
    const server = await serve({ ...env, QUOTA_LIVE_ROOMS: '8', QUOTA_ROOMS_PER_MINUTE: '5' });
    const ann = await connect(server);
    const acks = await Promise.all(Array.from({ length: 10 }, () => ann.ask('room:create', humanRoom)));
    expect(tally(acks).ok).toBe(5);
    if (env.REDIS_PREFIX) expect(await heldRooms(env.REDIS_PREFIX, 'rooms')).toBe(5);
  });

  it('30 challenges at once from one agent with a live-room quota of 20: exactly 20 made', async () => {
    const server = await serve({ ...MODES[mode](), QUOTA_LIVE_ROOMS: '20' });
    const agent = await connect(server, '/agent', { token: await agentToken(server, 'challenger') });
    const acks = await Promise.all(Array.from({ length: 30 }, () => agent.ask('challenge', { game: 'othello', opponent: { kind: 'open' } })));
    expect(tally(acks)).toEqual({ ok: 20, 'quota/live_rooms': 10 });
  });

  it('analyses of five games asked at once with bot seconds for one: exactly one is queued', async () => {
    // One bot second a minute; a 9-move game at 60 ms a position is charged 2 × 10 × 60 ms.
    const server = await serve({ ...MODES[mode](), ANALYSIS_PLY_MS: '60', QUOTA_BOT_SECONDS_PER_MINUTE: '1' });
    const moves = ['h8', 'a1', 'i8', 'a3', 'j8', 'a5', 'k8', 'a7', 'l8'];
    const games = await Promise.all(Array.from({ length: 5 }, () => playScripted(server.url, 'gomoku', moves)));
    const ann = await connect(server);
    const acks = await Promise.all(games.map(({ gameId }) => ann.ask('analysis:request', { gameId })));
    expect(tally(acks)).toEqual({ ok: 1, 'quota/bot_seconds': 4 });
  });
});
