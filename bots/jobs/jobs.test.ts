import { afterAll, describe, expect, it } from 'vitest';
import { GAMES } from '../../shared/games.js';
import { GAME_IDS } from '../../shared/rules.js';
import { analyseGame } from './analyse.js';
import { ANALYSIS_JOB, type AnalysisJobInput, type AnalysisJobResult, type AnalysisProgress, type BotJobInput, type BotJobResult, type BotThinking } from './contract.js';
import processBotJob from './processor.js';
import { thinkMove } from './think.js';
import { BotThreadPool } from './thread-pool.js';

const job = (game: (typeof GAME_IDS)[number], bot: string, budgetMs = 100): BotJobInput => ({
  gameId: 'g1',
  ply: 0,
  game,
  position: GAMES[game].rules.start(),
  bot,
  budgetMs,
});

const isLegal = (input: BotJobInput, move: string): boolean => {
  const { rules } = GAMES[input.game];
  const parsed = rules.parseMove(move);
  return parsed.ok && rules.check(input.position, parsed.value) === undefined;
};

describe('bot jobs', () => {
  const pool = new BotThreadPool(2);
  afterAll(() => pool.close());

  it.each(GAME_IDS)('%s: thinkMove answers a legal move in notation for the job\'s ply', (game) => {
    const input = job(game, 'random');
    const result = thinkMove(input);
    expect(result).toMatchObject({ gameId: 'g1', ply: 0 });
    expect(isLegal(input, result.move)).toBe(true);
  });

  it('the BullMQ processor runs the same job and relays progress through the job', async () => {
    const progress: object[] = [];
    const input = job('othello', 'random');
    const result = (await processBotJob({ data: input, updateProgress: (p) => void progress.push(p) })) as BotJobResult;
    expect(isLegal(input, result.move)).toBe(true);
  });

  it('the thread pool answers jobs from worker threads, several at once', async () => {
    const inputs = GAME_IDS.flatMap((g) => [job(g, 'random'), job(g, 'random')]);
    const results = await Promise.all(inputs.map((i) => pool.run(i)));
    results.forEach((r, i) => expect(isLegal(inputs[i]!, r.move)).toBe(true));
  });

  it('refuses an unknown bot with a clear error and keeps working', async () => {
    await expect(pool.run(job('othello', 'no-such-bot'))).rejects.toThrow('no bot "no-such-bot" plays othello');
    const thinking: BotThinking[] = [];
    const ok = await pool.run(job('gomoku', 'random'), (t) => thinking.push(t));
    expect(isLegal(job('gomoku', 'random'), ok.move)).toBe(true);
  });

  // Black makes an open three (h8 i8 j8) and white, playing on the edge, lets it become an open four.
  const gomokuGame = (moves: string): AnalysisJobInput => ({
    gameId: 'g2',
    game: 'gomoku',
    options: {},
    start: GAMES.gomoku.rules.formatPosition(GAMES.gomoku.rules.start()),
    moves: moves.split(' '),
    budgetMs: 20,
  });

  it('analyses a game: a value per ply from black\'s view, the finished position its outcome, the unblocked three a blunder', () => {
    const progress: AnalysisProgress[] = [];
    const analysis = analyseGame(gomokuGame('h8 a1 i8 a3 j8 a5 k8 a7 l8'), (p) => progress.push(p));
    expect(analysis.evaluations.map((e) => e.ply)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(progress.at(-1)).toEqual({ done: 10, total: 10 });
    for (const e of analysis.evaluations) expect(Math.abs(e.value)).toBeLessThanOrEqual(1);
    expect(analysis.evaluations[9]).toMatchObject({ value: 1, proven: true, best: null });
    expect(analysis.evaluations[6]!.value).toBe(1); // after a5 black's four cannot be stopped
    const a5 = analysis.moves[5]!;
    expect(a5).toMatchObject({ ply: 6, move: 'a5', color: 'white', mark: 'blunder' });
    expect(['g8', 'k8', 'f8', 'l8']).toContain(a5.best);
    expect(analysis.moves.filter((m) => m.color === 'black').every((m) => m.mark === null)).toBe(true);
  });

  it('runs an analysis as a BullMQ job named analysis and on the thread pool, with progress', async () => {
    const input = gomokuGame('h8 a1 i8');
    const progress: object[] = [];
    const byJob = (await processBotJob({ name: ANALYSIS_JOB, data: input, updateProgress: (p) => void progress.push(p) })) as AnalysisJobResult;
    expect(byJob.evaluations).toHaveLength(4);
    expect(progress).toContainEqual({ done: 4, total: 4 });
    const pooled: AnalysisProgress[] = [];
    const byPool = await pool.analyse(input, (p) => pooled.push(p));
    expect(byPool.moves.map((m) => m.move)).toEqual(['h8', 'a1', 'i8']);
    expect(pooled.map((p) => p.done)).toEqual([1, 2, 3, 4]);
  });

  it('puts analyses behind bot turns and keeps a thread free for turns', async () => {
    const single = new BotThreadPool(2);
    try {
      const order: string[] = [];
      const long = gomokuGame('h8 a1 i8 a3 j8 a5 k8 a7');
      const analyses = [single.analyse(long).then(() => order.push('analysis 1')), single.analyse(long).then(() => order.push('analysis 2'))];
      // The first analysis took one thread; the second waits, since the other thread is the turns'.
      expect(single.running).toBe(1);
      const turn = single.run(job('othello', 'random')).then(() => order.push('turn'));
      expect(single.running).toBe(2);
      await Promise.all([...analyses, turn]);
      expect(order.indexOf('turn')).toBeLessThan(order.indexOf('analysis 2'));
    } finally {
      await single.close();
    }
  });

  it('on one thread, serves the owners in turn and each owner’s turns first come', async () => {
    const single = new BotThreadPool(1);
    try {
      const order: string[] = [];
      const turn = (gameId: string, owner: string) => single.run({ ...job('othello', 'random'), gameId, owner }).then((r) => order.push(r.gameId));
      await Promise.all([turn('a1', 'A'), turn('a2', 'A'), turn('a3', 'A'), turn('a4', 'A'), turn('b1', 'B'), turn('b2', 'B')]);
      expect(order).toEqual(['a1', 'b1', 'a2', 'b2', 'a3', 'a4']);
    } finally {
      await single.close();
    }
  });
});
