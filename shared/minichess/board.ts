import type { MutableBoard } from '../board.js';
import type { Color } from '../color.js';
import { fail, ok, type Result } from '../result.js';
import type { Outcome, PositionError } from '../rules.js';

/** A MiniChess position as a JSON-safe value. `ply` is the number of the ply about to be played. */
export interface MiniChessPosition {
  readonly game: 'minichess';
  /** FEN-like placement, rank 6 first: `kqbnr/ppppp/5/5/PPPPP/RNBQK`. */
  readonly board: string;
  readonly toMove: Color;
  readonly ply: number;
}

export const FILES = ['a', 'b', 'c', 'd', 'e'] as const;
export const RANKS = [1, 2, 3, 4, 5, 6] as const;
export const FILE_COUNT = FILES.length;
export const RANK_COUNT = RANKS.length;
export const SQUARE_COUNT = FILE_COUNT * RANK_COUNT;

/** Piece codes are the index here plus one (the course project's numbering): positive white, negative black, 0 empty. */
export const PIECE_KINDS = ['pawn', 'rook', 'knight', 'bishop', 'queen', 'king'] as const;
export type PieceKind = (typeof PIECE_KINDS)[number];
export const PAWN = 1;
export const ROOK = 2;
export const KNIGHT = 3;
export const BISHOP = 4;
export const QUEEN = 5;
export const KING = 6;
/** The placement letters, in code order; upper case is white. */
export const PIECE_LETTERS = 'prnbqk';
const PLACEMENT_LETTERS = PIECE_LETTERS.toUpperCase() + PIECE_LETTERS;

export const PIECE_VALUES: Readonly<Record<PieceKind, number>> = { pawn: 2, rook: 6, knight: 7, bishop: 8, queen: 20, king: 100 };
const VALUE_BY_KIND = Int32Array.from([0, ...PIECE_KINDS.map((kind) => PIECE_VALUES[kind])]);
const PROMOTION_GAIN = PIECE_VALUES.queen - PIECE_VALUES.pawn;

/** The game ends on material once this many plies have been played. */
export const STEP_LIMIT = 50;
export const START_PLACEMENT = 'kqbnr/ppppp/5/5/PPPPP/RNBQK';

export function squareOf(file: number, rank: number): number {
  return (rank - 1) * FILE_COUNT + file;
}
export function fileOf(square: number): number {
  return square % FILE_COUNT;
}
export function rankOf(square: number): number {
  return Math.floor(square / FILE_COUNT) + 1;
}
export function pieceKind(code: number): PieceKind | undefined {
  return PIECE_KINDS[Math.abs(code) - 1];
}
export function pieceColor(code: number): Color | undefined {
  return code > 0 ? 'white' : code < 0 ? 'black' : undefined;
}

/** A move is `from | (to << 5)`; this bit only records that a `q` suffix was written. */
export const PROMOTION_SUFFIX = 1 << 10;
export function moveFrom(move: number): number {
  return move & 31;
}
export function moveTo(move: number): number {
  return (move >> 5) & 31;
}
export function makeMove(from: number, to: number): number {
  return from | (to << 5);
}

// Move tables: knight and king targets (up to 8 per square), and for each square the squares
// along 8 directions (rook directions first, then bishop), up to 5 steps.
const ROOK_DIRECTIONS = [[0, 1], [0, -1], [1, 0], [-1, 0]] as const;
const BISHOP_DIRECTIONS = [[1, 1], [1, -1], [-1, 1], [-1, -1]] as const;
const KNIGHT_JUMPS = [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]] as const;
const LINE_DIRECTIONS = [...ROOK_DIRECTIONS, ...BISHOP_DIRECTIONS];

function buildTargets(steps: readonly (readonly [number, number])[], maxSteps: number) {
  const squares = new Int8Array(SQUARE_COUNT * steps.length * maxSteps);
  const lengths = new Int8Array(SQUARE_COUNT * steps.length);
  for (let from = 0; from < SQUARE_COUNT; from++) {
    steps.forEach(([df, dr], direction) => {
      const line = from * steps.length + direction;
      let file = fileOf(from) + df;
      let rank = rankOf(from) + dr;
      let length = 0;
      while (length < maxSteps && file >= 0 && file < FILE_COUNT && rank >= 1 && rank <= RANK_COUNT) {
        squares[line * maxSteps + length++] = squareOf(file, rank);
        file += df;
        rank += dr;
      }
      lengths[line] = length;
    });
  }
  return { squares, lengths, stride: maxSteps };
}

/**
 * By line (`square * 8 + direction`): the squares along it, nearest first
 * (`squares[line * stride + step]`), and how many (`lengths`); a leaper's lines are one step long.
 */
const RAYS = buildTargets(LINE_DIRECTIONS, RANK_COUNT - 1);
const KNIGHT_TARGETS = buildTargets(KNIGHT_JUMPS, 1);
const KING_TARGETS = buildTargets(LINE_DIRECTIONS, 1);

function countTargets(table: { lengths: Int8Array }, square: number, lines: number): number {
  let total = 0;
  for (let line = 0; line < lines; line++) total += table.lengths[square * lines + line]!;
  return total;
}

// No piece reaches more than a queen plus a knight would from its square, so this bounds any position.
const MAX_MOVES = Array.from({ length: SQUARE_COUNT }, (_, square) => countTargets(RAYS, square, 8) + countTargets(KNIGHT_TARGETS, square, 8)).reduce(
  (sum, count) => sum + count,
  0,
);

/** The sentinel `scan` returns when the side to move can capture the opponent's king. */
const KING_CAPTURE = -1;
/** The sentinel `scan` returns, when asked for captures and promotions only, where the side to move has no move at all. */
const NO_MOVE = -2;
/** The first square of the last rank, where a pawn promotes moving up the board. */
const LAST_RANK_START = SQUARE_COUNT - FILE_COUNT;

/** Reads a placement (rank 6 first) into piece codes by square; syntax only, see `checkPlacement`. */
export function parsePlacement(text: string): Result<Int8Array, PositionError> {
  const rows = text.split('/');
  if (rows.length !== RANK_COUNT) {
    return fail('position/syntax', `The placement ${quote(text)} has ${rows.length} ranks; MiniChess has ${RANK_COUNT}.`);
  }
  const squares = new Int8Array(SQUARE_COUNT);
  for (const [row, line] of rows.entries()) {
    const rank = RANK_COUNT - row;
    let file = 0;
    let previousWasDigit = false;
    for (const char of line) {
      const letter = PLACEMENT_LETTERS.indexOf(char);
      if (char >= '1' && char <= '5' && !previousWasDigit) {
        file += Number(char);
        previousWasDigit = true;
      } else if (letter >= 0) {
        if (file < FILE_COUNT) squares[squareOf(file, rank)] = letter < KING ? letter + 1 : -(letter - KING + 1);
        file++;
        previousWasDigit = false;
      } else {
        return fail('position/syntax', `The placement ${quote(text)} has an unexpected ${quote(char)} on rank ${rank}.`);
      }
    }
    if (file !== FILE_COUNT) {
      return fail('position/syntax', `The placement ${quote(text)} does not give exactly ${FILE_COUNT} squares on rank ${rank}.`);
    }
  }
  return ok(squares);
}

export function formatPlacement(squares: ArrayLike<number>): string {
  const rows: string[] = [];
  for (let rank = RANK_COUNT; rank >= 1; rank--) {
    let row = '';
    let empty = 0;
    for (let file = 0; file < FILE_COUNT; file++) {
      const code = squares[squareOf(file, rank)]!;
      if (code === 0) {
        empty++;
        continue;
      }
      if (empty > 0) row += String(empty);
      empty = 0;
      const letter = PIECE_LETTERS[Math.abs(code) - 1]!;
      row += code > 0 ? letter.toUpperCase() : letter;
    }
    rows.push(empty > 0 ? row + String(empty) : row);
  }
  return rows.join('/');
}

/** The rules' demands on a placement: one king a side, no pawn on a rank it cannot stand on. */
export function checkPlacement(squares: ArrayLike<number>): PositionError | undefined {
  for (const [sign, color] of [[1, 'white'], [-1, 'black']] as const) {
    let kings = 0;
    for (let square = 0; square < SQUARE_COUNT; square++) if (squares[square] === sign * KING) kings++;
    if (kings !== 1) return { code: 'position/invalid', message: `The position has ${kings} ${color} kings; each side needs exactly one.` };
  }
  for (let square = 0; square < SQUARE_COUNT; square++) {
    const code = squares[square]!;
    const rank = rankOf(square);
    if (Math.abs(code) === PAWN && (rank === 1 || rank === RANK_COUNT)) {
      const name = `${FILES[fileOf(square)]}${rank}`;
      return { code: 'position/invalid', message: `The ${code > 0 ? 'white' : 'black'} pawn on ${name} stands on a rank no pawn can reach.` };
    }
  }
  return undefined;
}

export function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}

/**
 * A MiniChess position that changes in place: a mailbox of piece codes, a move stack on typed
 * arrays, and both sides' material kept up to date. The pure `minichessRules` run on top of it.
 */
export class MiniChessBoard implements MutableBoard {
  readonly maxMoves = MAX_MOVES;
  private readonly squares: Int8Array;
  /** +1 white, -1 black: multiplying a piece code by it makes the mover's pieces positive. */
  private side: number;
  private currentPly: number;
  private whiteMaterial = 0;
  private blackMaterial = 0;
  private stackMoves = new Int16Array(64);
  private stackMoved = new Int8Array(64);
  private stackCaptured = new Int8Array(64);
  private depth = 0;
  private readonly scratch = new Int32Array(MAX_MOVES);
  private kingTaker = 0;

  private constructor(squares: Int8Array, toMove: Color, ply: number) {
    this.squares = squares;
    this.side = toMove === 'white' ? 1 : -1;
    this.currentPly = ply;
    for (const code of squares) {
      if (code > 0) this.whiteMaterial += VALUE_BY_KIND[code]!;
      else if (code < 0) this.blackMaterial += VALUE_BY_KIND[-code]!;
    }
  }

  static start(): MiniChessBoard {
    return MiniChessBoard.fromPosition({ game: 'minichess', board: START_PLACEMENT, toMove: 'white', ply: 1 });
  }

  /** The validating factory for a position from outside (a stored game, a message). */
  static load(position: MiniChessPosition): Result<MiniChessBoard, PositionError> {
    if (typeof position.board !== 'string') return fail('position/syntax', 'The position has no placement text.');
    const placement = parsePlacement(position.board);
    if (!placement.ok) return placement;
    const problem = checkPlacement(placement.value);
    if (problem) return { ok: false, error: problem };
    if (position.toMove !== 'white' && position.toMove !== 'black') {
      return fail('position/syntax', `The side to move ${quote(String(position.toMove))} is neither white nor black.`);
    }
    if (!Number.isSafeInteger(position.ply) || position.ply < 1) {
      return fail('position/invalid', `The ply number ${position.ply} is not a whole number from 1 up.`);
    }
    return ok(new MiniChessBoard(placement.value, position.toMove, position.ply));
  }

  /** For positions this module made; throws on an invalid one, which is a bug in the caller. */
  static fromPosition(position: MiniChessPosition): MiniChessBoard {
    const board = MiniChessBoard.load(position);
    if (!board.ok) throw new Error(board.error.message);
    return board.value;
  }

  toPosition(): MiniChessPosition {
    return { game: 'minichess', board: formatPlacement(this.squares), toMove: this.sideToMove, ply: this.currentPly };
  }

  /** The piece code on a square: 0 empty, `PAWN`…`KING` white, their negatives black. */
  pieceAt(square: number): number {
    return this.squares[square] ?? 0;
  }

  get sideToMove(): Color {
    return this.side > 0 ? 'white' : 'black';
  }

  get ply(): number {
    return this.currentPly;
  }

  /** How many moves have been made since the position was loaded (and can be unmade). */
  get madeMoves(): number {
    return this.depth;
  }

  material(color: Color): number {
    return color === 'white' ? this.whiteMaterial : this.blackMaterial;
  }

  /** Material of the side to move minus the opponent's. */
  materialBalance(): number {
    return this.side * (this.whiteMaterial - this.blackMaterial);
  }

  isStepLimitReached(): boolean {
    return this.currentPly > STEP_LIMIT;
  }

  /** Whether the side to move has a move that takes the opponent's king (ignoring the step limit). */
  canCaptureKing(): boolean {
    return this.scan(this.scratch, 0) === KING_CAPTURE;
  }

  /** A move of the side to move that takes the opponent's king, when it has one (the game is then over): what "the king falls" means. */
  kingCapture(): number | undefined {
    return this.scan(this.scratch, 0) === KING_CAPTURE ? this.kingTaker : undefined;
  }

  outcome(): Outcome | null {
    if (this.isStepLimitReached()) {
      const balance = this.whiteMaterial - this.blackMaterial;
      return { winner: balance > 0 ? 'white' : balance < 0 ? 'black' : null, reason: 'step-limit' };
    }
    const moves = this.scan(this.scratch, 0);
    if (moves === KING_CAPTURE) return { winner: this.sideToMove, reason: 'king-capture' };
    if (moves === 0) return { winner: this.side > 0 ? 'black' : 'white', reason: 'no-moves' };
    return null;
  }

  generateMoves(out: Int32Array, offset: number): number {
    if (this.isStepLimitReached()) return 0;
    return Math.max(this.scan(out, offset), 0);
  }

  /**
   * Captures and promotions only, for a quiescence search, or -1 where the game is over: the king
   * can be taken, there is no move at all, or the step limit is reached.
   */
  generateNoisyMoves(out: Int32Array, offset: number): number {
    if (this.isStepLimitReached()) return -1;
    return Math.max(this.scan(out, offset, true), -1);
  }

  countMoves(): number {
    return this.generateMoves(this.scratch, 0);
  }

  make(move: number): void {
    const from = move & 31;
    const to = (move >> 5) & 31;
    const squares = this.squares;
    const moved = squares[from]!;
    const captured = squares[to]!;
    if (this.depth === this.stackMoves.length) this.growStack();
    this.stackMoves[this.depth] = move;
    this.stackMoved[this.depth] = moved;
    this.stackCaptured[this.depth] = captured;
    this.depth++;
    squares[from] = 0;
    squares[to] = moved;
    if (captured > 0) this.whiteMaterial -= VALUE_BY_KIND[captured]!;
    else if (captured < 0) this.blackMaterial -= VALUE_BY_KIND[-captured]!;
    if (moved === PAWN && to >= SQUARE_COUNT - FILE_COUNT) {
      squares[to] = QUEEN;
      this.whiteMaterial += PROMOTION_GAIN;
    } else if (moved === -PAWN && to < FILE_COUNT) {
      squares[to] = -QUEEN;
      this.blackMaterial += PROMOTION_GAIN;
    }
    this.side = -this.side;
    this.currentPly++;
  }

  unmake(): void {
    if (this.depth === 0) throw new Error('unmake() with no move to take back.');
    this.depth--;
    const move = this.stackMoves[this.depth]!;
    const moved = this.stackMoved[this.depth]!;
    const captured = this.stackCaptured[this.depth]!;
    const from = move & 31;
    const to = (move >> 5) & 31;
    if (this.squares[to] !== moved) {
      if (moved > 0) this.whiteMaterial -= PROMOTION_GAIN;
      else this.blackMaterial -= PROMOTION_GAIN;
    }
    this.squares[from] = moved;
    this.squares[to] = captured;
    if (captured > 0) this.whiteMaterial += VALUE_BY_KIND[captured]!;
    else if (captured < 0) this.blackMaterial += VALUE_BY_KIND[-captured]!;
    this.side = -this.side;
    this.currentPly--;
  }

  private growStack(): void {
    const size = this.stackMoves.length * 2;
    const moves = new Int16Array(size);
    const moved = new Int8Array(size);
    const captured = new Int8Array(size);
    moves.set(this.stackMoves);
    moved.set(this.stackMoved);
    captured.set(this.stackCaptured);
    this.stackMoves = moves;
    this.stackMoved = moved;
    this.stackCaptured = captured;
  }

  /** Notes the move that takes the king (for `kingCapture`) and answers the sentinel. */
  private takesKing(from: number, to: number): number {
    this.kingTaker = from | (to << 5);
    return KING_CAPTURE;
  }

  /**
   * The one move generator. Returns the number of moves written, or `KING_CAPTURE` as soon as it
   * finds one; with `noisyOnly`, captures and promotions only, and `NO_MOVE` where there is no move at all.
   */
  private scan(out: Int32Array, offset: number, noisyOnly = false): number {
    const squares = this.squares;
    const us = this.side;
    let n = offset;
    let quiet = false;
    for (let from = 0; from < SQUARE_COUNT; from++) {
      const kind = squares[from]! * us;
      if (kind <= 0) continue;
      if (kind === PAWN) {
        const ahead = from + us * FILE_COUNT;
        if (squares[ahead] === 0) {
          quiet = true;
          if (!noisyOnly || ahead < FILE_COUNT || ahead >= LAST_RANK_START) out[n++] = from | (ahead << 5);
        }
        const file = from % FILE_COUNT;
        if (file > 0) {
          const victim = squares[ahead - 1]! * us;
          if (victim === -KING) return this.takesKing(from, ahead - 1);
          if (victim < 0) out[n++] = from | ((ahead - 1) << 5);
        }
        if (file < FILE_COUNT - 1) {
          const victim = squares[ahead + 1]! * us;
          if (victim === -KING) return this.takesKing(from, ahead + 1);
          if (victim < 0) out[n++] = from | ((ahead + 1) << 5);
        }
      } else {
        const table = kind === KNIGHT ? KNIGHT_TARGETS : kind === KING ? KING_TARGETS : RAYS;
        const first = kind === BISHOP ? 4 : 0;
        const last = kind === ROOK ? 4 : 8;
        for (let line = from * 8 + first; line < from * 8 + last; line++) {
          const length = table.lengths[line]!;
          for (let step = 0; step < length; step++) {
            const to = table.squares[line * table.stride + step]!;
            const victim = squares[to]! * us;
            if (victim > 0) break;
            if (victim === -KING) return this.takesKing(from, to);
            if (victim === 0) {
              quiet = true;
              if (noisyOnly) continue;
            }
            out[n++] = from | (to << 5);
            if (victim < 0) break;
          }
        }
      }
    }
    return noisyOnly && n === offset && !quiet ? NO_MOVE : n - offset;
  }
}
