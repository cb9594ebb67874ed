import type { Color } from '../color.js';
import type { MoveError, PositionError } from '../rules.js';
import { fail, ok, type Result } from '../result.js';
import { PASS } from './board.js';

export const FILES = 'abcdefgh';
const PASS_WORDS = ['pass', 'pa', 'ps', '--'];

/** `f5` → 37 (a1 = 0, the top-left corner); `pass` (also `pa`, `ps`, `--`) → PASS. */
export function parseOthelloMove(text: string): Result<number, MoveError> {
  const t = text.trim().toLowerCase();
  if (PASS_WORDS.includes(t)) return ok(PASS);
  const m = /^([a-z])(\d{1,2})$/.exec(t);
  if (!m) return fail('move/syntax', `"${text}" is not an Othello move: write a square such as f5, or pass.`);
  const file = FILES.indexOf(m[1]!);
  const rank = Number(m[2]);
  if (file < 0 || rank < 1 || rank > 8) return fail('move/off_board', `"${text}" is off the board, whose squares run from a1 to h8.`);
  return ok((rank - 1) * 8 + file);
}

export function formatOthelloMove(move: number): string {
  if (move === PASS) return 'pass';
  return FILES[move & 7]! + String((move >> 3) + 1);
}

/** The 64 squares a1…h8 as `X` (black), `O` (white) or `-`, the form of an OBF line. */
export type OthelloDiscs = string;

export interface OthelloPositionParts {
  readonly board: OthelloDiscs;
  readonly toMove: Color;
}

/**
 * An OBF line: 64 characters `X`/`O`/`-` for a1…h8 row by row, a space, the side to move, and an
 * optional `; comment`. Lower case and `.` for empty are read too.
 */
export function parseObf(text: string): Result<OthelloPositionParts, PositionError> {
  const body = text.split(';', 1)[0]!.trim();
  const m = /^([xXoO.-]{64})\s+([xXoO])$/.exec(body);
  if (!m) {
    return fail(
      'position/syntax',
      `"${text.slice(0, 80)}" is not an OBF line: 64 characters of X, O or - for a1 to h8, a space, then X or O to move.`,
    );
  }
  const board = m[1]!.toUpperCase().replaceAll('.', '-');
  return ok({ board, toMove: m[2]!.toUpperCase() === 'X' ? 'black' : 'white' });
}

export function formatObf(parts: OthelloPositionParts): string {
  return `${parts.board} ${parts.toMove === 'black' ? 'X' : 'O'}`;
}
