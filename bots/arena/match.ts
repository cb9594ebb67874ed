import { availableParallelism } from 'node:os';
import { GAMES } from '../../shared/games.js';
import type { GameId } from '../../shared/rules.js';
import { startWorker } from '../threads.js';
import type { ArenaReply, ArenaTask } from './arena-worker.js';
import { estimateElo, type EloEstimate } from './elo.js';
import { randomOpening, type PlayedGame } from './game.js';
import { seededRandom } from '../../shared/random.js';

export interface MatchOptions {
  readonly game: GameId;
  readonly a: string;
  readonly b: string;
  readonly games: number;
  readonly seed: number;
  readonly threads?: number;
  readonly onGame?: (done: number, total: number) => void;
}

export interface MatchGame extends PlayedGame {
  readonly aFirst: boolean;
  /** 1 A won, ½ draw, 0 A lost. */
  readonly points: number;
}

export interface MatchResult extends EloEstimate {
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
  readonly played: readonly MatchGame[];
}

/**
 * A match of `games` games between bots A and B: each random opening is played twice, colours
 * swapped, and the games run side by side on worker threads (the bots think synchronously).
 */
export async function runMatch(options: MatchOptions): Promise<MatchResult> {
  const game = GAMES[options.game];
  const random = seededRandom(options.seed);
  const tasks: ArenaTask[] = [];
  for (let i = 0; i < options.games; i++) {
    const opening = i % 2 === 0 ? randomOpening(game, random) : tasks[i - 1]!.opening;
    const aFirst = i % 2 === 0;
    tasks.push({ index: i, game: options.game, first: aFirst ? options.a : options.b, second: aFirst ? options.b : options.a, opening });
  }
  const played: MatchGame[] = new Array(tasks.length);
  const threads = Math.max(1, Math.min(options.threads ?? availableParallelism(), tasks.length));
  let next = 0;
  let done = 0;
  const workers = Array.from({ length: threads }, () => startWorker(import.meta.url, 'arena-worker'));
  try {
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            const give = (): void => {
              if (next >= tasks.length) return resolve();
              worker.postMessage(tasks[next++]);
            };
            worker.on('message', (reply: ArenaReply) => {
              const { index } = reply;
              if ('failed' in reply) {
                const task = tasks[index]!;
                const opening = task.opening.map((m) => game.rules.formatMove(m)).join(' ');
                reject(new Error(`arena game ${index + 1} (${task.first} first, ${task.second} second, opening ${opening}) failed: ${reply.failed}`));
                return;
              }
              const p = reply.played;
              const aFirst = index % 2 === 0;
              const aColor = aFirst ? p.firstMover : p.firstMover === 'black' ? 'white' : 'black';
              const points = p.outcome.winner === null ? 0.5 : p.outcome.winner === aColor ? 1 : 0;
              played[index] = { ...p, aFirst, points };
              options.onGame?.(++done, tasks.length);
              give();
            });
            worker.on('error', reject);
            worker.on('exit', (code) => {
              if (done < tasks.length) reject(new Error(`an arena worker stopped (exit code ${code}) with games unplayed`));
            });
            give();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  const wins = played.filter((g) => g.points === 1).length;
  const draws = played.filter((g) => g.points === 0.5).length;
  const losses = played.length - wins - draws;
  return { ...estimateElo({ wins, draws, losses }), wins, draws, losses, played };
}
