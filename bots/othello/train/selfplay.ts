import { popcount } from '../../../shared/othello/bitboard.js';
import { OthelloBoard, PASS } from '../../../shared/othello/board.js';
import { search } from '../../engine/search.js';
import { TranspositionTable } from '../../engine/table.js';
import { solve } from '../endgame.js';
import { evaluateWithMobility } from '../evaluate.js';
import { OthelloSearchBoard } from '../search-board.js';

/** How training games are played: see docs/engine/othello.md for the settings used. */
export interface SelfPlaySettings {
  /** Random plies from the start, drawn uniformly from this range. */
  readonly openingPlies: readonly [number, number];
  /** Search depth of the moves after the opening. */
  readonly depth: number;
  /** Chance of a random move instead of the searched one, before the endgame. */
  readonly randomMoveRate: number;
  /** From this many empties on, positions are solved exactly and the game follows the solver. */
  readonly exactEmpties: number;
  /** The evaluation the games are played with: the hand-made one, so that training starts from nothing. */
  readonly evaluation: 'hand' | 'learned';
}

export const SELF_PLAY: SelfPlaySettings = { openingPlies: [2, 16], depth: 4, randomMoveRate: 0, exactEmpties: 14, evaluation: 'hand' };

/** Values per stored position: the side to move's discs (hi, lo), the other side's, the label. */
export const RECORD_INTS = 5;

const buffer = new Int32Array(33);

function legalMoves(board: OthelloBoard): number[] {
  const n = board.generateMoves(buffer, 0);
  return Array.from(buffer.subarray(0, n));
}

/** The final margin for the side to move, empties to the winner, once neither side can move. */
export function finalMargin(board: OthelloBoard): number {
  const p = popcount(board.pHi) + popcount(board.pLo);
  const o = popcount(board.oHi) + popcount(board.oLo);
  const empties = 64 - p - o;
  return p > o ? p - o + empties : p < o ? p - o - empties : 0;
}

/**
 * One training game: random opening plies, then a fixed-depth search with the odd random move,
 * then the exact solver from `exactEmpties` on. Every position where the side to move can place
 * a disc is kept with the game's final margin from that side's view, which the perfect endgame
 * makes the exact value of the position where the solver took over. Returns `RECORD_INTS` ints
 * per position.
 */
export function trainingGame(random: () => number, settings: SelfPlaySettings = SELF_PLAY, table = new TranspositionTable(16)): Int32Array {
  const board = OthelloSearchBoard.from(OthelloBoard.start());
  if (settings.evaluation === 'hand') board.evaluation = evaluateWithMobility;
  const [low, high] = settings.openingPlies;
  const openingPlies = low + Math.floor(random() * (high - low + 1));
  const kept: number[] = [];
  const sides: boolean[] = [];
  for (let ply = 0; ; ply++) {
    const legal = legalMoves(board);
    if (legal.length === 0) break;
    if (legal[0] === PASS) {
      board.make(PASS);
      continue;
    }
    kept.push(board.pHi, board.pLo, board.oHi, board.oLo, 0);
    sides.push(board.blackToMove);
    let move: number;
    if (board.empties() <= settings.exactEmpties) {
      move = solve(board)!.move;
    } else if (ply < openingPlies || random() < settings.randomMoveRate) {
      move = legal[Math.floor(random() * legal.length)]!;
    } else {
      move = search(board, { maxDepth: settings.depth, table }).move;
    }
    board.make(move);
  }
  const blackMargin = board.blackToMove ? finalMargin(board) : -finalMargin(board);
  const records = Int32Array.from(kept);
  for (let i = 0; i < sides.length; i++) records[i * RECORD_INTS + 4] = sides[i] ? blackMargin : -blackMargin;
  return records;
}
