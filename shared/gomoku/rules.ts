import type { Rules } from '../rules.js';
import { ok } from '../result.js';
import { GomokuBoard, type GomokuPosition } from './board.js';
import { explainMoveProblem, formatMove, formatPosition, parseMove, parsePosition } from './notation.js';

/** Gomoku as pure functions of position values, each one loading a `GomokuBoard` and reading it back. */
export const gomokuRules: Rules<GomokuPosition> = {
  game: 'gomoku',

  start(options) {
    return GomokuBoard.empty(options).toPosition();
  },

  toMove(position) {
    return GomokuBoard.fromPosition(position).toMove;
  },

  legalMoves(position) {
    const board = GomokuBoard.fromPosition(position);
    const moves = new Int32Array(board.maxMoves);
    return Array.from(moves.subarray(0, board.generateMoves(moves, 0)));
  },

  check(position, move, by) {
    const board = GomokuBoard.fromPosition(position);
    const problem = board.problemWith(move, by);
    return problem === undefined ? undefined : explainMoveProblem(problem, move, board, by);
  },

  play(position, move) {
    const board = GomokuBoard.fromPosition(position);
    const problem = board.problemWith(move);
    if (problem !== undefined) throw new Error(`gomokuRules.play: ${explainMoveProblem(problem, move, board).message}`);
    board.make(move);
    return board.toPosition();
  },

  outcome(position) {
    return GomokuBoard.fromPosition(position).outcome();
  },

  apply(position, move, by) {
    const board = GomokuBoard.fromPosition(position);
    const problem = board.problemWith(move, by);
    if (problem !== undefined) return { ok: false, error: explainMoveProblem(problem, move, board, by) };
    board.make(move);
    return ok({ position: board.toPosition(), outcome: board.outcome() });
  },

  parseMove,
  formatMove,
  parsePosition,
  formatPosition,
};
