import { describe, expect, it, vi } from 'vitest';
import type { BotJobInput, BotJobResult } from '../../bots/jobs/contract.js';
import type { BotThreadPool } from '../../bots/jobs/thread-pool.js';
import { GAMES } from '../../shared/games.js';
import type { RuntimeHandlers } from './handlers.js';
import { LocalBotTurns } from './local-bot-turns.js';

const input: BotJobInput = { gameId: 'g', ply: 3, game: 'othello', position: GAMES.othello.rules.start(), bot: 'engine-1', budgetMs: 50 };

function handlers(): RuntimeHandlers & { [k: string]: ReturnType<typeof vi.fn> } {
  return {
    onFlag: vi.fn(async () => {}),
    onAbandon: vi.fn(async () => {}),
    onBotResult: vi.fn(async () => {}),
    onBotThinking: vi.fn(async () => {}),
    onBotFailed: vi.fn(async () => {}),
  } as never;
}

describe('local bot turns', () => {
  it('retries a failing job, then tells the service the bot cannot move (it then loses on time)', async () => {
    const run = vi.fn(async () => {
      throw new Error('worker crashed');
    });
    const h = handlers();
    const turns = new LocalBotTurns({ run } as unknown as BotThreadPool, () => {});
    await turns.start(h);
    await turns.request(input);
    await vi.waitFor(() => expect(h.onBotFailed).toHaveBeenCalledWith('g', 3));
    expect(run).toHaveBeenCalledTimes(3);
    expect(h.onBotResult).not.toHaveBeenCalled();
  });

  it('asks once per game and ply, and delivers the answer', async () => {
    const result = { gameId: 'g', ply: 3, move: 'f5' } as BotJobResult;
    let release: () => void = () => {};
    const run = vi.fn(() => new Promise<BotJobResult>((resolve) => (release = () => resolve(result))));
    const h = handlers();
    const turns = new LocalBotTurns({ run } as unknown as BotThreadPool, () => {});
    await turns.start(h);
    await turns.request(input);
    await turns.request(input);
    release();
    await vi.waitFor(() => expect(h.onBotResult).toHaveBeenCalledWith(result));
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('reports an applied answer for the metrics, not a stale one', async () => {
    const result = { gameId: 'g', ply: 3, move: 'f5', ms: 40, queuedMs: 2 } as BotJobResult;
    const answered: BotJobResult[] = [];
    for (const applied of [true, false]) {
      const h = handlers();
      vi.mocked(h.onBotResult).mockResolvedValue(applied);
      const turns = new LocalBotTurns({ run: async () => result } as unknown as BotThreadPool, () => {}, (r) => answered.push(r));
      await turns.start(h);
      await turns.request(input);
      await vi.waitFor(() => expect(h.onBotResult).toHaveBeenCalledWith(result));
      await vi.waitFor(async () => expect(await turns.pending('g', 3)).toBe(false));
    }
    expect(answered).toEqual([result]);
  });
});
