import { type Color } from '../color.js';
import type { GameOptions, MoveError, Outcome, PositionError, Rules } from '../rules.js';
import { ok, type Result } from '../result.js';
import { OthelloBoard, PASS } from './board.js';
import { formatObf, formatOthelloMove, parseObf, parseOthelloMove, type OthelloDiscs } from './notation.js';

export interface OthelloPosition {
  readonly game: 'othello';
  /** a1…h8 as `X` (black), `O` (white), `-` (empty). */
  readonly board: OthelloDiscs;
  readonly toMove: Color;
}

const START: OthelloPosition = {
  game: 'othello',
  board: '---------------------------OX------XO---------------------------',
  toMove: 'black',
};

export function othelloBoardOf(position: OthelloPosition): OthelloBoard {
  let blackHi = 0;
  let blackLo = 0;
  let whiteHi = 0;
  let whiteLo = 0;
  for (let square = 0; square < 64; square++) {
    const c = position.board[square];
    const bit = 1 << (square & 31);
    if (c === 'X') {
      if (square < 32) blackLo |= bit;
      else blackHi |= bit;
    } else if (c === 'O') {
      if (square < 32) whiteLo |= bit;
      else whiteHi |= bit;
    }
  }
  return OthelloBoard.fromDiscs(blackHi, blackLo, whiteHi, whiteLo, position.toMove);
}

export function othelloPositionOf(board: OthelloBoard): OthelloPosition {
  let discs = '';
  for (let square = 0; square < 64; square++) {
    const color = board.discAt(square);
    discs += color === 'black' ? 'X' : color === 'white' ? 'O' : '-';
  }
  return { game: 'othello', board: discs, toMove: board.toMove };
}

function checkOn(board: OthelloBoard, move: number, by?: Color): MoveError | undefined {
  const name = formatOthelloMove(move);
  if (board.isOver()) return problem('move/game_over', 'The game is over: no more moves.');
  if (by !== undefined && by !== board.toMove) {
    return problem('move/not_your_turn', `It is ${board.toMove}'s turn, not ${by}'s.`);
  }
  if (move === PASS) {
    if (board.mustPass()) return undefined;
    return problem('move/pass_not_allowed', `${board.toMove} has a move, so may not pass.`);
  }
  if (!Number.isInteger(move) || move < 0 || move > 63) {
    return problem('move/off_board', `${move} is not a square of the Othello board.`);
  }
  if (board.discAt(move) !== undefined) return problem('move/occupied', `${name} is already taken.`);
  if (board.mustPass()) return problem('move/must_pass', `${board.toMove} has no move and must pass.`);
  if (!board.canPlace(move)) return problem('move/no_flip', `A disc on ${name} would flip nothing.`);
  return undefined;
}

function problem(code: MoveError['code'], message: string): MoveError {
  return { code, message };
}

export const othelloRules: Rules<OthelloPosition> = {
  game: 'othello',

  start(_options?: GameOptions): OthelloPosition {
    return START;
  },

  toMove(position: OthelloPosition): Color {
    return position.toMove;
  },

  legalMoves(position: OthelloPosition): number[] {
    const board = othelloBoardOf(position);
    const buffer = new Int32Array(board.maxMoves);
    return Array.from(buffer.subarray(0, board.generateMoves(buffer, 0)));
  },

  check(position: OthelloPosition, move: number, by?: Color): MoveError | undefined {
    return checkOn(othelloBoardOf(position), move, by);
  },

  play(position: OthelloPosition, move: number): OthelloPosition {
    const board = othelloBoardOf(position);
    const error = checkOn(board, move);
    if (error) throw new Error(`play() was given an illegal move: ${error.message}`);
    board.make(move);
    return othelloPositionOf(board);
  },

  outcome(position: OthelloPosition): Outcome | null {
    return othelloBoardOf(position).outcome();
  },

  apply(position: OthelloPosition, move: number, by?: Color) {
    const board = othelloBoardOf(position);
    const error = checkOn(board, move, by);
    if (error) return { ok: false, error };
    board.make(move);
    return ok({ position: othelloPositionOf(board), outcome: board.outcome() });
  },

  parseMove: parseOthelloMove,
  formatMove: formatOthelloMove,

  parsePosition(text: string): Result<OthelloPosition, PositionError> {
    const parsed = parseObf(text);
    if (!parsed.ok) return parsed;
    return ok({ game: 'othello', board: parsed.value.board, toMove: parsed.value.toMove });
  },

  formatPosition(position: OthelloPosition): string {
    return formatObf(position);
  },
};


/** A diagram for people: files across, ranks down, `●` black, `○` white, `·` empty. */
export function renderOthello(position: OthelloPosition): string {
  const rows = ['  a b c d e f g h'];
  for (let rank = 0; rank < 8; rank++) {
    const cells = [...position.board.slice(rank * 8, rank * 8 + 8)].map((c) => (c === 'X' ? '●' : c === 'O' ? '○' : '·'));
    rows.push(`${rank + 1} ${cells.join(' ')}`);
  }
  return rows.join('\n');
}
