import { BOT_CATALOG, type BotEntry } from '../../bots/jobs/contract.js';
import { GAME_IDS, type GameId } from '../../shared/rules.js';
import type { Bots } from '../games/ports.js';

/**
 * The budget of a bot the catalog no longer lists (a room made before it was retired): its job
 * fails and it loses on time, so this only bounds how long that takes.
 */
const RETIRED_BOT_BUDGET_MS = 1000;

/** The bots port over the registry's catalog (`bots/registry.ts`, through the job contract). */
export function catalogBots(catalog: Readonly<Record<GameId, readonly BotEntry[]>> = BOT_CATALOG): Bots {
  const spelling = new Map(GAME_IDS.flatMap((game) => catalog[game].map((bot) => [bot.name.toLowerCase(), bot.name] as const)));
  const entry = (game: GameId, name: string): BotEntry | undefined => catalog[game]?.find((bot) => bot.name === name);
  return {
    catalog,
    entry,
    budgetMs: (game, name) => entry(game, name)?.budgetMs ?? RETIRED_BOT_BUDGET_MS,
    names: (game) => catalog[game].map((bot) => bot.name),
    named: (name) => spelling.get(name.toLowerCase()),
  };
}
