import type { Position } from '../shared/games.js';
import type { GameId } from '../shared/rules.js';
import type { SearchReport } from './engine/game.js';

/** How long, or how far, a bot may think for one move. */
export interface ThinkLimits {
  /**
   * Wall-clock time, `performance.now()` based, by which the move must be chosen; Infinity with
   * `maxDepth` or `nodeLimit` for a search with no clock (the command line's `--depth`, the bench).
   */
  readonly deadline: number;
  /** The engine's search stops after this depth. Seed bots and `random` ignore it. */
  readonly maxDepth?: number;
  /** The engine's search stops after about this many nodes, repeatably. Seed bots and `random` ignore it. */
  readonly nodeLimit?: number;
  /** Called after each finished depth of an iterative search. */
  readonly onProgress?: (report: SearchReport) => void;
}

/**
 * A built-in bot: a name a room can seat, the game it plays, and a synchronous move choice
 * (bots run in worker threads, never on the server's event loop).
 */
export interface Bot {
  readonly name: string;
  readonly game: GameId;
  readonly description: string;
  /** The bot's own time budget for a move, in ms; a room's clock may cut it shorter. */
  readonly budgetMs: number;
  /** Chooses a legal move in a position whose game is not over. */
  think(position: Position, limits: ThinkLimits): SearchReport;
}

/**
 * What each game's `bots.ts` exports for the registry (`bots/registry.ts`): the strong engine at
 * any budget (the catalog's `engine-N`, the command line's `--ms`; Infinity for a think to a
 * fixed depth or node count), and that game's seed bots.
 */
export interface GameBots {
  readonly engine: (name: string, budgetMs: number) => Bot;
  readonly seeds: readonly Bot[];
}
