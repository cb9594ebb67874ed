import {
  BISHOP,
  FILE_COUNT,
  KING,
  KNIGHT,
  MiniChessBoard,
  PAWN,
  QUEEN,
  RANK_COUNT,
  ROOK,
  SQUARE_COUNT,
  STEP_LIMIT,
  type MiniChessPosition,
} from '../../shared/minichess/index.js';
import type { SearchGame } from '../engine/game.js';

/**
 * The engine's piece values, by code (pawn..king): the count of docs/rules.md §MiniChess (pawn 2, rook 6, knight 7,
 * bishop 8, queen 20) times 50. Most games between careful players end on that count at ply 50,
 * and values closer to chess (rook above knight) did no better in trials. Kings are never off
 * the board in a live position.
 */
const ENGINE_VALUES = Int32Array.from([0, 100, 300, 350, 400, 1000, 0]);

// Piece-square bonuses from white's side, written as the board is seen: rank 6 first, files a–e.
// Black uses the same tables turned half round (as in seed 004: [5-i][4-j]), since black's
// set-up is white's turned half round.
const PIECE_SQUARE_ROWS: Readonly<Record<number, readonly number[]>> = {
  [PAWN]: [
    0, 0, 0, 0, 0,
    150, 170, 180, 170, 150,
    50, 60, 70, 60, 50,
    15, 20, 25, 20, 15,
    0, 0, 0, 0, 0,
    0, 0, 0, 0, 0,
  ],
  [ROOK]: [
    10, 15, 15, 15, 10,
    15, 20, 20, 20, 15,
    0, 5, 5, 5, 0,
    0, 5, 5, 5, 0,
    -5, 0, 0, 0, -5,
    0, 0, 5, 0, 0,
  ],
  [KNIGHT]: [
    -30, -15, -10, -15, -30,
    -15, 5, 10, 5, -15,
    -10, 10, 20, 10, -10,
    -10, 10, 20, 10, -10,
    -15, 5, 10, 5, -15,
    -30, -15, -10, -15, -30,
  ],
  [BISHOP]: [
    -10, -5, -5, -5, -10,
    -5, 5, 5, 5, -5,
    -5, 10, 10, 10, -5,
    -5, 10, 10, 10, -5,
    -5, 5, 5, 5, -5,
    -10, -5, -5, -5, -10,
  ],
  [QUEEN]: [
    -5, 0, 0, 0, -5,
    0, 5, 5, 5, 0,
    0, 5, 10, 5, 0,
    0, 5, 10, 5, 0,
    0, 5, 5, 5, 0,
    -5, 0, 0, 0, -5,
  ],
  [KING]: [
    -40, -40, -40, -40, -40,
    -30, -30, -30, -30, -30,
    -20, -20, -20, -20, -20,
    -10, -10, -10, -10, -10,
    0, 0, -5, 0, 0,
    10, 10, 0, 10, 10,
  ],
};

/** Index of a piece code in the by-code tables below: codes run -6..6. */
const CODE_OFFSET = KING;
const CODES = 2 * KING + 1;

function tableIndex(code: number, square: number): number {
  return (code + CODE_OFFSET) * SQUARE_COUNT + square;
}

/** Material plus square bonus for every (code, square), signed: white positive. */
const PIECE_SQUARE = new Int32Array(CODES * SQUARE_COUNT);
for (let kind = PAWN; kind <= KING; kind++) {
  const rows = PIECE_SQUARE_ROWS[kind]!;
  for (let square = 0; square < SQUARE_COUNT; square++) {
    const row = RANK_COUNT - 1 - Math.floor(square / FILE_COUNT);
    const whiteBonus = rows[row * FILE_COUNT + (square % FILE_COUNT)]!;
    PIECE_SQUARE[tableIndex(kind, square)] = ENGINE_VALUES[kind]! + whiteBonus;
    PIECE_SQUARE[tableIndex(-kind, SQUARE_COUNT - 1 - square)] = -(ENGINE_VALUES[kind]! + whiteBonus);
  }
}

// Zobrist keys from a fixed seed, so hashes are the same on every run (tests, shared tables).
function splitmix32(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x9e3779b9) | 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return z ^ (z >>> 16);
  };
}
const random = splitmix32(0x6d696e69);
const PIECE_KEYS_HI = new Int32Array(CODES * SQUARE_COUNT);
const PIECE_KEYS_LO = new Int32Array(CODES * SQUARE_COUNT);
for (let code = -KING; code <= KING; code++) {
  if (code === 0) continue; // an empty square adds nothing, so captures need no special case
  for (let square = 0; square < SQUARE_COUNT; square++) {
    PIECE_KEYS_HI[tableIndex(code, square)] = random();
    PIECE_KEYS_LO[tableIndex(code, square)] = random();
  }
}
const BLACK_TO_MOVE_HI = random();
const BLACK_TO_MOVE_LO = random();
// The step limit makes the ply part of the state: the same placement ten plies from the end and
// two plies from it are different games. The whole game is 50 plies, so keying every ply costs
// only the sharing between repetitions, and keeps every entry exact.
const PLY_KEY_COUNT = 64;
const PLY_KEYS_HI = Int32Array.from({ length: PLY_KEY_COUNT }, random);
const PLY_KEYS_LO = Int32Array.from({ length: PLY_KEY_COUNT }, random);

/** The side to move's bonus for having the move. */
const TEMPO = 10;
/** Over the last this many plies the evaluation slides toward the step-limit count (24: 91.5% against 91.3% on seeds 1–5 against seed-004, not kept). */
const ENDGAME_PLIES = 16;
/** One point of the rules' count (pawn 2 … queen 20) in evaluation units (values closer to chess, a rook above a knight, did no better). */
const COUNT_UNIT = 50;
/** What being ahead at all on the count is worth once the step limit is upon us. */
const COUNT_LEAD = 300;

// MVV-LVA ranks: the victim's rank dominates, the cheaper attacker breaks ties.
const VICTIM_RANK = Int32Array.from([0, 1, 4, 2, 3, 5, 6]);
const ATTACKER_RANK = Int32Array.from([0, 1, 4, 2, 3, 5, 6]);
export const CAPTURE_ORDER = 100_000;
const PROMOTION_ORDER = CAPTURE_ORDER + 10 * VICTIM_RANK[QUEEN]!;

const LAST_RANK_START = SQUARE_COUNT - FILE_COUNT;
const SAVED_FIELDS = 4;

/**
 * `MiniChessBoard` for the search: an incremental Zobrist key and an incremental material plus
 * piece-square score, restored from a stack on unmake, and the MiniChess rules for the engine's
 * terminal scores (king capture, the 50-ply count, no moves).
 */
export class MiniChessSearchBoard implements SearchGame {
  readonly board: MiniChessBoard;
  readonly maxMoves: number;
  private keyHi = 0;
  private keyLo = 0;
  /** Material and square bonuses, white minus black. */
  private score = 0;
  /** +1 white to move, -1 black. */
  private side: number;
  /** keyHi, keyLo and score before each made move. */
  private saved = new Int32Array(SAVED_FIELDS * 64);
  private depth = 0;
  /** The board's piece codes by square, kept here for the capture generator. */
  private readonly squares = new Int8Array(SQUARE_COUNT);

  constructor(board: MiniChessBoard) {
    this.board = board;
    this.maxMoves = board.maxMoves;
    this.side = board.sideToMove === 'white' ? 1 : -1;
    if (this.side < 0) {
      this.keyHi = BLACK_TO_MOVE_HI;
      this.keyLo = BLACK_TO_MOVE_LO;
    }
    for (let square = 0; square < SQUARE_COUNT; square++) {
      const code = board.pieceAt(square);
      this.squares[square] = code;
      if (code === 0) continue;
      const i = tableIndex(code, square);
      this.keyHi ^= PIECE_KEYS_HI[i]!;
      this.keyLo ^= PIECE_KEYS_LO[i]!;
      this.score += PIECE_SQUARE[i]!;
    }
  }

  static fromPosition(position: MiniChessPosition): MiniChessSearchBoard {
    return new MiniChessSearchBoard(MiniChessBoard.fromPosition(position));
  }

  hashHi(): number {
    return this.keyHi ^ PLY_KEYS_HI[Math.min(this.board.ply, PLY_KEY_COUNT - 1)]!;
  }

  hashLo(): number {
    return this.keyLo ^ PLY_KEYS_LO[Math.min(this.board.ply, PLY_KEY_COUNT - 1)]!;
  }

  generateMoves(out: Int32Array, offset: number): number {
    return this.board.generateMoves(out, offset);
  }

  countMoves(): number {
    return this.board.countMoves();
  }

  make(move: number): void {
    const board = this.board;
    const from = move & 31;
    const to = (move >> 5) & 31;
    const squares = this.squares;
    const moved = squares[from]!;
    const captured = squares[to]!;
    if (this.depth * SAVED_FIELDS === this.saved.length) this.growStack();
    const saved = this.saved;
    const top = this.depth * SAVED_FIELDS;
    saved[top] = this.keyHi;
    saved[top + 1] = this.keyLo;
    saved[top + 2] = this.score;
    saved[top + 3] = move;
    this.depth++;
    board.make(move);
    const landed = board.pieceAt(to); // a queen where a pawn promoted
    squares[from] = 0;
    squares[to] = landed;
    const fromIndex = tableIndex(moved, from);
    const toIndex = tableIndex(landed, to);
    const capturedIndex = tableIndex(captured, to);
    this.keyHi ^= PIECE_KEYS_HI[fromIndex]! ^ PIECE_KEYS_HI[toIndex]! ^ PIECE_KEYS_HI[capturedIndex]! ^ BLACK_TO_MOVE_HI;
    this.keyLo ^= PIECE_KEYS_LO[fromIndex]! ^ PIECE_KEYS_LO[toIndex]! ^ PIECE_KEYS_LO[capturedIndex]! ^ BLACK_TO_MOVE_LO;
    this.score += PIECE_SQUARE[toIndex]! - PIECE_SQUARE[fromIndex]! - PIECE_SQUARE[capturedIndex]!;
    this.side = -this.side;
  }

  unmake(): void {
    if (this.depth === 0) throw new Error('unmake() with no move to take back.');
    this.board.unmake();
    this.depth--;
    const top = this.depth * SAVED_FIELDS;
    this.keyHi = this.saved[top]!;
    this.keyLo = this.saved[top + 1]!;
    this.score = this.saved[top + 2]!;
    const move = this.saved[top + 3]!;
    const from = move & 31;
    const to = (move >> 5) & 31;
    this.squares[from] = this.board.pieceAt(from);
    this.squares[to] = this.board.pieceAt(to);
    this.side = -this.side;
  }

  /**
   * Material and squares for the side to move, sliding over the game's last plies toward what
   * will decide it at the step limit: the rules' count, where being ahead at all is what matters.
   */
  evaluate(): number {
    const positional = this.side * this.score + TEMPO;
    const pliesLeft = STEP_LIMIT + 1 - this.board.ply;
    if (pliesLeft >= ENDGAME_PLIES) return positional;
    const count = this.board.materialBalance();
    const atLimit = count * COUNT_UNIT + Math.sign(count) * COUNT_LEAD;
    const weight = ENDGAME_PLIES - Math.max(pliesLeft, 0);
    return Math.trunc(((ENDGAME_PLIES - weight) * positional + weight * atLimit) / ENDGAME_PLIES);
  }

  /** Called once `generateMoves` gave nothing: the step limit first, as docs/rules.md §MiniChess orders it. */
  result(): number {
    const board = this.board;
    if (board.isStepLimitReached()) return Math.sign(board.materialBalance());
    return board.canCaptureKing() ? 1 : -1;
  }

  /**
   * Captures and promotions, or -1 where the game is over (a king capture is never a move: the
   * position where it is available is already won).
   */
  generateNoisyMoves(out: Int32Array, offset: number): number {
    return this.board.generateNoisyMoves(out, offset);
  }

  /** A capture or a promotion. */
  isNoisy(move: number): boolean {
    const squares = this.squares;
    const to = (move >> 5) & 31;
    return squares[to] !== 0 || (squares[move & 31]! * this.side === PAWN && (to < FILE_COUNT || to >= LAST_RANK_START));
  }

  /** MVV-LVA for captures, then promotions, then quiet moves by the square bonus they gain. */
  orderScore(move: number): number {
    const squares = this.squares;
    const from = move & 31;
    const to = (move >> 5) & 31;
    const moved = squares[from]!;
    const kind = moved * this.side;
    const victim = -squares[to]! * this.side;
    let order = victim > 0 ? CAPTURE_ORDER + 10 * VICTIM_RANK[victim]! - ATTACKER_RANK[kind]! : 0;
    if (kind === PAWN && (to < FILE_COUNT || to >= LAST_RANK_START)) order += order === 0 ? PROMOTION_ORDER : 10 * VICTIM_RANK[QUEEN]!;
    if (order !== 0) return order;
    return this.side * (PIECE_SQUARE[tableIndex(moved, to)]! - PIECE_SQUARE[tableIndex(moved, from)]!);
  }

  private growStack(): void {
    const grown = new Int32Array(this.saved.length * 2);
    grown.set(this.saved);
    this.saved = grown;
  }
}
