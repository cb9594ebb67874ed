import { MiniChessBoard } from '../../shared/minichess/index.js';
import { seededBelow } from '../../shared/random.js';
import { MiniChessSearchBoard } from './search-board.js';

/**
 * Test helper: a seeded random walk from the start with make and unmake, so the incremental state
 * gets exercised; it yields the board after each of up to `steps` steps. It backs up now and then,
 * and always at a finished game, so unmake is tested as much as make.
 */
export function* randomWalk(seed: number, steps = 300, board = MiniChessSearchBoard.fromPosition(MiniChessBoard.start().toPosition())): Generator<MiniChessSearchBoard> {
  const random = seededBelow(seed);
  const buffer = new Int32Array(board.maxMoves);
  for (let step = 0; step < steps; step++) {
    const count = board.generateMoves(buffer, 0);
    if (count === 0 || (board.board.madeMoves > 0 && random(4) === 0)) {
      if (board.board.madeMoves === 0) return;
      board.unmake();
    } else {
      board.make(buffer[random(count)]!);
    }
    yield board;
  }
}
