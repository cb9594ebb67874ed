import type { MutableBoard } from '../board.js';
import type { Color } from '../color.js';
import type { Outcome } from '../rules.js';
import { moves, popcount, writeSquares } from './bitboard.js';
import { flip, flipped } from './flip.js';

/** Move number of a pass; squares are 0–63 (`row * 8 + col`, a1 = 0). */
export const PASS = 64;

const MAX_PLIES = 128; // 60 placements plus passes, which never come twice in a row
const scratch = new Int32Array(2);

/**
 * An Othello position that changes in place. Discs are kept as "the side to move" and "the
 * other side", so the rules read the same for both colours.
 */
export class OthelloBoard implements MutableBoard {
  readonly maxMoves = 33; // no Othello position has more than 33 legal moves
  pHi = 0;
  pLo = 0;
  oHi = 0;
  oLo = 0;
  blackToMove = true;
  private plies = 0;
  private readonly undo = new Int32Array(MAX_PLIES * 3);

  static start(): OthelloBoard {
    const board = new OthelloBoard();
    // d5 (bit 35) and e4 (bit 28) black; d4 (27) and e5 (36) white.
    board.pHi = 1 << 3;
    board.pLo = 1 << 28;
    board.oHi = 1 << 4;
    board.oLo = 1 << 27;
    return board;
  }

  static fromDiscs(blackHi: number, blackLo: number, whiteHi: number, whiteLo: number, toMove: Color): OthelloBoard {
    const board = new OthelloBoard();
    board.blackToMove = toMove === 'black';
    if (board.blackToMove) {
      board.pHi = blackHi;
      board.pLo = blackLo;
      board.oHi = whiteHi;
      board.oLo = whiteLo;
    } else {
      board.pHi = whiteHi;
      board.pLo = whiteLo;
      board.oHi = blackHi;
      board.oLo = blackLo;
    }
    return board;
  }

  clone(): OthelloBoard {
    return new OthelloBoard().copyOf(this);
  }

  /** This board made the same as `other`; returns it. */
  protected copyOf(other: OthelloBoard): this {
    this.pHi = other.pHi;
    this.pLo = other.pLo;
    this.oHi = other.oHi;
    this.oLo = other.oLo;
    this.blackToMove = other.blackToMove;
    return this;
  }

  get toMove(): Color {
    return this.blackToMove ? 'black' : 'white';
  }

  /** 'black', 'white' or undefined for an empty square. */
  discAt(square: number): Color | undefined {
    const bit = square < 32 ? 1 << square : 1 << (square - 32);
    const p = square < 32 ? this.pLo & bit : this.pHi & bit;
    const o = square < 32 ? this.oLo & bit : this.oHi & bit;
    if (p) return this.toMove;
    if (o) return this.blackToMove ? 'white' : 'black';
    return undefined;
  }

  discCount(color: Color): number {
    const mine = (color === 'black') === this.blackToMove;
    return mine ? popcount(this.pHi) + popcount(this.pLo) : popcount(this.oHi) + popcount(this.oLo);
  }

  /** Legal placements of the side to move as 64-bit halves in `out` (no pass). */
  placements(out: Int32Array): void {
    moves(this.pHi, this.pLo, this.oHi, this.oLo, out);
  }

  /** True when the side to move may place a disc on `square` (0–63). */
  canPlace(square: number): boolean {
    moves(this.pHi, this.pLo, this.oHi, this.oLo, scratch);
    return square < 32 ? (scratch[1]! & (1 << square)) !== 0 : (scratch[0]! & (1 << (square - 32))) !== 0;
  }

  /** True when the side to move has no placement but the opponent has one. */
  mustPass(): boolean {
    moves(this.pHi, this.pLo, this.oHi, this.oLo, scratch);
    if (scratch[0]! | scratch[1]!) return false;
    moves(this.oHi, this.oLo, this.pHi, this.pLo, scratch);
    return (scratch[0]! | scratch[1]!) !== 0;
  }

  isOver(): boolean {
    moves(this.pHi, this.pLo, this.oHi, this.oLo, scratch);
    if (scratch[0]! | scratch[1]!) return false;
    moves(this.oHi, this.oLo, this.pHi, this.pLo, scratch);
    return (scratch[0]! | scratch[1]!) === 0;
  }

  outcome(): Outcome | null {
    if (!this.isOver()) return null;
    const black = this.discCount('black');
    const white = this.discCount('white');
    const reason = black + white === 64 ? 'board-full' : 'no-moves';
    return { winner: black > white ? 'black' : white > black ? 'white' : null, reason };
  }

  generateMoves(out: Int32Array, offset: number): number {
    moves(this.pHi, this.pLo, this.oHi, this.oLo, scratch);
    if ((scratch[0]! | scratch[1]!) === 0) {
      moves(this.oHi, this.oLo, this.pHi, this.pLo, scratch);
      if ((scratch[0]! | scratch[1]!) === 0) return 0;
      out[offset] = PASS;
      return 1;
    }
    return writeSquares(scratch[0]!, scratch[1]!, out, offset);
  }

  countMoves(): number {
    moves(this.pHi, this.pLo, this.oHi, this.oLo, scratch);
    const n = popcount(scratch[0]!) + popcount(scratch[1]!);
    if (n !== 0) return n;
    moves(this.oHi, this.oLo, this.pHi, this.pLo, scratch);
    return (scratch[0]! | scratch[1]!) === 0 ? 0 : 1;
  }

  /** Plays a legal move (a square whose placement flips something, or PASS when it must pass). */
  make(move: number): void {
    const u = this.plies++ * 3;
    this.undo[u] = move;
    if (move === PASS) {
      this.swapSides();
      return;
    }
    flip(this.pHi, this.pLo, this.oHi, this.oLo, move);
    const fHi = flipped[0]!;
    const fLo = flipped[1]!;
    this.undo[u + 1] = fHi;
    this.undo[u + 2] = fLo;
    if (move < 32) this.pLo |= 1 << move;
    else this.pHi |= 1 << (move - 32);
    this.pHi |= fHi;
    this.pLo |= fLo;
    this.oHi ^= fHi;
    this.oLo ^= fLo;
    this.swapSides();
  }

  unmake(): void {
    this.swapSides();
    const u = --this.plies * 3;
    const move = this.undo[u]!;
    if (move === PASS) return;
    const fHi = this.undo[u + 1]!;
    const fLo = this.undo[u + 2]!;
    if (move < 32) this.pLo ^= 1 << move;
    else this.pHi ^= 1 << (move - 32);
    this.pHi ^= fHi;
    this.pLo ^= fLo;
    this.oHi |= fHi;
    this.oLo |= fLo;
  }

  /** The side to move and the other trade places. */
  protected swapSides(): void {
    const h = this.pHi;
    const l = this.pLo;
    this.pHi = this.oHi;
    this.pLo = this.oLo;
    this.oHi = h;
    this.oLo = l;
    this.blackToMove = !this.blackToMove;
  }
}
