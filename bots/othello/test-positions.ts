import { OthelloBoard } from '../../shared/othello/board.js';
import { seededBelow } from '../../shared/random.js';
import { OthelloSearchBoard } from './search-board.js';

/**
 * Test helper: positions along seeded random games from the start, each a board of its own; game
 * `g` keeps the position before ply `ply` when `keep(ply, g)`.
 */
export function positionsAlongRandomGames(seed: number, games: number, keep: (ply: number, game: number) => boolean): OthelloSearchBoard[] {
  const random = seededBelow(seed);
  const out: OthelloSearchBoard[] = [];
  const buffer = new Int32Array(33);
  for (let g = 0; g < games; g++) {
    const board = OthelloSearchBoard.from(OthelloBoard.start());
    for (let ply = 0; ; ply++) {
      const n = board.generateMoves(buffer, 0);
      if (n === 0) break;
      if (keep(ply, g)) out.push(OthelloSearchBoard.from(board));
      board.make(buffer[random(n)]!);
    }
  }
  return out;
}
