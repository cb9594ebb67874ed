import { flips } from './flips';

/**
 * The last empties of the exact endgame solver: the final disc margin for the side to move
 * under perfect play, empties to the winner (the FFO convention), fail-soft in (alpha, beta).
 * The shape of the TypeScript solver's small tiers (`bots/othello/endgame.ts`): empties tried
 * odd quadrants first and X- and C-squares last, no sorting and no table, the last square only
 * counted; without their stability cut-off, which changes how many nodes, never the margin.
 */

const INF: i32 = 127;
const QUADRANTS: StaticArray<u64> = [0x000000000f0f0f0f, 0x00000000f0f0f0f0, 0x0f0f0f0f00000000, 0xf0f0f0f000000000];
/** X- and C-squares (next to a corner). */
const POOR: u64 = 0x42c300000000c342;

/** Each square's neighbours: a square with no opponent disc beside it flips nothing. */
const NEIGHBOURS = new StaticArray<u64>(64);
for (let square = 0; square < 64; square++) {
  let near: u64 = 0;
  for (let dr = -1; dr <= 1; dr++) {
    for (let dc = -1; dc <= 1; dc++) {
      const r = (square >> 3) + dr;
      const c = (square & 7) + dc;
      if ((dr == 0 && dc == 0) || r < 0 || r > 7 || c < 0 || c > 7) continue;
      near |= (<u64>1) << <u64>(r * 8 + c);
    }
  }
  NEIGHBOURS[square] = near;
}

let nodes: u64 = 0;

/** Nodes visited by the last `solveExact`. */
export function solvedNodes(): u64 {
  return nodes;
}

export function solveExact(player: u64, opponent: u64, alpha: i32, beta: i32): i32 {
  nodes = 0;
  const empty = ~(player | opponent);
  const empties = <i32>popcnt(empty);
  if (empties == 1) return solve1(player, opponent, alpha, <i32>ctz(empty));
  return search(player, opponent, alpha, beta, empties, false);
}

/** Final margin for `player` when neither side can move: the empties go to the winner. */
function finalScore(player: u64, opponent: u64): i32 {
  const p = <i32>popcnt(player);
  const o = <i32>popcnt(opponent);
  if (p > o) return 64 - 2 * o;
  if (p < o) return 2 * p - 64;
  return 0;
}

/** The squares of quadrants holding an odd number of empty squares. */
function oddQuadrants(empty: u64): u64 {
  let odd: u64 = 0;
  for (let q = 0; q < 4; q++) {
    const quadrant = unchecked(QUADRANTS[q]);
    if (popcnt(empty & quadrant) & 1) odd |= quadrant;
  }
  return odd;
}

/** Empties in trying order, pass by pass: odd quadrants first, X- and C-squares last in each. */
function orderClass(pass: i32, odd: u64): u64 {
  return (pass < 2 ? odd : ~odd) & (pass & 1 ? POOR : ~POOR);
}

/**
 * One empty square left: `player` plays it, or else the opponent does, or nobody. When the
 * player cannot and even the best case fails low, the opponent's flips are not counted.
 */
function solve1(player: u64, opponent: u64, alpha: i32, square: i32): i32 {
  nodes++;
  const diff = 2 * <i32>popcnt(player) - 63; // player minus opponent, 63 discs on the board
  let n = <i32>popcnt(flips(player, opponent, square));
  if (n != 0) return diff + 2 * n + 1;
  const stuck = diff > 0 ? diff + 1 : diff - 1;
  if (stuck <= alpha) return stuck;
  n = <i32>popcnt(flips(opponent, player, square));
  if (n != 0) return diff - 2 * n - 1;
  return stuck;
}

/** Two or more empties. */
function search(player: u64, opponent: u64, alpha: i32, beta: i32, empties: i32, passed: bool): i32 {
  nodes++;
  const empty = ~(player | opponent);
  const odd = oddQuadrants(empty);
  let best = -INF;
  for (let pass = 0; pass < 4; pass++) {
    let candidates = empty & orderClass(pass, odd);
    while (candidates != 0) {
      const square = <i32>ctz(candidates);
      candidates &= candidates - 1;
      if ((opponent & unchecked(NEIGHBOURS[square])) == 0) continue;
      const flipped = flips(player, opponent, square);
      if (flipped == 0) continue;
      const placed = (<u64>1) << <u64>square;
      const childPlayer = opponent ^ flipped;
      const childOpponent = player | flipped | placed;
      const score =
        empties == 2
          ? -solve1(childPlayer, childOpponent, -beta, <i32>ctz(empty ^ placed))
          : -search(childPlayer, childOpponent, -beta, -alpha, empties - 1, false);
      if (score > best) {
        if (score >= beta) return score;
        best = score;
        if (score > alpha) alpha = score;
      }
    }
  }
  if (best == -INF) {
    if (passed) return finalScore(player, opponent);
    return -search(opponent, player, -beta, -alpha, empties, true);
  }
  return best;
}
