import { Job, Queue, QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameLost, GameView, MovedEvent } from '../../shared/protocol/index.js';
import { Redis } from 'ioredis';
import { playMove } from '../../server/games/game.js';
import { BOT_QUEUE } from '../../server/runtime/bullmq-bot-turns.js';
import { RedisStore } from '../../server/store/redis-store.js';
import { botJobId } from '../../server/runtime/job-ids.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { ADMIN_TOKEN, Client, expectOk, kill9, searching, spawnBuilt, startServer } from '../support/server.js';

// The platform's own faults must never decide a game: a dead worker's bot turn is taken over in
// seconds and the bot is not flagged for it; a Redis that comes back empty is announced.
let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis?.stop());

type Seat = { gameId: string; color: 'black' | 'white'; token: string };

/** Ann (white) against engine-5 (black, 5 s a move, and first to move in Othello). */
async function againstEngine5(url: string, timeControl: object) {
  const ann = await new Client(url).connected();
  const created = expectOk(await ann.ask<{ gameId: string; seat: Seat }>('room:create', {
    game: 'othello',
    timeControl,
    seats: { black: { kind: 'bot', bot: 'engine-5' }, white: { kind: 'human' } },
    sit: { name: 'Ann', color: 'white' },
  }));
  return { ann, gameId: created.gameId };
}

async function metric(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(name));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

describe('bot workers that die', () => {
  it('a worker killed 1 s into a 5 s search and back 2 s later: the bot still moves before its 15 s flag, and the stall is counted', async () => {
    const env = { REDIS_URL: redis.url, REDIS_PREFIX: 'wdie', BOT_THREADS: '1' };
    const server = await startServer(env);
    let worker = spawnBuilt('worker', env);
    await worker.ready;
    const admin = await new Client(server.url, '/admin', { token: ADMIN_TOKEN }).connected();
    const { ann, gameId } = await againstEngine5(server.url, { kind: 'per-move', moveMs: 15_000 });
    const started = Date.now();
    await searching(admin, gameId);
    await new Promise((r) => setTimeout(r, Math.max(0, started + 1000 - Date.now())));
    await kill9(worker.child);
    await new Promise((r) => setTimeout(r, 2000));
    worker = spawnBuilt('worker', env);
    await worker.ready;
    const moved = await ann.waitFor<MovedEvent>('moved', (e) => e.gameId === gameId, 30_000);
    expect(moved).toMatchObject({ ply: 0, color: 'black', status: 'live' });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await metric(server.url, 'boardroom_bot_jobs{outcome="stalled"}')).toBeGreaterThanOrEqual(1);
    const queue = expectOk(await admin.ask<{ queue: Record<string, number> }>('admin:queue', {})).queue;
    expect(queue.stalled).toBeGreaterThanOrEqual(1);
    for (const c of [ann, admin]) c.close();
    await kill9(worker.child);
    await server.close();
  });

  it('with two workers, the survivor takes a dead worker’s job over in under 5 s', async () => {
    const env = { REDIS_URL: redis.url, REDIS_PREFIX: 'wtwo', BOT_THREADS: '1' };
    const server = await startServer(env);
    const workers = [spawnBuilt('worker', env), spawnBuilt('worker', env)];
    await Promise.all(workers.map((w) => w.ready));
    const admin = await new Client(server.url, '/admin', { token: ADMIN_TOKEN }).connected();
    const { ann, gameId } = await againstEngine5(server.url, { kind: 'none' });
    await searching(admin, gameId);
    const connection = { host: '127.0.0.1', port: redis.port };
    const events = new QueueEvents(BOT_QUEUE, { connection, prefix: 'wtwo' });
    await events.waitUntilReady();
    const queue = new Queue(BOT_QUEUE, { connection, prefix: 'wtwo' });
    const job = await Job.fromId(queue, botJobId(gameId, 0));
    const holder = workers.find((w) => job?.processedBy?.endsWith(`-${w.child.pid}`));
    expect(holder).toBeDefined();
    const takenOver = new Promise<number>((resolve, reject) => {
      setTimeout(() => reject(new Error('no worker took the job over within 20 s')), 20_000);
      events.on('active', ({ jobId }) => jobId === botJobId(gameId, 0) && resolve(Date.now()));
    });
    const killedAt = Date.now();
    await kill9(holder!.child);
    expect((await takenOver) - killedAt).toBeLessThan(5000);
    const moved = await ann.waitFor<{ gameId: string; color: string }>('moved', (e) => e.gameId === gameId, 30_000);
    expect(moved.color).toBe('black');
    await events.close();
    await queue.close();
    for (const c of [ann, admin]) c.close();
    for (const w of workers) await kill9(w.child);
    await server.close();
  });
});

describe('a Redis that keeps nothing', () => {
  it('warns at start-up, and refuses to start with REQUIRE_PERSISTENCE=1', async () => {
    const warned = spawnBuilt('main', { REDIS_URL: redis.url, REDIS_PREFIX: 'persist', LOG_LEVEL: 'warn' });
    await warned.ready;
    expect(warned.output()).toMatch(/keeps nothing across a restart \(appendonly no, save \\?"\\?"\)/);
    await kill9(warned.child);
    const refused = spawnBuilt('main', { REDIS_URL: redis.url, REDIS_PREFIX: 'persist', REQUIRE_PERSISTENCE: '1' });
    await expect(refused.ready).rejects.toThrow(/exited with 2[\s\S]*will not start: This Redis keeps nothing across a restart/);
  });

  it('restarted empty: a player in a live game is told game:lost within a few seconds', async () => {
    const own = await startRedis();
    const server = await startServer({ REDIS_URL: own.url, REDIS_PREFIX: 'empty' });
    const ann = await new Client(server.url).connected();
    const bob = await new Client(server.url).connected();
    const created = expectOk(await ann.ask<{ gameId: string; seat: Seat }>('room:create', { game: 'gomoku', seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: 'Ann', color: 'black' } }));
    expectOk(await bob.ask('room:join', { gameId: created.gameId, name: 'Bob' }));
    expectOk(await ann.ask('move', { gameId: created.gameId, token: created.seat.token, ply: 0, move: 'h8' }));
    await own.restartEmpty();
    const restarted = Date.now();
    const lost = await Promise.all([ann, bob].map((c) => c.waitFor<GameLost>('game:lost', (e) => e.gameId === created.gameId, 15_000)));
    expect(Date.now() - restarted).toBeLessThan(8000);
    expect(lost[0]).toMatchObject({ code: 'game/lost' });
    for (const c of [ann, bob]) c.close();
    await server.close();
    await own.stop();
  });
});

describe('a subscription lost', () => {
  it("a move whose news a process missed while it was not subscribed reaches that process's players once it subscribes again", async () => {
    const env = { REDIS_URL: redis.url, REDIS_PREFIX: 'resub' };
    const [a, b] = [await startServer(env), await startServer(env)];
    const ann = await new Client(a.url).connected();
    const bob = await new Client(b.url).connected();
    const created = expectOk(await ann.ask<{ gameId: string; seat: Seat }>('room:create', { game: 'othello', seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: 'Ann', color: 'black' } }));
    expectOk(await bob.ask('room:join', { gameId: created.gameId, name: 'Bob' }));
    // The move is stored with no news sent, as when its process's publish was lost.
    const client = new Redis(redis.url);
    const store = new RedisStore(client, 'resub:');
    const game = (await store.get(created.gameId))!;
    const played = playMove(game, 'black', 0, 'f5', Date.now());
    if (!played.ok) throw new Error(played.error.code);
    expect(await store.update(played.value.game)).toBe(true);
    const heard = bob.waitFor<GameView>('state', (v) => v.id === created.gameId && v.ply === 1, 10_000);
    await client.client('KILL', 'TYPE', 'pubsub');
    expect((await heard).moves).toEqual(['f5']);
    client.disconnect();
    for (const c of [ann, bob]) c.close();
    for (const server of [a, b]) await server.close();
  });
});
