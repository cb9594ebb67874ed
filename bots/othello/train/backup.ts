import { OthelloBoard } from '../../../shared/othello/board.js';
import { OthelloSearchBoard } from '../search-board.js';
import { evaluateLearned } from '../learned-eval.js';
import { finalMargin } from './selfplay.js';

const MAX_DEPTH = 8;
const moveLists = Array.from({ length: MAX_DEPTH + 2 }, () => new Int32Array(33));

function negamax(board: OthelloSearchBoard, depth: number, alpha: number, beta: number, ply: number): number {
  const list = moveLists[ply]!;
  const count = board.generateMoves(list, 0);
  if (count === 0) return 100 * finalMargin(board);
  if (depth === 0) return board.evaluate();
  let best = -Infinity;
  for (let i = 0; i < count; i++) {
    board.make(list[i]!);
    // A pass is a ply of its own, so the leaves stay `depth` plies away as the stages expect.
    const score = -negamax(board, depth - 1, -beta, -alpha, ply + 1);
    board.unmake();
    if (score > best) best = score;
    if (best > alpha) alpha = best;
    if (alpha >= beta) break;
  }
  return best;
}

/**
 * The position's value by a plain alpha-beta search of `depth` plies on the learned evaluation
 * (whose later stages are already fitted), in discs for the side to move: the label that backs
 * the later stages' knowledge up to an earlier one, as Logistello's training did.
 */
export function backedUpValue(pHi: number, pLo: number, oHi: number, oLo: number, depth: number): number {
  const board = OthelloSearchBoard.from(OthelloBoard.fromDiscs(pHi, pLo, oHi, oLo, 'black'));
  board.evaluation = evaluateLearned;
  return negamax(board, Math.min(depth, MAX_DEPTH), -Infinity, Infinity, 0) / 100;
}

