/**
 * The registry: a bot by name. Its catalog is plain data (the server reads it through the job
 * contract); each game's implementations are loaded on first use, so importing this module loads
 * no engine and a one-shot command loads only its own game's code. Lookups are synchronous once a
 * game is loaded: `bots/roster.ts` is this registry with every game loaded, for the worker
 * threads that may play any game.
 */

import { GAME_IDS, type GameId } from '../shared/rules.js';
import type { Bot, GameBots } from './bot.js';
import { randomBot } from './random-bot.js';

export interface BotEntry {
  readonly name: string;
  /** The bot's own time for a move in ms (a room's clock may cut it shorter). */
  readonly budgetMs: number;
  readonly description: string;
}

const ENGINE: readonly BotEntry[] = [
  { name: 'engine-1', budgetMs: 50, description: 'the engine, 50 ms a move' },
  { name: 'engine-2', budgetMs: 100, description: 'the engine, 100 ms a move' },
  { name: 'engine-3', budgetMs: 300, description: 'the engine, 300 ms a move' },
  { name: 'engine-4', budgetMs: 1000, description: 'the engine, 1 s a move' },
  { name: 'engine-5', budgetMs: 5000, description: 'the engine, 5 s a move' },
];
const RANDOM: BotEntry = { name: 'random', budgetMs: 0, description: 'a random legal move' };

/** Every bot a room can seat, as plain data (a test checks each entry's implementation agrees). */
export const BOT_CATALOG: Readonly<Record<GameId, readonly BotEntry[]>> = {
  othello: [
    RANDOM,
    { name: 'seed-000', budgetMs: 1000, description: "seed 000: depth-4 alpha-beta on the report's evaluation" },
    { name: 'seed-003', budgetMs: 1000, description: 'seed 003: corners first, depth-7 alpha-beta on a corner-heavy board' },
    ...ENGINE,
  ],
  gomoku: [
    RANDOM,
    { name: 'seed-001', budgetMs: 1000, description: 'seed 001: depth 8, breadth 8, line-pattern scores' },
    { name: 'seed-002', budgetMs: 100, description: 'seed 002: one-ply scoring by priority tiers' },
    ...ENGINE,
  ],
  minichess: [
    RANDOM,
    { name: 'seed-004', budgetMs: 1000, description: 'seed 004: material and square bonuses, alpha-beta' },
    ...ENGINE,
  ],
};

export function catalogEntry(game: GameId, name: string): BotEntry | undefined {
  return BOT_CATALOG[game]?.find((b) => b.name === name);
}

/** The names of every game's bots, in catalog order. */
export function allBotNames(): Record<GameId, string[]> {
  return Object.fromEntries(GAME_IDS.map((g) => [g, BOT_CATALOG[g].map((b) => b.name)])) as Record<GameId, string[]>;
}

/** Each game's implementations (its `bots.ts`), imported when first asked for. */
const IMPLEMENTATIONS: Record<GameId, () => Promise<GameBots>> = {
  othello: async () => (await import('./othello/bots.js')).OTHELLO_BOTS,
  gomoku: async () => (await import('./gomoku/bots.js')).GOMOKU_BOTS,
  minichess: async () => (await import('./minichess/bots.js')).MINICHESS_BOTS,
};

const loaded = new Map<GameId, GameBots>();

/** Loads these games' implementations (all by default); the synchronous lookups below need it. */
export async function loadGameBots(games: readonly GameId[] = GAME_IDS): Promise<void> {
  for (const game of games) if (!loaded.has(game)) loaded.set(game, await IMPLEMENTATIONS[game]());
}

function implementationsOf(game: GameId): GameBots {
  const bots = loaded.get(game);
  if (!bots) throw new Error(`${game}'s bots are not loaded: await loadGameBots(['${game}']) first, or import bots/roster.js`);
  return bots;
}

/** Catalog bots are made on first use and kept: each worker thread builds only what it is asked to run. */
const made = new Map<string, Bot>();

/** The catalog's bot `name` for `game` (whose implementations are loaded); undefined when the catalog has none. */
export function findBot(game: GameId, name: string): Bot | undefined {
  const key = `${game}/${name}`;
  const known = made.get(key);
  if (known) return known;
  const entry = catalogEntry(game, name);
  if (!entry) return undefined;
  const bots = implementationsOf(game);
  let bot: Bot | undefined;
  if (entry.name === 'random') bot = randomBot(game);
  else if (entry.name.startsWith('engine-')) bot = bots.engine(entry.name, entry.budgetMs);
  else bot = bots.seeds.find((s) => s.name === entry.name && s.game === game);
  if (!bot) throw new Error(`the catalog lists ${entry.name} for ${game}, but no such bot is written`);
  made.set(key, bot);
  return bot;
}

/** Every bot a room of this game can seat, in catalog order. */
export function botsFor(game: GameId): readonly Bot[] {
  return BOT_CATALOG[game].map((entry) => findBot(game, entry.name)!);
}

/**
 * A new engine bot with a budget of its own (the command line's `--ms`, analysis), or Infinity:
 * no clock, for a think to `ThinkLimits.maxDepth` or `nodeLimit` (`--depth`, `--nodes`, the bench),
 * the same search as the catalog's `engine-N`. Each call makes a fresh one (an empty table).
 */
export function engineWithBudget(game: GameId, budgetMs: number): Bot {
  return implementationsOf(game).engine(Number.isFinite(budgetMs) ? `engine-${budgetMs}ms` : 'engine', budgetMs);
}

/** `findBot` for a one-shot process: loads the bot's game first, and only that game. */
export async function loadBot(game: GameId, name: string): Promise<Bot | undefined> {
  await loadGameBots([game]);
  return findBot(game, name);
}

/** `engineWithBudget` for a one-shot process: loads that game first, and only that game. */
export async function loadEngine(game: GameId, budgetMs: number): Promise<Bot> {
  await loadGameBots([game]);
  return engineWithBudget(game, budgetMs);
}

