import type { Color } from '../color.js';
import type { GameId } from '../rules.js';

/** How much a move lost, from the mildest mark: `?!`, `?`, `??`. */
export type MoveMark = 'inaccuracy' | 'mistake' | 'blunder';

/** The sign a move list shows for each mark. */
export const MARK_SIGNS: Readonly<Record<MoveMark, string>> = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/** The evaluation of the position after `ply` moves (ply 0: the start). */
export interface PlyEvaluation {
  readonly ply: number;
  /**
   * Black's expected result from -1 (white wins) to +1 (black wins): the engine's score, from
   * the side to move's view turned to black's, through tanh(score / scale); a proven result is ±1
   * and a finished game its outcome.
   */
  readonly value: number;
  /** The engine's score from black's view, capped at ± the game's `cap` (a proven win is the cap). */
  readonly score: number;
  /** The search proved the result (a forced win, or Othello's exact endgame): no estimate. */
  readonly proven: boolean;
  /** The engine's move here, in notation; null when the game is over at this ply. */
  readonly best: string | null;
  /** The depth the search reached (0: no search, the position is over or its only move was taken). */
  readonly depth: number;
}

/** What one move (the one leading from ply `ply - 1` to `ply`) cost its player. */
export interface MoveJudgement {
  /** The ply this move made: move 1 is ply 1. */
  readonly ply: number;
  readonly move: string;
  readonly color: Color;
  /** The loss in expected result (the scale of `value`), never below 0; 0 for the engine's own move. */
  readonly loss: number;
  readonly mark: MoveMark | null;
  /** The engine's move in its place, when the move is marked. */
  readonly best: string | null;
}

/** The limits in `value` units at which a move's loss earns each mark, and the score scale of the game. */
export interface AnalysisScale {
  /** Scores are turned into values by tanh(score / scale). */
  readonly scale: number;
  /** Scores beyond this are shown as this (a proven win is the cap). */
  readonly cap: number;
  readonly inaccuracy: number;
  readonly mistake: number;
  readonly blunder: number;
}

/** A finished game's analysis: an evaluation per ply (moves + 1 of them) and a judgement per move. */
export interface GameAnalysis {
  readonly gameId: string;
  readonly game: GameId;
  /** The search time given to each position, in ms. */
  readonly budgetMs: number;
  readonly evaluations: readonly PlyEvaluation[];
  readonly moves: readonly MoveJudgement[];
  readonly thresholds: AnalysisScale;
  /** Epoch ms the analysis finished. */
  readonly finishedAt: number;
}

/**
 * Where a game's analysis stands: never asked (`none`), running or waiting for a worker
 * (`pending`, with the positions done so far when known), `done` with the analysis, or `failed`
 * (pushed once; the game may be asked again).
 */
export type AnalysisStatus =
  | { readonly gameId: string; readonly state: 'none' }
  | { readonly gameId: string; readonly state: 'pending'; readonly done: number; readonly total: number }
  | { readonly gameId: string; readonly state: 'done'; readonly analysis: GameAnalysis }
  | { readonly gameId: string; readonly state: 'failed'; readonly message: string };
