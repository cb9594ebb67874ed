import { parentPort } from 'node:worker_threads';
import { GAMES } from '../../shared/games.js';
import type { GameId } from '../../shared/rules.js';
import { leaves, type PerftEngine } from './subtrees.js';

export interface PerftTask {
  readonly game: GameId;
  readonly position: string;
  readonly line: readonly number[];
  readonly depth: number;
  readonly engine: PerftEngine;
}

parentPort!.on('message', (task: PerftTask) => {
  const game = GAMES[task.game];
  const parsed = game.rules.parsePosition(task.position);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const board = game.board(parsed.value);
  for (const move of task.line) board.make(move);
  parentPort!.postMessage(leaves(board, task.depth - task.line.length, task.engine));
});
