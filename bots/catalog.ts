import { GAME_IDS, type GameId } from '../shared/rules.js';

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

/**
 * Every bot a room can seat, as plain data: the server reads it through the job contract without
 * loading any engine. `bots/roster.ts` gives each entry its implementation (a test checks both agree).
 */
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
