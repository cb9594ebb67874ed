import type { GameId } from '../shared/rules.js';
import type { Bot } from './bot.js';
import { catalogEntry } from './catalog.js';
import { randomBot } from './random-bot.js';

/** One game's implementations: the strong engine at any budget, and that game's seed bots. */
export interface GameBots {
  readonly engine: (name: string, budgetMs: number) => Bot;
  readonly seeds: readonly Bot[];
}

/** The catalog's bot `name` for `game`, made from that game's implementations; undefined when the catalog has none. */
export function botFromSet(game: GameId, bots: GameBots, name: string): Bot | undefined {
  const entry = catalogEntry(game, name);
  if (!entry) return undefined;
  if (entry.name === 'random') return randomBot(game);
  if (entry.name.startsWith('engine-')) return bots.engine(entry.name, entry.budgetMs);
  const seed = bots.seeds.find((s) => s.name === entry.name);
  if (!seed || seed.game !== game) throw new Error(`the catalog lists ${entry.name} for ${game}, but no such bot is written`);
  return seed;
}

/** The strong engine with a budget of its own (the command line's `--ms`). */
export function engineOf(bots: GameBots, budgetMs: number): Bot {
  return bots.engine(`engine-${budgetMs}ms`, budgetMs);
}
