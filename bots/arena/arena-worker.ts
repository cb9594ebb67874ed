import { pathToFileURL } from 'node:url';
import { parentPort } from 'node:worker_threads';
import { GAMES } from '../../shared/games.js';
import type { GameId } from '../../shared/rules.js';
import type { Bot } from '../bot.js';
import { findBot } from '../roster.js';
import { rosterPathOf } from './bot-spec.js';
import { playGame, type PlayedGame } from './game.js';

export interface ArenaTask {
  readonly index: number;
  readonly game: GameId;
  /** Bot specs: a roster name, or `name@dir` for a bot of another checkout or build of this repo. */
  readonly first: string;
  readonly second: string;
  readonly opening: readonly number[];
}

/** What the worker answers for a task: the game played, or why it could not be. */
export type ArenaReply = { readonly index: number; readonly played: PlayedGame } | { readonly index: number; readonly failed: string };

type FindBot = (game: GameId, name: string) => Bot | undefined;
const rosters = new Map<string, FindBot>();

async function botOf(game: GameId, spec: string): Promise<Bot> {
  const at = spec.indexOf('@');
  let find: FindBot = findBot;
  if (at >= 0) {
    const dir = spec.slice(at + 1);
    const known = rosters.get(dir);
    if (known) find = known;
    else {
      const path = rosterPathOf(dir);
      if (!path) throw new Error(`no built roster in ${dir} (looked for dist/bots/roster.js and bots/roster.js)`);
      find = ((await import(pathToFileURL(path).href)) as { findBot: FindBot }).findBot;
      rosters.set(dir, find);
    }
  }
  const name = at >= 0 ? spec.slice(0, at) : spec;
  const bot = find(game, name);
  if (!bot) throw new Error(`unknown bot ${spec}`);
  return bot;
}

parentPort!.on('message', (task: ArenaTask) => {
  void (async (): Promise<ArenaReply> => {
    try {
      const first = await botOf(task.game, task.first);
      const second = await botOf(task.game, task.second);
      return { index: task.index, played: playGame(GAMES[task.game], first, second, task.opening) };
    } catch (error) {
      // Answered rather than thrown, so that the match can name the game that failed.
      return { index: task.index, failed: error instanceof Error ? (error.stack ?? error.message) : String(error) };
    }
  })().then((reply) => parentPort!.postMessage(reply));
});
