import type { GameId } from '../shared/rules.js';
import type { Bot } from './bot.js';
import { botFromSet, engineOf, type GameBots } from './bot-set.js';
import { BOT_CATALOG } from './catalog.js';
import { GOMOKU_BOTS } from './gomoku/bots.js';
import { MINICHESS_BOTS } from './minichess/bots.js';
import { OTHELLO_BOTS } from './othello/bots.js';

/** Every game's implementations, loaded together: for the long-lived threads that may play any game. */
const SETS: Record<GameId, GameBots> = { othello: OTHELLO_BOTS, gomoku: GOMOKU_BOTS, minichess: MINICHESS_BOTS };

/** Bots are made on first use: each worker thread builds only what it is asked to run. */
const made = new Map<string, Bot>();

/** Every bot a room of this game can seat, in catalog order. */
export function botsFor(game: GameId): readonly Bot[] {
  return BOT_CATALOG[game].map((entry) => findBot(game, entry.name)!);
}

export function findBot(game: GameId, name: string): Bot | undefined {
  const key = `${game}/${name}`;
  const known = made.get(key);
  if (known) return known;
  const set = SETS[game];
  const bot = set && botFromSet(game, set, name);
  if (bot) made.set(key, bot);
  return bot;
}

/** The strong engine with a budget of its own (the command line's `--ms`). */
export function engineWithBudget(game: GameId, budgetMs: number): Bot {
  return engineOf(SETS[game], budgetMs);
}
