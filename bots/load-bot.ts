import type { GameId } from '../shared/rules.js';
import type { Bot } from './bot.js';
import { botFromSet, engineOf, type GameBots } from './bot-set.js';

/** Each game's bots, loaded on first use: a one-shot process (the command line) loads only its game's code. */
const LOADERS: Record<GameId, () => Promise<GameBots>> = {
  othello: async () => (await import('./othello/bots.js')).OTHELLO_BOTS,
  gomoku: async () => (await import('./gomoku/bots.js')).GOMOKU_BOTS,
  minichess: async () => (await import('./minichess/bots.js')).MINICHESS_BOTS,
};

export async function loadBot(game: GameId, name: string): Promise<Bot | undefined> {
  return botFromSet(game, await LOADERS[game](), name);
}

export async function loadEngine(game: GameId, budgetMs: number): Promise<Bot> {
  return engineOf(await LOADERS[game](), budgetMs);
}
