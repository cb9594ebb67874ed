import { lowestSquare, moves, popcount } from './bitboard.js';
import { flip, flipped } from './flip.js';
import type { OthelloBoard } from './board.js';

/**
 * Othello perft with the discs in locals rather than on a board object: the same move generator
 * and flip rule as `OthelloBoard`, without its undo stack. The last ply is counted, not played.
 */
export function othelloPerft(board: OthelloBoard, depth: number): number {
  return count(board.pHi, board.pLo, board.oHi, board.oLo, depth, false, new Int32Array(2));
}

function count(pHi: number, pLo: number, oHi: number, oLo: number, depth: number, passed: boolean, scratch: Int32Array): number {
  if (depth === 0) return 1;
  moves(pHi, pLo, oHi, oLo, scratch);
  let hi = scratch[0]!;
  let lo = scratch[1]!;
  if ((hi | lo) === 0) {
    if (passed) return 1; // neither side can move: the game is over
    return count(oHi, oLo, pHi, pLo, depth - 1, true, scratch);
  }
  if (depth === 1) return popcount(hi) + popcount(lo);
  let leaves = 0;
  while ((hi | lo) !== 0) {
    const square = lowestSquare(hi, lo);
    let childOHi = pHi;
    let childOLo = pLo;
    if (square < 32) {
      lo &= lo - 1;
      childOLo |= 1 << square;
    } else {
      hi &= hi - 1;
      childOHi |= 1 << (square - 32);
    }
    flip(pHi, pLo, oHi, oLo, square);
    const fHi = flipped[0]!;
    const fLo = flipped[1]!;
    childOHi |= fHi;
    childOLo |= fLo;
    const childPHi = oHi ^ fHi;
    const childPLo = oLo ^ fLo;
    if (depth === 2) {
      // A child with no move is one leaf, whether it passes or the game is over.
      moves(childPHi, childPLo, childOHi, childOLo, scratch);
      leaves += popcount(scratch[0]!) + popcount(scratch[1]!) || 1;
    } else {
      leaves += count(childPHi, childPLo, childOHi, childOLo, depth - 1, false, scratch);
    }
  }
  return leaves;
}
