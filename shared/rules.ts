import type { Color } from './color.js';
import type { Problem, Result } from './result.js';

export const GAME_IDS = ['othello', 'gomoku', 'minichess'] as const;
export type GameId = (typeof GAME_IDS)[number];

export function isGameId(value: string): value is GameId {
  return (GAME_IDS as readonly string[]).includes(value);
}

/** Why a game ended, as far as the rules are concerned (resignation and time belong to the server). */
export const END_REASONS = ['no-moves', 'board-full', 'five', 'king-capture', 'step-limit'] as const;
export type EndReason = (typeof END_REASONS)[number];

/** `winner: null` is a draw. */
export interface Outcome {
  readonly winner: Color | null;
  readonly reason: EndReason;
}

/** Every way a move can be refused, across the three games. */
export const MOVE_ERROR_CODES = [
  'move/syntax', // not a move in this game's notation
  'move/game_over', // the game has already ended
  'move/not_your_turn', // the colour that tried to move is not the side to move
  'move/off_board', // a square or point outside the board
  'move/occupied', // Othello, Gomoku: the square or point is taken
  'move/no_flip', // Othello: the disc would bracket nothing
  'move/pass_not_allowed', // Othello: a pass while a move exists
  'move/must_pass', // Othello: a placement while no placement exists
  'move/no_piece', // MiniChess: nothing stands on the from-square
  'move/not_your_piece', // MiniChess: the piece on the from-square is the opponent's
  'move/own_piece', // MiniChess: the to-square holds one of the mover's own pieces
  'move/unreachable', // MiniChess: the piece cannot go there (its way of moving, or something in between)
  'move/bad_promotion', // MiniChess: a promotion suffix other than a queen, or on a move that does not promote
] as const;
export type MoveErrorCode = (typeof MOVE_ERROR_CODES)[number];
export type MoveError = Problem<MoveErrorCode>;

export const POSITION_ERROR_CODES = [
  'position/syntax', // the text is not in the game's position notation
  'position/invalid', // well formed, but no game of these rules reaches it
] as const;
export type PositionErrorCode = (typeof POSITION_ERROR_CODES)[number];
export type PositionError = Problem<PositionErrorCode>;

export interface GameOptions {
  /** Gomoku only: exactly five wins, six or more do not (Gomocup `rule 1`). Freestyle when absent. */
  readonly exactFive?: boolean;
}

/**
 * The common, pure interface of a game's rules. Positions are immutable JSON-safe values; a move
 * is a small integer whose meaning belongs to the game (use `parseMove`/`formatMove` at the edges).
 * Each game also has a mutable board with make/unmake for search; both run the same rule code.
 */
export interface Rules<P extends { readonly game: GameId }> {
  readonly game: GameId;
  start(options?: GameOptions): P;
  toMove(position: P): Color;
  legalMoves(position: P): number[];
  /** Is this move legal here, and if not, why. `by` is the colour trying to move, when known. */
  check(position: P, move: number, by?: Color): MoveError | undefined;
  /** Applies a legal move. Throws on an illegal one: callers ask `check` first. */
  play(position: P, move: number): P;
  /** `null` while the game goes on. */
  outcome(position: P): Outcome | null;
  /**
   * `check`, `play` and `outcome` in one, on one loaded board: what a server does with each move.
   * The position after the move and the outcome it leaves, or why the move is refused.
   */
  apply(position: P, move: number, by?: Color): Result<{ readonly position: P; readonly outcome: Outcome | null }, MoveError>;
  parseMove(text: string): Result<number, MoveError>;
  formatMove(move: number): string;
  parsePosition(text: string, options?: GameOptions): Result<P, PositionError>;
  formatPosition(position: P): string;
}
