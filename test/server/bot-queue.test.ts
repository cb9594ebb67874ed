import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BotJobInput, BotJobResult } from '../../bots/jobs/contract.js';
import { GAMES } from '../../shared/games.js';
import { createLogger } from '../../server/log.js';
import { startBotWorker } from '../../server/runtime/bot-worker.js';
import { BullmqBotTurns } from '../../server/runtime/bullmq-bot-turns.js';
import { botJobId } from '../../server/runtime/job-ids.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { ADMIN_TOKEN, Client, expectOk, startServer } from '../support/server.js';

// The bot queue on a real Redis with a real BullMQ worker, whose processor only sleeps the turn's
// budget: who is served when, not how well.
const SLEEPY = fileURLToPath(new URL('../fixtures/processors/sleepy.mjs', import.meta.url));
let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis?.stop());

const SEARCH_MS = 40;

/** Bot games that go on for `plies` turns each, a turn asked when the last one is answered. */
async function botGames(prefix: string) {
  const turns = new BullmqBotTurns(redis.client(), (error) => {
    throw error;
  }, [prefix]);
  const games = new Map<string, { owner: string; plies: number }>();
  const asked: string[] = [];
  const started: string[] = [];
  const waits = new Map<string, number[]>();
  const ask = (gameId: string, ply: number): Promise<void> => {
    const { owner } = games.get(gameId)!;
    asked.push(botJobId(gameId, ply));
    const input: BotJobInput = { gameId, ply, game: 'othello', position: GAMES.othello.rules.start({}), bot: 'sleepy', budgetMs: SEARCH_MS, deadline: null, owner };
    return turns.request(input);
  };
  let finished!: () => void;
  const allDone = new Promise<void>((resolve) => (finished = resolve));
  let left = 0;
  await turns.start({
    onFlag: async () => undefined,
    onAbandon: async () => undefined,
    onTurnDue: async () => undefined,
    onAwayDue: async () => undefined,
    onBotThinking: async () => undefined,
    onBotFailed: async () => undefined,
    onBotResult: async (result: BotJobResult) => {
      const game = games.get(result.gameId)!;
      waits.set(game.owner, [...(waits.get(game.owner) ?? []), result.queuedMs!]);
      if (result.ply + 1 < game.plies) await ask(result.gameId, result.ply + 1);
      else if (--left === 0) finished();
      return true;
    },
  });
  const worker = startBotWorker(redis.client(), { prefixes: [prefix], concurrency: 1, lockMs: 2000, processor: SLEEPY, name: 'sleepy', log: createLogger('silent') });
  worker.each[0]!.on('active', (job) => started.push(job.id!));
  return {
    asked,
    started,
    waits,
    allDone,
    async play(gameId: string, owner: string, plies: number) {
      games.set(gameId, { owner, plies });
      left++;
      await ask(gameId, 0);
    },
    async close() {
      await worker.close();
      await turns.close();
    },
  };
}

describe('the bot queue', () => {
  it('one owner’s 30 games of different lengths: its turns start in the order they were asked, and another owner’s game waits less than two searches', async () => {
    const queue = await botGames('fifo');
    for (let i = 0; i < 30; i++) await queue.play(`many${i}`, 'agent:many', 2 + (i % 4)); // some end early
    await new Promise((resolve) => setTimeout(resolve, 10 * SEARCH_MS));
    await queue.play('one', 'account:one', 6);
    await queue.allDone;
    const mine = (ids: string[]) => ids.filter((id) => id.startsWith('many'));
    expect(mine(queue.started)).toEqual(mine(queue.asked));
    expect(Math.max(...queue.waits.get('account:one')!)).toBeLessThan(2 * SEARCH_MS);
    await queue.close();
  }, 60_000);

  it('/admin/api/queue counts the turns waiting with a priority', async () => {
    const server = await startServer({ REDIS_URL: redis.url, REDIS_PREFIX: 'backlog' }); // no worker
    const ann = await new Client(server.url).connected();
    for (let i = 0; i < 3; i++) expectOk(await ann.ask('room:create', { game: 'othello', seats: { black: { kind: 'bot', bot: 'engine-1' }, white: { kind: 'bot', bot: 'random' } } }));
    const asked = await fetch(`${server.url}/admin/api/queue`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    const { queue } = (await asked.json()) as { queue: Record<string, number> };
    expect(queue.waiting).toBe(3);
    ann.close();
    await server.close();
  });
});
