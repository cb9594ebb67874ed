/**
 * The bot job contract: all the server knows of `bots/`. A job asks one bot for one move; the
 * processor module at BOT_PROCESSOR_PATH answers it (BullMQ runs it sandboxed in a worker thread;
 * the embedded mode runs the same module on its own worker threads).
 */
import type { Position } from '../../shared/games.js';
import type { GameAnalysis } from '../../shared/protocol/analysis.js';
import type { Thinking } from '../../shared/protocol/views.js';
import type { GameId, GameOptions } from '../../shared/rules.js';

export { BOT_CATALOG, type BotEntry } from '../registry.js';

export interface BotJobInput {
  /** The room's game id and the ply the move is for: a stale answer is recognised by them. */
  readonly gameId: string;
  readonly ply: number;
  readonly game: GameId;
  readonly position: Position;
  /** A roster name: `engine-2`, `seed-000`, `random`, … */
  readonly bot: string;
  /** Time for this move in ms, already cut to the room's clock. */
  readonly budgetMs: number;
  /**
   * Epoch ms by which the answer must be made (the flag less a margin), or null without a clock:
   * a job run again after its worker died searches only the time really left.
   */
  readonly deadline?: number | null;
  /**
   * Who the turn is for (the room's owner: an account, an agent, a client address, the ladder):
   * the queue serves owners in turn, so one owner's many games cannot delay another's.
   */
  readonly owner?: string;
  /** When a worker first took the job (epoch ms), written by that worker: a takeover measures the time lost from it. */
  readonly takenAt?: number;
}

/** What a bot is thinking, after each finished depth (the protocol's `Thinking`). */
export type BotThinking = Thinking;

export interface BotJobResult extends BotThinking {
  readonly gameId: string;
  readonly ply: number;
  readonly game: GameId;
  readonly bot: string;
  readonly move: string;
  /** How long the job waited in the queue before a worker took it, when known. */
  readonly queuedMs?: number;
  /**
   * The time the platform lost on the turn before this answer's search began: from the job's
   * first start to its takeover (its worker died) or retry. The bot's clock is given it back.
   */
  readonly lostMs?: number;
}

/**
 * A finished game's analysis, asked of the same workers as bot turns: a BullMQ job named
 * ANALYSIS_JOB (the queue's lowest priority), or the thread pool's `analyse` in the embedded mode.
 */
export interface AnalysisJobInput {
  readonly gameId: string;
  readonly game: GameId;
  readonly options: GameOptions;
  /** The start position's text and the moves in notation, as the store keeps them. */
  readonly start: string;
  readonly moves: readonly string[];
  /** The engine's time for each position searched, in ms. */
  readonly budgetMs: number;
}

/** After each position searched: how many of the game's positions (moves + 1) are done. */
export interface AnalysisProgress {
  readonly done: number;
  readonly total: number;
}

export type AnalysisJobResult = GameAnalysis;

/** The BullMQ job name of an analysis (a bot turn's is `turn`). */
export const ANALYSIS_JOB = 'analysis';

/** The processor module, for BullMQ's sandboxed workers (`new Worker(queue, BOT_PROCESSOR_PATH)`). */
export const BOT_PROCESSOR_PATH = new URL(import.meta.url.endsWith('.ts') ? './processor.ts' : './processor.js', import.meta.url);
