import { flips } from './flips';
import { placements } from './moves';

/**
 * Othello perft as `shared/othello/perft.ts` counts it: a pass is a ply, a finished game one
 * leaf whatever depth remains, and the last ply counted from each child's mobility.
 */
export function perft(player: u64, opponent: u64, depth: i32): u64 {
  return count(player, opponent, depth, false);
}

function count(player: u64, opponent: u64, depth: i32, passed: bool): u64 {
  if (depth == 0) return 1;
  let moves = placements(player, opponent);
  if (moves == 0) {
    if (passed) return 1; // neither side can move: the game is over
    return count(opponent, player, depth - 1, true);
  }
  if (depth == 1) return popcnt(moves);
  let leaves: u64 = 0;
  while (moves != 0) {
    const square = <i32>ctz(moves);
    moves &= moves - 1;
    const flipped = flips(player, opponent, square);
    const childOpponent = player | flipped | ((<u64>1) << <u64>square);
    const childPlayer = opponent ^ flipped;
    if (depth == 2) {
      // A child with no move is one leaf, whether it passes or the game is over.
      const replies = popcnt(placements(childPlayer, childOpponent));
      leaves += replies != 0 ? replies : 1;
    } else {
      leaves += count(childPlayer, childOpponent, depth - 1, false);
    }
  }
  return leaves;
}
