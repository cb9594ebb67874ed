import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io } from 'socket.io-client';
import { applyMoved, type GameView, type MovedEvent } from '../../shared/protocol/index.js';
import type { Boardroom } from '../../server/app.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { Client, expectOk, newAgentToken, Opened, playMove, startBotWorker } from '../support/server.js';

// The attacks of one owner against everyone else: a flood of bot rooms, a flood of room
// creations over many connections, and a flood of connections.
let redis: TestRedis;
const opened = new Opened();
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await opened.closeAll();
  await redis?.stop();
});

const serve = (env: Record<string, string>): Promise<Boardroom> => opened.server(env);
const connect = (server: Boardroom, namespace = '/', auth?: Record<string, string>): Promise<Client> => opened.client(server, namespace, auth);

async function agent(server: Boardroom, name: string): Promise<Client> {
  return connect(server, '/agent', { token: await newAgentToken(server.url, name) });
}

/**
 * An agent fills the bot queue with engine-4 games (1 s a move), while a person plays engine-1 on a
 * 4 s per-move clock. Served first come first served, the person's bot would wait behind every
 * queued turn (about 8 s with one worker) and lose on time; served by owner, it waits for at most
 * the one job running.
 */
async function floodAndPlay(server: Boardroom): Promise<number[]> {
  const flooder = await agent(server, `flooder-${Math.random().toString(36).slice(2, 7)}`);
  for (let i = 0; i < 8; i++) {
    expectOk(await flooder.ask('room:create', { game: 'othello', timeControl: { kind: 'none' }, seats: { black: { kind: 'bot', bot: 'engine-4' }, white: { kind: 'bot', bot: 'engine-4' } } }));
  }
  await new Promise((resolve) => setTimeout(resolve, 1500)); // the queue is full of the flood's turns
  const ann = await connect(server);
  const room = expectOk(await ann.ask<{ gameId: string; seat: { token: string }; view: GameView }>('room:create', { game: 'othello', timeControl: { kind: 'per-move', moveMs: 4000 }, seats: { black: { kind: 'human' }, white: { kind: 'bot', bot: 'engine-1' } }, sit: { name: 'Ann', color: 'black' } }));
  const waits: number[] = [];
  let view = room.view;
  for (let i = 0; i < 3; i++) {
    const asked = Date.now();
    view = await playMove(ann, view, room.seat.token, view.legal[0]!);
    const answered = await ann.waitFor<MovedEvent>('moved', (e) => e.gameId === room.gameId && e.ply === view.ply, 10_000);
    waits.push(Date.now() - asked);
    view = applyMoved(view, answered)!;
    expect(view.status).toBe('live');
  }
  return waits;
}

describe('a fair bot queue', () => {
  it('with Redis and one worker: a flood of another owner’s engine-4 games delays a person’s bot by at most one job', async () => {
    const server = await serve({ REDIS_URL: redis.url, REDIS_PREFIX: 'fair' });
    const worker = startBotWorker(redis.url, 'fair', undefined, 1);
    opened.add(() => worker.close());
    const waits = await floodAndPlay(server);
    for (const wait of waits) expect(wait).toBeLessThan(2600); // one engine-4 job (1 s) plus engine-1's own move and the trips
  }, 60_000);

  it('embedded, on one thread: the same', async () => {
    const server = await serve({ BOT_THREADS: '1' });
    const waits = await floodAndPlay(server);
    for (const wait of waits) expect(wait).toBeLessThan(2600);
  }, 60_000);
});

describe('quotas', () => {
  it('10,000 room creations from one address over 50 connections are cut at the per-minute quota', async () => {
    const server = await serve({ QUOTA_ROOMS_PER_MINUTE: '20', QUOTA_LIVE_ROOMS: '1000', RATE_LIMIT: '10000' });
    const clients = await Promise.all(Array.from({ length: 50 }, () => connect(server)));
    const codes = new Map<string, number>();
    let message = '';
    await Promise.all(
      clients.map(async (client) => {
        for (let i = 0; i < 200; i++) {
          const ack = await client.ask('room:create', { game: 'gomoku', seats: { black: { kind: 'human' }, white: { kind: 'human' } } });
          const code = ack.ok ? 'ok' : ack.error.code;
          codes.set(code, (codes.get(code) ?? 0) + 1);
          if (!ack.ok) message = ack.error.message;
        }
      }),
    );
    expect(codes.get('ok')).toBe(20);
    expect(codes.get('quota/rooms_per_minute')).toBe(10_000 - 20);
    expect(message).toContain('20');
    const listed = ((await (await fetch(`${server.url}/api/rooms?status=open`)).json()) as { rooms: unknown[] }).rooms;
    expect(listed).toHaveLength(20);
  }, 120_000);

  it('rooms and bot games not yet finished are counted per owner; a finished one frees its place', async () => {
    const server = await serve({ QUOTA_LIVE_ROOMS: '3', QUOTA_LIVE_BOT_GAMES: '2' });
    const ann = await connect(server);
    const botRoom = () => ann.ask<{ gameId: string; seat: { token: string } }>('room:create', { game: 'othello', seats: { black: { kind: 'human' }, white: { kind: 'bot', bot: 'random' } }, sit: { name: 'Ann', color: 'black' } });
    const first = expectOk(await botRoom());
    expectOk(await botRoom());
    expect(await botRoom()).toMatchObject({ ok: false, error: { code: 'quota/live_bot_games' } });
    expectOk(await ann.ask('room:create', { game: 'gomoku', seats: { black: { kind: 'human' }, white: { kind: 'human' } } }));
    const full = await ann.ask('room:create', { game: 'gomoku', seats: { black: { kind: 'human' }, white: { kind: 'human' } } });
    expect(full).toMatchObject({ ok: false, error: { code: 'quota/live_rooms' } });
    expect(full.ok ? '' : full.error.message).toContain('(3)');
    // Another owner (an agent) is not held back by Ann's rooms.
    const bot = await agent(server, 'other-owner');
    expectOk(await bot.ask('room:create', { game: 'gomoku', seats: { black: { kind: 'agent' }, white: { kind: 'human' } } }));
    expectOk(await ann.ask('resign', { gameId: first.gameId, token: first.seat.token }));
    expectOk(await botRoom());
  });

  it('connections from one address are capped, and a closed one frees its place', async () => {
    const server = await serve({ QUOTA_CONNECTIONS: '5' });
    const five = await Promise.all(Array.from({ length: 5 }, () => connect(server)));
    const sixth = io(server.url, { transports: ['websocket'], reconnection: false });
    const refused = await new Promise<{ message: string; data?: { code: string } }>((resolve) => sixth.once('connect_error', resolve));
    expect(refused.data?.code).toBe('quota/connections');
    expect(refused.message).toContain('(5)');
    sixth.close();
    five[0]!.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    await connect(server);
  });
});

describe('retention', () => {
  it('under a flood of rooms, waiting rooms expire and finished games are cut to their count: Redis memory comes back down', async () => {
    const prefix = 'retain';
    const server = await serve({ REDIS_URL: redis.url, REDIS_PREFIX: prefix, WAITING_ROOM_IDLE_MS: '1000', FINISHED_GAMES_MAX: '50', RETENTION_EVERY_MS: '300' });
    const client = redis.client();
    opened.add(() => void client.disconnect());
    const memory = async (): Promise<number> => Number(/used_memory:(\d+)/.exec(await client.info('memory'))![1]);
    const games = async (): Promise<number> => (await client.keys(`${prefix}:game:*`)).filter((k) => !k.endsWith(':moves')).length;
    const before = await memory();
    const clients = await Promise.all(Array.from({ length: 20 }, () => connect(server)));
    await Promise.all(
      clients.map(async (c) => {
        for (let i = 0; i < 100; i++) expectOk(await c.ask('room:create', { game: 'gomoku', seats: { black: { kind: 'human' }, white: { kind: 'human' } } }));
      }),
    );
    let left = Infinity;
    for (let waited = 0; waited < 15_000 && left > 50; waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      left = await games();
    }
    expect(left).toBeLessThanOrEqual(50);
    // 2,000 rooms would hold about 2 MB (about 1 KB each): what stays is a small part of it.
    const after = await memory();
    expect(after - before).toBeLessThan(500_000);
    const last = ((await (await fetch(`${server.url}/api/games?limit=5`)).json()) as { games: { result: { reason: string } }[] }).games;
    expect(last.every((g) => g.result.reason === 'expired')).toBe(true);
  }, 60_000);
});
