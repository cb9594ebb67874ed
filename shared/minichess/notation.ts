import { fail, ok, type Result } from '../result.js';
import type { MoveError, PositionError } from '../rules.js';
import {
  FILE_COUNT,
  FILES,
  MiniChessBoard,
  PIECE_LETTERS,
  PROMOTION_SUFFIX,
  RANK_COUNT,
  SQUARE_COUNT,
  fileOf,
  makeMove,
  moveFrom,
  moveTo,
  quote,
  rankOf,
  squareOf,
  type MiniChessPosition,
} from './board.js';

export function formatSquare(square: number): string {
  return `${FILES[fileOf(square)]}${rankOf(square)}`;
}

/** `b3` (either case) to a square index; `undefined` for anything else. */
export function parseSquare(text: string): number | undefined {
  const match = /^([a-e])([1-6])$/i.exec(text);
  if (!match) return undefined;
  return squareOf(match[1]!.toLowerCase().charCodeAt(0) - 97, Number(match[2]));
}

/** Whether the move's integer has the shape `from | (to << 5)`, with or without the suffix bit, on the board. */
export function isMoveOnBoard(move: number): boolean {
  return Number.isInteger(move) && move >= 0 && move < PROMOTION_SUFFIX * 2 && moveFrom(move) < SQUARE_COUNT && moveTo(move) < SQUARE_COUNT;
}

/** A pawn step onto its last rank is the only shape a promotion can have. */
export function hasPromotionShape(from: number, to: number): boolean {
  const step = rankOf(to) - rankOf(from);
  const sideways = Math.abs(fileOf(to) - fileOf(from));
  return sideways <= 1 && ((step === 1 && rankOf(to) === RANK_COUNT) || (step === -1 && rankOf(to) === 1));
}

/**
 * `b2b3`, either case. A `q` suffix is accepted on a move shaped like a promotion and kept in the
 * `PROMOTION_SUFFIX` bit, so that `check` can refuse it when the piece is not a pawn.
 */
export function parseMove(text: string): Result<number, MoveError> {
  const match = /^([a-z])([0-9]{1,2})([a-z])([0-9]{1,2})([a-z]?)$/i.exec(text.trim());
  if (!match) return fail('move/syntax', `${quote(text)} is not a MiniChess move; write the from-square then the to-square, as in b2b3.`);
  const [, fromFile, fromRank, toFile, toRank, suffix] = match as unknown as [string, string, string, string, string, string];
  const from = parseSquare(fromFile + fromRank);
  const to = parseSquare(toFile + toRank);
  if (from === undefined || to === undefined) {
    const outside = from === undefined ? fromFile + fromRank : toFile + toRank;
    return fail('move/off_board', `The square ${quote(outside)} in ${quote(text)} is not on the a1–e6 board.`);
  }
  if (suffix === '') return ok(makeMove(from, to));
  if (suffix.toLowerCase() !== 'q') {
    return fail('move/bad_promotion', `${quote(text)} asks for a ${quote(suffix)}, but a MiniChess pawn always promotes to a queen.`);
  }
  if (!hasPromotionShape(from, to)) {
    return fail('move/bad_promotion', `${quote(text)} is not a pawn step onto the last rank, so it cannot promote.`);
  }
  return ok(makeMove(from, to) | PROMOTION_SUFFIX);
}

export function formatMove(move: number): string {
  if (!isMoveOnBoard(move)) throw new Error(`${move} is not a MiniChess move.`);
  const text = formatSquare(moveFrom(move)) + formatSquare(moveTo(move));
  return move & PROMOTION_SUFFIX ? `${text}q` : text;
}

/** `kqbnr/ppppp/5/5/PPPPP/RNBQK w 1`: placement (rank 6 first), side to move, ply number from 1. */
export function parsePosition(text: string): Result<MiniChessPosition, PositionError> {
  const fields = text.trim().split(/\s+/);
  if (fields.length !== 3) {
    return fail('position/syntax', `${quote(text)} is not a MiniChess position; expected placement, side and ply, as in "kqbnr/ppppp/5/5/PPPPP/RNBQK w 1".`);
  }
  const [board, side, ply] = fields as [string, string, string];
  if (side !== 'w' && side !== 'b') return fail('position/syntax', `The side to move ${quote(side)} in ${quote(text)} is neither w nor b.`);
  if (!/^(0|[1-9][0-9]*)$/.test(ply)) return fail('position/syntax', `The ply number ${quote(ply)} in ${quote(text)} is not a whole number.`);
  const loaded = MiniChessBoard.load({ game: 'minichess', board, toMove: side === 'w' ? 'white' : 'black', ply: Number(ply) });
  return loaded.ok ? ok(loaded.value.toPosition()) : loaded;
}

export function formatPosition(position: MiniChessPosition): string {
  return `${position.board} ${position.toMove === 'white' ? 'w' : 'b'} ${position.ply}`;
}

/** A diagram for a terminal: rank 6 at the top, upper case white, `.` empty. */
export function renderBoard(position: MiniChessPosition): string {
  const board = MiniChessBoard.fromPosition(position);
  const lines: string[] = [];
  for (let rank = RANK_COUNT; rank >= 1; rank--) {
    const cells = FILES.map((_, file) => pieceLetter(board.pieceAt(squareOf(file, rank))));
    lines.push(`${rank}  ${cells.join(' ')}`);
  }
  lines.push(`   ${FILES.join(' ')}`);
  return lines.join('\n');
}

function pieceLetter(code: number): string {
  if (code === 0) return '.';
  const letter = PIECE_LETTERS[Math.abs(code) - 1]!;
  return code > 0 ? letter.toUpperCase() : letter;
}

/**
 * The course project's state file (docs/rules.md §Protocols, "File protocol"): the side to
 * move (`0` white, `1` black), then white's and black's pieces as 6 rows of 5 codes, row 0 rank 6.
 */
export function formatCourseState(position: MiniChessPosition): string {
  const board = MiniChessBoard.fromPosition(position);
  const lines = [position.toMove === 'white' ? '0' : '1'];
  for (const sign of [1, -1]) {
    for (let row = 0; row < RANK_COUNT; row++) {
      let line = '';
      for (let file = 0; file < FILE_COUNT; file++) {
        const code = board.pieceAt(squareOf(file, RANK_COUNT - row)) * sign;
        line += `${Math.max(code, 0)} `;
      }
      lines.push(line);
    }
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

/**
 * A course program's answer: integers read four at a time (`fromRow fromCol toRow toCol`, row 0
 * is rank 6) until something is not an integer; the last complete group counts.
 */
export function parseCourseAnswer(text: string): Result<number, MoveError> {
  const integer = /\s*([+-]?[0-9]+)/y;
  const numbers: number[] = [];
  for (let match = integer.exec(text); match; match = integer.exec(text)) numbers.push(Number(match[1]));
  const groups = Math.floor(numbers.length / 4);
  if (groups === 0) return fail('move/syntax', `The answer ${quote(text)} holds no complete group of four integers.`);
  const [fromRow, fromCol, toRow, toCol] = numbers.slice((groups - 1) * 4, groups * 4) as [number, number, number, number];
  const onBoard = (row: number, col: number) => row >= 0 && row < RANK_COUNT && col >= 0 && col < FILE_COUNT;
  if (!onBoard(fromRow, fromCol) || !onBoard(toRow, toCol)) {
    return fail('move/off_board', `The answer ${quote(`${fromRow} ${fromCol} ${toRow} ${toCol}`)} names a square off the 6×5 board.`);
  }
  return ok(makeMove(squareOf(fromCol, RANK_COUNT - fromRow), squareOf(toCol, RANK_COUNT - toRow)));
}
