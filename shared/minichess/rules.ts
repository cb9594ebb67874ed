import type { Color } from '../color.js';
import type { MoveError, Outcome, Rules } from '../rules.js';
import { ok, type Result } from '../result.js';
import { MiniChessBoard, PAWN, PROMOTION_SUFFIX, START_PLACEMENT, moveFrom, moveTo, type MiniChessPosition } from './board.js';
import { formatMove, formatPosition, formatSquare, hasPromotionShape, isMoveOnBoard, parseMove, parsePosition } from './notation.js';

function problem(code: MoveError['code'], message: string): MoveError {
  return { code, message };
}

function moveName(move: number): string {
  return isMoveOnBoard(move) ? formatMove(move) : String(move);
}

function movesOf(board: MiniChessBoard): number[] {
  const buffer = new Int32Array(board.maxMoves);
  return Array.from(buffer.subarray(0, board.generateMoves(buffer, 0)));
}

function check(position: MiniChessPosition, move: number, by?: Color): MoveError | undefined {
  return checkOn(MiniChessBoard.fromPosition(position), move, by);
}

function checkOn(board: MiniChessBoard, move: number, by?: Color): MoveError | undefined {
  if (board.outcome()) return problem('move/game_over', `The game is over, so ${moveName(move)} cannot be played.`);
  if (by !== undefined && by !== board.sideToMove) {
    return problem('move/not_your_turn', `It is ${board.sideToMove}'s turn, not ${by}'s, to play ${moveName(move)}.`);
  }
  if (!Number.isInteger(move) || move < 0 || move >= PROMOTION_SUFFIX * 2) {
    return problem('move/syntax', `${move} is not a MiniChess move number (from | to << 5).`);
  }
  if (!isMoveOnBoard(move)) return problem('move/off_board', `The move number ${move} names a square off the a1–e6 board.`);
  const from = moveFrom(move);
  const to = moveTo(move);
  const text = formatMove(move);
  const piece = board.pieceAt(from) * (board.sideToMove === 'white' ? 1 : -1);
  if (piece === 0) return problem('move/no_piece', `There is no piece on ${formatSquare(from)} to play ${text}.`);
  if (piece < 0) return problem('move/not_your_piece', `The piece on ${formatSquare(from)} is not ${board.sideToMove}'s, so ${text} cannot be played.`);
  if (board.pieceAt(to) * board.pieceAt(from) > 0) {
    return problem('move/own_piece', `${text} would take ${board.sideToMove}'s own piece on ${formatSquare(to)}.`);
  }
  if (!movesOf(board).includes(move & ~PROMOTION_SUFFIX)) {
    return problem('move/unreachable', `The piece on ${formatSquare(from)} cannot reach ${formatSquare(to)}, so ${text} is not legal.`);
  }
  if (move & PROMOTION_SUFFIX && !(piece === PAWN && hasPromotionShape(from, to))) {
    return problem('move/bad_promotion', `${text} asks for a promotion, but the piece on ${formatSquare(from)} is not a pawn.`);
  }
  return undefined;
}

function apply(position: MiniChessPosition, move: number, by?: Color): Result<{ position: MiniChessPosition; outcome: Outcome | null }, MoveError> {
  const board = MiniChessBoard.fromPosition(position);
  const error = checkOn(board, move, by);
  if (error) return { ok: false, error };
  board.make(move & ~PROMOTION_SUFFIX);
  return ok({ position: board.toPosition(), outcome: board.outcome() });
}

function play(position: MiniChessPosition, move: number): MiniChessPosition {
  const problem = check(position, move);
  if (problem) throw new Error(problem.message);
  const board = MiniChessBoard.fromPosition(position);
  board.make(move & ~PROMOTION_SUFFIX);
  return board.toPosition();
}

/** The move that takes the king in a position the game ended in by king capture ("c4a6"), else null. */
export function kingCapture(position: MiniChessPosition): string | null {
  const board = MiniChessBoard.fromPosition(position);
  const move = board.outcome()?.reason === 'king-capture' ? board.kingCapture() : undefined;
  return move === undefined ? null : formatMove(move);
}

export const minichessRules: Rules<MiniChessPosition> = {
  game: 'minichess',
  start: () => ({ game: 'minichess', board: START_PLACEMENT, toMove: 'white', ply: 1 }),
  toMove: (position) => position.toMove,
  legalMoves: (position) => movesOf(MiniChessBoard.fromPosition(position)),
  check,
  play,
  apply,
  outcome: (position): Outcome | null => MiniChessBoard.fromPosition(position).outcome(),
  parseMove,
  formatMove,
  parsePosition: (text) => parsePosition(text),
  formatPosition,
};
