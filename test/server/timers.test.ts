import { Worker } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotJobInput } from '../../bots/jobs/contract.js';
import { flagTime } from '../../server/games/clock.js';
import { toMove } from '../../server/games/game.js';
import { BOT_QUEUE, BullmqBotTurns } from '../../server/runtime/bullmq-bot-turns.js';
import { botJobId, gameTimerIds } from '../../server/runtime/job-ids.js';
import { timerKeys } from '../../server/runtime/redis-timers.js';
import { RedisStore } from '../../server/store/redis-store.js';
import type { StoredGame } from '../../server/store/store.js';
import { GAMES } from '../../shared/games.js';
import type { GameView } from '../../shared/protocol/index.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { Client, expectOk, kill9, playMove, spawnBuilt } from '../support/server.js';

// Timers on the built server: a flag outlives the process that armed it, and a game's timers cost
// one entry while it lives and nothing once it ends.
type Seat = { gameId: string; color: 'black' | 'white'; token: string };
let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis?.stop());

async function humanRoom(url: string, initialMs: number) {
  const ann = await new Client(url).connected();
  const bob = await new Client(url).connected();
  const timeControl = { kind: 'bank', initialMs, incrementMs: 0 };
  const created = expectOk(await ann.ask<{ gameId: string; seat: Seat }>('room:create', { game: 'othello', timeControl, seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: 'Ann', color: 'black' } }));
  const joined = expectOk(await bob.ask<{ seat: Seat; view: GameView }>('room:join', { gameId: created.gameId, name: 'Bob' }));
  let view = joined.view;
  const play = async (moves: number) => {
    for (let i = 0; i < moves; i++) view = view.toMove === 'black' ? await playMove(ann, view, created.seat.token, view.legal[0]!) : await playMove(bob, view, joined.seat.token, view.legal[0]!);
    return view;
  };
  const close = () => [ann, bob].forEach((c) => c.close());
  return { ann, bob, gameId: created.gameId, black: created.seat.token, play, close };
}

/** The keys under `prefix` that name the game, beside its document and its moves. */
async function keysNaming(prefix: string, gameId: string): Promise<string[]> {
  const keys = await redis.client().keys(`${prefix}:*${gameId}*`);
  return keys.filter((k) => k !== `${prefix}:game:{${gameId}}` && k !== `${prefix}:game:{${gameId}}:moves`).sort();
}

/** The game's timer entries in the set of deadlines. */
async function timerEntries(prefix: string, gameId: string): Promise<string[]> {
  const client = redis.client();
  const keys = timerKeys(prefix);
  const found: string[] = [];
  for (const id of gameTimerIds(gameId)) {
    if ((await client.zscore(keys[0]!, id)) !== null) found.push(`due ${id}`);
  }
  return found;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('timers of a web process', () => {
  it('a flag armed by a web process killed before its time falls in another web process within 200 ms of it', async () => {
    const prefix = 'orphan';
    const env = { REDIS_URL: redis.url, REDIS_PREFIX: prefix, RECONNECT_GRACE_MS: '60000' };
    const armer = spawnBuilt('main', env);
    const other = spawnBuilt('main', env);
    const [port] = await Promise.all([armer.ready, other.ready]);
    const room = await humanRoom(`http://127.0.0.1:${port}`, 3000);
    // Both sides have moved: white's flag is its bank's, armed by the move just played.
    await room.play(3);
    await kill9(armer.child);
    room.close();
    const store = new RedisStore(redis.client(), `${prefix}:`);
    const armed = (await store.get(room.gameId))!;
    const flag = flagTime(armed.timeControl, armed.clock, toMove(armed))!;
    expect(flag - Date.now()).toBeGreaterThan(1000);
    const ended = await until(async () => (await store.get(room.gameId))!, (g: StoredGame) => g.status === 'finished', 10_000);
    expect(ended.result).toMatchObject({ winner: 'black', reason: 'timeout' });
    expect(ended.updatedAt - flag).toBeGreaterThanOrEqual(0);
    expect(ended.updatedAt - flag).toBeLessThan(200);
    await kill9(other.child);
  });

  it('a live game holds one flag whatever its moves, and a finished game leaves no timer key or entry behind', async () => {
    const prefix = 'leftover';
    const server = spawnBuilt('main', { REDIS_URL: redis.url, REDIS_PREFIX: prefix });
    const room = await humanRoom(`http://127.0.0.1:${await server.ready}`, 600_000);
    await room.play(12);
    expect(await keysNaming(prefix, room.gameId)).toEqual([]);
    expect(await timerEntries(prefix, room.gameId)).toEqual([`due flag:${room.gameId}`]);
    expectOk(await room.ann.ask('resign', { gameId: room.gameId, token: room.black }));
    await room.ann.waitFor<{ view: GameView }>('ended', (e) => e.view.id === room.gameId);
    expect(await keysNaming(prefix, room.gameId)).toEqual([]);
    expect(await timerEntries(prefix, room.gameId)).toEqual([]);
    room.close();
    await kill9(server.child);
  });
});

describe('the bot queue', () => {
  it('keeps at most a thousand finished turns, however many were played', async () => {
    const prefix = 'kept';
    const turns = new BullmqBotTurns(redis.client(), (error) => {
      throw error;
    }, [prefix]);
    const position = GAMES.othello.rules.start({});
    const worker = new Worker<BotJobInput>(BOT_QUEUE, async (job) => ({ gameId: job.data.gameId, ply: job.data.ply, game: job.data.game, bot: job.data.bot, move: 'f5' }), { connection: redis.client(), prefix, concurrency: 50 });
    const turnsPlayed = 1200;
    for (let i = 0; i < turnsPlayed; i++) await turns.request({ gameId: `g${i}`, ply: 0, game: 'othello', position, bot: 'any', budgetMs: 10, deadline: null });
    const counts = await until(() => turns.bullQueues[0]!.getJobCounts('wait', 'active', 'completed'), (c) => c.wait === 0 && c.active === 0, 30_000);
    await worker.close();
    expect(counts.wait).toBe(0);
    expect(counts.completed).toBeLessThanOrEqual(1000);
    expect(await turns.bullQueues[0]!.getJob(botJobId('g0', 0))).toBeUndefined();
    expect(await turns.bullQueues[0]!.getJob(botJobId(`g${turnsPlayed - 1}`, 0))).toBeDefined();
    await turns.close();
  });
});
