import { parentPort } from 'node:worker_threads';
import { GAMES } from '../../shared/games.js';
import type { GameId } from '../../shared/rules.js';
import { findBot } from '../roster.js';
import { playGame, type PlayedGame } from './game.js';

export interface ArenaTask {
  readonly index: number;
  readonly game: GameId;
  readonly first: string;
  readonly second: string;
  readonly opening: readonly number[];
}

/** What the worker answers for a task: the game played, or why it could not be. */
export type ArenaReply = { readonly index: number; readonly played: PlayedGame } | { readonly index: number; readonly failed: string };

parentPort!.on('message', (task: ArenaTask) => {
  let reply: ArenaReply;
  try {
    const first = findBot(task.game, task.first);
    const second = findBot(task.game, task.second);
    if (!first || !second) throw new Error(`unknown bot in ${task.first} vs ${task.second}`);
    reply = { index: task.index, played: playGame(GAMES[task.game], first, second, task.opening) };
  } catch (error) {
    // Answered rather than thrown, so that the match can name the game that failed.
    reply = { index: task.index, failed: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  parentPort!.postMessage(reply);
});
