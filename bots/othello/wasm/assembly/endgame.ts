import { flips } from './flips';
import { lastFlipCount } from './lastflip';
import { placements, placementsBoth } from './moves';
import { stableCount } from './stability';

/**
 * The exact endgame solver below the root: the port of `bots/othello/endgame.ts` to u64 boards,
 * searching the same tree in the same order, so it visits the same nodes (the tests compare the
 * counts). Its tiers: more than SHALLOW empties fastest-first with a transposition table, enhanced
 * transposition cut-offs and PVS; 5 to SHALLOW empties in parity order; the last four with their
 * squares passed down. The root (its ordering by a midgame probe) stays in TypeScript, which
 * calls `solveChild` for each root move between `beginSolve` and `solvedNodes`.
 */

// @ts-ignore: decorator
@external('env', 'now')
declare function now(): f64;

const SHALLOW = 6;
const ETC_MIN_EMPTIES = 10;
const MAX_PLY = 64;
const MOVES_PER_PLY = 32;
const INF: i32 = 127;
const CHECK_EVERY: u64 = 0xfff;

const KEY_TABLE_MOVE: i32 = 1 << 30;
const KEY_REPLY: i32 = 1 << 12;
const KEY_CORNER_STABLE: i32 = 1 << 8;
const KEY_FRONTIER: i32 = 1 << 2;
const KEY_PARITY: i32 = 1 << 1;
const KEY_OWN_MOVE: i32 = 1 << 8;
const OWN_MOBILITY_MIN_EMPTIES = 10;

const CORNERS: u64 = 0x8100000000000081;
const QUADRANTS: StaticArray<u64> = [0x000000000f0f0f0f, 0x00000000f0f0f0f0, 0x0f0f0f0f00000000, 0xf0f0f0f000000000];
/** X- and C-squares (next to a corner): tried last within their parity class. */
const POOR: u64 = 0x42c300000000c342;

const STABILITY_THRESHOLD = new StaticArray<i32>(65);
for (let e = 0; e <= 64; e++) STABILITY_THRESHOLD[e] = e < 4 ? INF : min(64, e <= 9 ? 2 * e - 2 : 2 * e);

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

const listSquare = new StaticArray<i32>(MAX_PLY * MOVES_PER_PLY);
const listFlips = new StaticArray<u64>(MAX_PLY * MOVES_PER_PLY);
const listKey = new StaticArray<i32>(MAX_PLY * MOVES_PER_PLY);
/** Each move's child's table entry (-1: none looked at), all found before any is read so that their cache misses overlap. */
const listEntry = new StaticArray<i32>(MAX_PLY * MOVES_PER_PLY);
/** Each move's replies (the child's own moves), which the child then need not find again. */
const listReplies = new StaticArray<u64>(MAX_PLY * MOVES_PER_PLY);

/**
 * The transposition table, 2^20 entries of three u64: the two boards, then the generation (high
 * half) and the move, upper and lower bounds (one byte each). Its index is the TypeScript
 * solver's hash of the four halves, so both overwrite the same entries in the same order.
 */
const TABLE_BITS = 20;
const TABLE_MASK: u32 = (1 << TABLE_BITS) - 1;
let table = new StaticArray<u64>(0);
let generation: u64 = 0;

let nodes: u64 = 0;
let deadline: f64 = Infinity;
let stopped = false;
let etcScore: i32 = 0;

/** Starts a solve whose root counts one node: a new generation, so earlier entries read as misses. */
export function beginSolve(giveUpAt: f64): void {
  if (table.length == 0) table = new StaticArray<u64>(3 << TABLE_BITS);
  generation++;
  nodes = 1;
  stopped = false;
  deadline = giveUpAt;
}

export function solvedNodes(): u64 {
  return nodes;
}

/** True when the solve met its deadline: its scores since then mean nothing. */
export function solveStopped(): bool {
  return stopped;
}

/** One child of the root, the boards as the TypeScript solver's 32-bit halves, `ply` 1 or more. */
export function solveChild(pHi: i32, pLo: i32, oHi: i32, oLo: i32, alpha: i32, beta: i32, empties: i32, ply: i32): i32 {
  return child(board(pHi, pLo), board(oHi, oLo), alpha, beta, empties, ply);
}

// @ts-ignore: decorator
@inline
function board(hi: i32, lo: i32): u64 {
  return ((<u64><u32>hi) << 32) | <u64><u32>lo;
}

// @ts-ignore: decorator
@inline
function bit(square: i32): u64 {
  return (<u64>1) << <u64>square;
}

function tableIndex(player: u64, opponent: u64): i32 {
  const pHi = <u32>(player >> 32);
  const pLo = <u32>player;
  const oHi = <u32>(opponent >> 32);
  const oLo = <u32>opponent;
  let h: u32 = (pLo * 0x9e3779b1) ^ ((pHi ^ 0x5bd1e995) * 0x85ebca77);
  h ^= ((oLo ^ 0x27d4eb2f) * 0xc2b2ae3d) ^ (oHi * 0x165667b1);
  h ^= h >> 15;
  h *= 0x2c1b3c6d;
  h ^= h >> 12;
  return <i32>(h & TABLE_MASK) * 3;
}

// @ts-ignore: decorator
@inline
function inTable(entry: i32, player: u64, opponent: u64): bool {
  return unchecked(table[entry]) == player && unchecked(table[entry + 1]) == opponent && unchecked(table[entry + 2]) >> 32 == generation;
}

// @ts-ignore: decorator
@inline
function lowerOf(entry: i32): i32 {
  return <i32><i8>unchecked(table[entry + 2]);
}

// @ts-ignore: decorator
@inline
function upperOf(entry: i32): i32 {
  return <i32><i8>(unchecked(table[entry + 2]) >> 8);
}

// @ts-ignore: decorator
@inline
function moveOf(entry: i32): i32 {
  return <i32><i8>(unchecked(table[entry + 2]) >> 16);
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
// @ts-ignore: decorator
@inline
function orderClass(pass: i32, odd: u64): u64 {
  return (pass < 2 ? odd : ~odd) & (pass & 1 ? POOR : ~POOR);
}

/** What `player` on the empty `square` flips, skipping the work when no opponent disc is beside it. */
// @ts-ignore: decorator
@inline
function flipsNear(player: u64, opponent: u64, square: i32): u64 {
  return opponent & unchecked(NEIGHBOURS[square]) ? flips(player, opponent, square) : 0;
}

/**
 * One empty square left: `player` plays it, or else the opponent (every other square) does, or
 * nobody. When the player cannot and even the best case fails low, the opponent's flips are not
 * counted.
 */
function solve1(player: u64, alpha: i32, square: i32): i32 {
  nodes++;
  const diff = 2 * <i32>popcnt(player) - 63; // player minus opponent, 63 discs on the board
  let n = lastFlipCount(player, square);
  if (n != 0) return diff + 2 * n + 1;
  const stuck = diff > 0 ? diff + 1 : diff - 1;
  if (stuck <= alpha) return stuck;
  n = lastFlipCount(~player ^ bit(square), square);
  if (n != 0) return diff - 2 * n - 1;
  return stuck;
}

/**
 * Two to four empties, `count` squares one byte each in `squares`, in trying order; each child
 * gets the others in the same order (the TypeScript solver's solve2..solve4, as one loop).
 */
function solveLast(player: u64, opponent: u64, alpha: i32, beta: i32, squares: u32, count: i32, passed: bool): i32 {
  nodes++;
  let best = -INF;
  for (let i = 0; i < count; i++) {
    const shift = <u32>(8 * i);
    const square = <i32>((squares >> shift) & 0xff);
    const flipped = flipsNear(player, opponent, square);
    if (flipped == 0) continue;
    const others = (squares & ((<u32>1 << shift) - 1)) | (((squares >> shift) >> 8) << shift);
    const childPlayer = opponent ^ flipped;
    const childOpponent = player | flipped | bit(square);
    const score =
      count == 2
        ? -solve1(childPlayer, -beta, <i32>others)
        : -solveLast(childPlayer, childOpponent, -beta, -alpha, others, count - 1, false);
    if (score > best) {
      if (score >= beta) return score;
      best = score;
      if (score > alpha) alpha = score;
    }
  }
  if (best == -INF) {
    if (passed) return finalScore(player, opponent);
    return -solveLast(opponent, player, -beta, -alpha, squares, count, true);
  }
  return best;
}

/** Four empties: put them in trying order and hand them to `solveLast`. */
function enter4(player: u64, opponent: u64, alpha: i32, beta: i32): i32 {
  const empty = ~(player | opponent);
  const odd = oddQuadrants(empty);
  let squares: u32 = 0;
  let shift: u32 = 0;
  for (let pass = 0; pass < 4; pass++) {
    let candidates = empty & orderClass(pass, odd);
    while (candidates != 0) {
      squares |= (<u32>ctz(candidates)) << shift;
      shift += 8;
      candidates &= candidates - 1;
    }
  }
  return solveLast(player, opponent, alpha, beta, squares, 4, false);
}

/** The stability cut-off: the opponent's stable discs already cap the score at or below alpha. */
// @ts-ignore: decorator
@inline
function stableBound(player: u64, opponent: u64, alpha: i32, empties: i32): i32 {
  if (alpha < unchecked(STABILITY_THRESHOLD[empties])) return INF;
  return 64 - 2 * stableCount(opponent, player);
}

/** 5 to SHALLOW empties: the empties in trying order, no sorting and no table. */
function shallow(player: u64, opponent: u64, alpha: i32, beta: i32, empties: i32, passed: bool): i32 {
  nodes++;
  const bound = stableBound(player, opponent, alpha, empties);
  if (bound <= alpha) return bound;
  const empty = ~(player | opponent);
  const odd = oddQuadrants(empty);
  let best = -INF;
  for (let pass = 0; pass < 4; pass++) {
    let candidates = empty & orderClass(pass, odd);
    while (candidates != 0) {
      const square = <i32>ctz(candidates);
      candidates &= candidates - 1;
      const flipped = flipsNear(player, opponent, square);
      if (flipped == 0) continue;
      const childPlayer = opponent ^ flipped;
      const childOpponent = player | flipped | bit(square);
      const score =
        empties == 5
          ? -enter4(childPlayer, childOpponent, -beta, -alpha)
          : -shallow(childPlayer, childOpponent, -beta, -alpha, empties - 1, false);
      if (score > best) {
        if (score >= beta) return score;
        best = score;
        if (score > alpha) alpha = score;
      }
    }
  }
  if (best == -INF) {
    if (passed) return finalScore(player, opponent);
    return -shallow(opponent, player, -beta, -alpha, empties, true);
  }
  return best;
}

function child(player: u64, opponent: u64, alpha: i32, beta: i32, empties: i32, ply: i32): i32 {
  if (empties > SHALLOW) return deep(player, opponent, placements(player, opponent), alpha, beta, empties, ply);
  if (empties > 4) return shallow(player, opponent, alpha, beta, empties, false);
  if (empties == 4) return enter4(player, opponent, alpha, beta);
  return fewEmpties(player, opponent, alpha, beta);
}

/** A child of a deep node, whose moves its parent found. */
// @ts-ignore: decorator
@inline
function below(player: u64, opponent: u64, moves: u64, alpha: i32, beta: i32, empties: i32, ply: i32): i32 {
  if (empties > SHALLOW) return deep(player, opponent, moves, alpha, beta, empties, ply);
  return shallow(player, opponent, alpha, beta, empties, false);
}

/** Three empties or fewer (only ever below the root): gather them, low squares first, and solve. */
function fewEmpties(player: u64, opponent: u64, alpha: i32, beta: i32): i32 {
  let empty = ~(player | opponent);
  const count = <i32>popcnt(empty);
  if (count == 0) return finalScore(player, opponent);
  if (count == 1) return solve1(player, alpha, <i32>ctz(empty));
  let squares: u32 = 0;
  for (let shift: u32 = 0; empty != 0; shift += 8) {
    squares |= (<u32>ctz(empty)) << shift;
    empty &= empty - 1;
  }
  return solveLast(player, opponent, alpha, beta, squares, count, false);
}

/** Discs of `discs` that no move can flip because they are a corner or an edge square beside one. */
function cornerStable(discs: u64): i32 {
  const beside =
    ((discs & 0x0100000000000001) << 1) |
    ((discs & 0x8000000000000080) >> 1) |
    ((discs & 0x81) << 8) |
    ((discs & 0x8100000000000000) >> 8);
  return <i32>popcnt((beside | CORNERS) & discs);
}

/** Empty squares next to a disc of `discs`: where the other side may one day move. */
function frontier(discs: u64, empty: u64): i32 {
  const row = discs | ((discs << 1) & 0xfefefefefefefefe) | ((discs >> 1) & 0x7f7f7f7f7f7f7f7f);
  return <i32>popcnt((row | (row << 8) | (row >> 8)) & empty);
}

/**
 * Builds the move list of `ply` with each move's flips, replies and sort key, the table's move
 * first. From ETC_MIN_EMPTIES up, a child already in the table with a bound that refutes this node
 * cuts it at once: -1 is returned and the score left in `etcScore`. The flips and the table come
 * first for every move and the keys after, so the table's cache misses overlap.
 */
function listMoves(player: u64, opponent: u64, moves: u64, ply: i32, tableMove: i32, empties: i32, beta: i32): i32 {
  const base = ply * MOVES_PER_PLY;
  let n = 0;
  while (moves != 0) {
    const square = <i32>ctz(moves);
    moves &= moves - 1;
    const flipped = flips(player, opponent, square);
    const i = base + n++;
    unchecked((listSquare[i] = square));
    unchecked((listFlips[i] = flipped));
    if (empties >= ETC_MIN_EMPTIES) unchecked((listEntry[i] = square == tableMove ? -1 : tableIndex(opponent ^ flipped, player | flipped | bit(square))));
  }
  if (empties >= ETC_MIN_EMPTIES) {
    for (let i = base; i < base + n; i++) {
      const entry = unchecked(listEntry[i]);
      if (entry < 0) continue;
      const square = unchecked(listSquare[i]);
      const flipped = unchecked(listFlips[i]);
      if (inTable(entry, opponent ^ flipped, player | flipped | bit(square)) && -upperOf(entry) >= beta) {
        etcScore = -upperOf(entry);
        return -1;
      }
    }
  }
  const odd = oddQuadrants(~(player | opponent));
  for (let i = base; i < base + n; i++) {
    const square = unchecked(listSquare[i]);
    const flipped = unchecked(listFlips[i]);
    const childPlayer = opponent ^ flipped;
    const childOpponent = player | flipped | bit(square);
    let replies: u64;
    let ownMoves: u64 = 0;
    if (empties >= OWN_MOBILITY_MIN_EMPTIES) {
      const both = placementsBoth(childPlayer, childOpponent);
      replies = i64x2.extract_lane(both, 0);
      ownMoves = i64x2.extract_lane(both, 1);
    } else {
      replies = placements(childPlayer, childOpponent);
    }
    unchecked((listReplies[i] = replies));
    if (square == tableMove) {
      unchecked((listKey[i] = KEY_TABLE_MOVE));
      continue;
    }
    unchecked((listKey[i] =
      cornerStable(childOpponent) * KEY_CORNER_STABLE -
      <i32>(popcnt(replies) + popcnt(replies & CORNERS)) * KEY_REPLY -
      frontier(childOpponent, ~(childPlayer | childOpponent)) * KEY_FRONTIER +
      (odd & bit(square) ? KEY_PARITY : 0) +
      <i32>popcnt(ownMoves) * KEY_OWN_MOVE));
  }
  return n;
}

/** Moves the best-keyed move left in the list to position `i` and returns where it now is. */
function pickNext(base: i32, i: i32, n: i32): i32 {
  const at = base + i;
  let best = at;
  for (let j = at + 1; j < base + n; j++) if (unchecked(listKey[j]) > unchecked(listKey[best])) best = j;
  if (best != at) {
    const square = unchecked(listSquare[best]);
    const flipped = unchecked(listFlips[best]);
    const replies = unchecked(listReplies[best]);
    const key = unchecked(listKey[best]);
    unchecked((listSquare[best] = listSquare[at]));
    unchecked((listFlips[best] = listFlips[at]));
    unchecked((listReplies[best] = listReplies[at]));
    unchecked((listKey[best] = listKey[at]));
    unchecked((listSquare[at] = square));
    unchecked((listFlips[at] = flipped));
    unchecked((listReplies[at] = replies));
    unchecked((listKey[at] = key));
  }
  return at;
}

/** More than SHALLOW empties, `moves` the side to move's. */
function deep(player: u64, opponent: u64, moves: u64, alpha: i32, beta: i32, empties: i32, ply: i32): i32 {
  if ((++nodes & CHECK_EVERY) == 0 && now() > deadline) stopped = true;
  if (stopped) return 0;
  if (moves == 0) {
    const replies = placements(opponent, player);
    if (replies == 0) return finalScore(player, opponent);
    return -deep(opponent, player, replies, -beta, -alpha, empties, ply + 1);
  }
  const bound = stableBound(player, opponent, alpha, empties);
  if (bound <= alpha) return bound;

  const entry = tableIndex(player, opponent);
  let tableMove = -1;
  if (inTable(entry, player, opponent)) {
    const lower = lowerOf(entry);
    const upper = upperOf(entry);
    if (lower >= beta) return lower;
    if (upper <= alpha || lower == upper) return upper;
    if (lower > alpha) alpha = lower;
    if (upper < beta) beta = upper;
    tableMove = moveOf(entry);
  }

  const alphaSearched = alpha;
  const n = listMoves(player, opponent, moves, ply, tableMove, empties, beta);
  if (n < 0) return etcScore;
  const base = ply * MOVES_PER_PLY;
  let best = -INF;
  let bestMove = -1;
  for (let i = 0; i < n; i++) {
    const at = pickNext(base, i, n);
    const square = unchecked(listSquare[at]);
    const flipped = unchecked(listFlips[at]);
    const replies = unchecked(listReplies[at]);
    const childPlayer = opponent ^ flipped;
    const childOpponent = player | flipped | bit(square);
    let score: i32;
    if (i == 0) {
      score = -below(childPlayer, childOpponent, replies, -beta, -alpha, empties - 1, ply + 1);
    } else {
      score = -below(childPlayer, childOpponent, replies, -1 - alpha, -alpha, empties - 1, ply + 1);
      if (score > alpha && score < beta) score = -below(childPlayer, childOpponent, replies, -beta, -alpha, empties - 1, ply + 1);
    }
    if (stopped) return 0;
    if (score > best) {
      best = score;
      bestMove = square;
      if (score > alpha) {
        alpha = score;
        if (score >= beta) break;
      }
    }
  }

  // Merge with what the table knew: a miss starts from "anything".
  let lower = -INF;
  let upper = INF;
  if (inTable(entry, player, opponent)) {
    lower = lowerOf(entry);
    upper = upperOf(entry);
  }
  if (best >= beta) lower = max(best, lower);
  else if (best <= alphaSearched) upper = min(best, upper);
  else lower = upper = best;
  unchecked((table[entry] = player));
  unchecked((table[entry + 1] = opponent));
  unchecked((table[entry + 2] = (generation << 32) | (<u64><u8>bestMove << 16) | (<u64><u8>upper << 8) | <u64><u8>lower));
  return best;
}
