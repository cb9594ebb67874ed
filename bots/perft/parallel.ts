import { availableParallelism } from 'node:os';
import type { Game, Position } from '../../shared/games.js';
import { runOnWorkers } from '../threads.js';
import type { PerftTask } from './perft-worker.js';
import { leaves, splitTree, type PerftEngine } from './subtrees.js';

export interface PerftRun {
  readonly leaves: number;
  readonly ms: number;
  readonly threads: number;
}

/** Below these depths starting workers costs more than it saves. */
const MIN_PARALLEL_DEPTH: Record<Game['id'], number> = { othello: 9, gomoku: 4, minichess: 7 };

/**
 * perft on `threads` worker threads: the tree is cut into the lines of its first plies, which
 * the threads take one at a time. One thread runs in this thread with no workers at all.
 */
export async function parallelPerft(
  game: Game,
  position: Position,
  depth: number,
  threads: number = availableParallelism(),
  onProgress?: (done: number, total: number) => void,
  engine: PerftEngine = 'ts',
): Promise<PerftRun> {
  const started = performance.now();
  const board = game.board(position);
  if (threads <= 1 || depth < MIN_PARALLEL_DEPTH[game.id]) {
    const n = leaves(board, depth, engine);
    return { leaves: n, ms: performance.now() - started, threads: 1 };
  }
  const { lines, counted } = splitTree(board, depth, 3);
  const text = game.rules.formatPosition(position);
  let total = counted;
  let done = 0;
  const tasks = lines.map((line): PerftTask => ({ game: game.id, position: text, line, depth, engine }));
  const threadsUsed = await runOnWorkers(import.meta.url, 'perft-worker', tasks, threads, (n: number) => {
    total += n;
    onProgress?.(++done, lines.length);
  });
  return { leaves: total, ms: performance.now() - started, threads: threadsUsed };
}
