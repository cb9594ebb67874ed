import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { GAMES } from '../../shared/games.js';
import { GAME_IDS, type GameId } from '../../shared/rules.js';
import { randomPosition } from '../engine/random-position.js';

const run = promisify(execFile);
const BIN = fileURLToPath(new URL('../../../bin/boardroom.js', import.meta.url));
/** Plies of the random games the positions come from, by game: openings to late middle games. */
const PLIES: Readonly<Record<GameId, readonly number[]>> = {
  othello: [4, 12, 20, 28, 36, 44, 50, 54],
  gomoku: [3, 6, 10, 14, 18, 24, 30, 36],
  minichess: [2, 6, 10, 16, 22, 30, 38, 44],
};

export interface AnswerTimes {
  readonly game: GameId;
  /** Wall time of each command, from starting the process to its exit, in ms. */
  readonly wall: number[];
  /** The search time each command reported. */
  readonly reported: number[];
}

/**
 * Runs the installed command `bestmove <game> --position P --ms budget --json` from random
 * positions of each game, as a user would, and times each from the process's start to its exit.
 */
export async function benchAnswerTimes(budgetMs: number): Promise<AnswerTimes[]> {
  const results: AnswerTimes[] = [];
  for (const game of GAME_IDS) {
    const wall: number[] = [];
    const reported: number[] = [];
    for (const plies of PLIES[game]) {
      let position = randomPosition(game, plies, plies);
      for (let seed = plies + 100; GAMES[game].rules.outcome(position); seed += 100) position = randomPosition(game, seed, plies);
      const text = GAMES[game].rules.formatPosition(position);
      const started = performance.now();
      const { stdout } = await run(process.execPath, [BIN, 'bestmove', game, '--position', text, '--ms', String(budgetMs), '--json']);
      wall.push(performance.now() - started);
      reported.push((JSON.parse(stdout.trim().split('\n').at(-1)!) as { ms: number }).ms);
    }
    results.push({ game, wall, reported });
  }
  return results;
}
