import type { MutableBoard } from '../../shared/board.js';

/** Scores are from the side to move's view. A won game scores WIN minus the plies to reach it. */
export const WIN = 1_000_000;
/** Any score at or beyond this (in absolute value) is a forced win or loss, not an evaluation. */
export const WIN_THRESHOLD = WIN - 10_000;

/**
 * What the search needs of a game: the mutable board from `shared/` plus a hash and an
 * evaluation. Adapters live in `bots/<game>/` and may narrow `generateMoves` to the moves worth
 * searching (Gomoku: points near stones), but never add illegal ones.
 */
export interface SearchGame extends MutableBoard {
  /** Zobrist key of the position, side to move included, as two 32-bit halves. */
  hashHi(): number;
  hashLo(): number;
  /** Static evaluation for the side to move, |score| < WIN_THRESHOLD. */
  evaluate(): number;
  /**
   * Called when `generateMoves` returned 0 (the game is over): +1 the side to move has won,
   * 0 a draw, -1 it has lost. The search turns it into ±(WIN - ply).
   */
  result(): number;
  /**
   * Moves for the quiescence search (MiniChess: captures), or undefined for games without one.
   * Returns how many were written, or -1 when the game is over here (the search then asks
   * `result()`); the search stands pat on `evaluate()` first.
   */
  generateNoisyMoves?(out: Int32Array, offset: number): number;
  /** Whether a move of the side to move is one that late-move reductions must not shorten (a capture, a promotion). */
  isNoisy?(move: number): boolean;
  /**
   * A cheap ordering score for a move, higher first (MVV-LVA, pattern gain, square weights).
   * Tried after the transposition-table move and the killers.
   */
  orderScore?(move: number): number;
  /** When defined and it returns a result, the search uses it as exact (Othello's endgame solver). */
  solveExactly?(alpha: number, beta: number, deadline: number): { score: number; move: number; nodes: number } | undefined;
}

/** What the search reports after each finished depth, and returns at the end. */
export interface SearchReport {
  readonly move: number;
  readonly score: number;
  readonly depth: number;
  readonly nodes: number;
  readonly pv: readonly number[];
  readonly ms: number;
  readonly nps: number;
}
