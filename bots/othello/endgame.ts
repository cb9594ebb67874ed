import { moves, popcount } from '../../shared/othello/bitboard.js';
import type { OthelloBoard } from '../../shared/othello/board.js';
import { PASS } from '../../shared/othello/board.js';
import { countFlips, flip, flipped } from '../../shared/othello/flip.js';
import { evaluate } from './evaluate.js';
import { stableCount } from './stability.js';
import type { ChildSolver } from './child-solver.js';
import { wasmChildSolver } from './wasm-core.js';

/**
 * An exact Othello endgame solver: the best move and the final disc margin under perfect play,
 * empty squares counted for the winner (the FFO convention).
 *
 * Three tiers, the usual shape of fast solvers (Edax, Zebra):
 * - more than SHALLOW empties: moves sorted fastest-first (fewest replies for the opponent,
 *   corners counted twice), a transposition table that keeps both bounds, enhanced transposition
 *   cut-offs, principal-variation search;
 * - 5 to SHALLOW empties: no sorting and no table, empties tried odd quadrants first (parity),
 *   X- and C-squares last;
 * - 4 to 1 empties: the squares passed down as arguments, the last move only counted.
 * Both upper tiers give up early when the opponent's stable discs already cap the score, and
 * the root's moves are ordered by a shallow search on the midgame evaluation.
 * The discs live in locals (four 32-bit halves) all the way down; nothing is allocated.
 * Below the root the WebAssembly core (`wasm/assembly/endgame.ts`, a port of this file to u64
 * boards) searches by default, visiting the same nodes in less time (`npm run bench`); this code is
 * its reference.
 *
 * Scores are negated as `0 - x`, never `-x`: a draw would otherwise become -0, which is not a
 * small integer to V8 and sends the hot functions back to slower code.
 */

export interface SolveOptions {
  /** `performance.now()` time at which to give up; the solve then returns undefined. */
  readonly deadline?: number;
  /** Search window in disc margins; the default (-64, 64) gives the exact margin. */
  readonly alpha?: number;
  readonly beta?: number;
  /** Who searches below the root: the WebAssembly core (the default) or this file's TypeScript. */
  readonly engine?: 'wasm' | 'ts';
}

export interface SolveResult {
  /** A best move (0–63), or PASS when the side to move must pass. */
  readonly move: number;
  /** Final disc margin for the side to move, empties to the winner; a bound when outside the window. */
  readonly score: number;
  readonly nodes: number;
  readonly ms: number;
}

const SHALLOW = 6; // at most this many empties: parity order, no sorting, no table (6 measured faster than 5 or 7)
const ETC_MIN_EMPTIES = 10; // from here up, look for children already in the table before searching
const MAX_PLY = 64; // 60 placements at most, and a pass never comes twice in a row
const MOVES_PER_PLY = 32;
const INF = 127;
const CHECK_EVERY = 0xfff; // deep nodes between looks at the clock

// Sort keys of the deep tier, in order of weight (Edax's fastest-first terms and proportions).
const KEY_TABLE_MOVE = 1 << 30;
const KEY_REPLY = 1 << 12; // less for each reply the opponent has, a corner reply counting twice
const KEY_CORNER_STABLE = 1 << 8; // more for each of our discs made safe by a corner
const KEY_FRONTIER = 1 << 2; // less for each empty square next to our discs
const KEY_PARITY = 1 << 1; // more for a move into a quadrant with an odd number of empties
const KEY_OWN_MOVE = 1 << 8; // from OWN_MOBILITY_MIN_EMPTIES up: more for each move we keep
const OWN_MOBILITY_MIN_EMPTIES = 10; // measured: 7% fewer nodes; below this it costs more than it saves

// Root moves are ordered by a shallow midgame search instead (FFO #40–#44: 17% fewer nodes).
const ROOT_PROBE_MIN_EMPTIES = 12;
const ROOT_PROBE_DEPTH = 4;
const PROBE_INF = 1 << 28;
const PROBE_DISC = 1000; // a finished game's margin, in evaluation units: beyond any evaluation
const probeMoves = new Int32Array(2);

const CORNERS_LO = 0x00000081;
const CORNERS_HI = 0x81000000 | 0;
/** The quadrant masks, each within one half: rows 0–3 are `lo`, rows 4–7 `hi`. */
const WEST = 0x0f0f0f0f;
const EAST = 0xf0f0f0f0 | 0;
/** X- and C-squares (next to a corner): tried last within their parity class. */
const POOR_LO = 0x0000c342;
const POOR_HI = 0x42c30000;

/**
 * The lowest alpha at which the opponent's stable discs are worth counting, by empties: below it
 * they cannot be enough for a cut-off (the shape of Edax's NWS_STABILITY_THRESHOLD).
 */
const STABILITY_THRESHOLD = Int32Array.from({ length: 65 }, (_, e) => (e < 4 ? INF : Math.min(64, e <= 9 ? 2 * e - 2 : 2 * e)));

/** Each square's bit in each half. */
const BIT_HI = Int32Array.from({ length: 64 }, (_, s) => (s >= 32 ? 1 << (s - 32) : 0));
const BIT_LO = Int32Array.from({ length: 64 }, (_, s) => (s < 32 ? 1 << s : 0));
/** Neighbours of each square: a square with no opponent disc beside it flips nothing. */
const NEIGHBOURS_HI = new Int32Array(64);
const NEIGHBOURS_LO = new Int32Array(64);
for (let square = 0; square < 64; square++) {
  for (let dr = -1; dr <= 1; dr++) {
    for (let dc = -1; dc <= 1; dc++) {
      const r = (square >> 3) + dr;
      const c = (square & 7) + dc;
      if ((dr === 0 && dc === 0) || r < 0 || r > 7 || c < 0 || c > 7) continue;
      NEIGHBOURS_HI[square]! |= BIT_HI[r * 8 + c]!;
      NEIGHBOURS_LO[square]! |= BIT_LO[r * 8 + c]!;
    }
  }
}

// Per ply of the deep tier: the move list with each move's flips and sort key.
const listSquare = new Int32Array(MAX_PLY * MOVES_PER_PLY);
const listFlipHi = new Int32Array(MAX_PLY * MOVES_PER_PLY);
const listFlipLo = new Int32Array(MAX_PLY * MOVES_PER_PLY);
const listKey = new Int32Array(MAX_PLY * MOVES_PER_PLY);
const mobility = new Int32Array(2);

/**
 * The transposition table of the deep tier: the exact discs (so no false hits), the lower and
 * upper bounds of the margin found so far, the best move, and the solve that wrote it. Keeping
 * both bounds lets the null-window searches share what they learn. Made on the first solve
 * (32 MB); an entry of an earlier solve reads as a miss, which spares clearing 32 MB per solve.
 */
const TABLE_BITS = 20;
const TABLE_MASK = (1 << TABLE_BITS) - 1;
const ENTRY = 8; // pHi, pLo, oHi, oLo, lower, upper, move, generation
const LOWER = 4;
const UPPER = 5;
const MOVE = 6;
const GENERATION = 7;
let table = new Int32Array(0);
let generation = 0;

let nodes = 0;
let deadline = Infinity;
let stopped = false;
let etcScore = 0;

function tableIndex(pHi: number, pLo: number, oHi: number, oLo: number): number {
  let h = Math.imul(pLo, 0x9e3779b1) ^ Math.imul(pHi ^ 0x5bd1e995, 0x85ebca77);
  h ^= Math.imul(oLo ^ 0x27d4eb2f, 0xc2b2ae3d) ^ Math.imul(oHi, 0x165667b1);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 12;
  return (h & TABLE_MASK) * ENTRY;
}

function inTable(entry: number, pHi: number, pLo: number, oHi: number, oLo: number): boolean {
  return table[entry] === pHi && table[entry + 1] === pLo && table[entry + 2] === oHi && table[entry + 3] === oLo && table[entry + GENERATION] === generation;
}

/** Final margin for `P` when neither side can move: the empties go to the winner. */
function finalScore(pHi: number, pLo: number, oHi: number, oLo: number): number {
  const p = popcount(pHi) + popcount(pLo);
  const o = popcount(oHi) + popcount(oLo);
  if (p > o) return 64 - 2 * o;
  if (p < o) return 2 * p - 64;
  return 0;
}

/** The squares of quadrants holding an odd number of `empty` squares, within one half. */
function oddQuadrants(empty: number): number {
  return (popcount(empty & WEST) & 1 ? WEST : 0) | (popcount(empty & EAST) & 1 ? EAST : 0);
}

/** Empties in trying order, pass by pass: odd quadrants first, X- and C-squares last in each. */
function orderClass(pass: number, odd: number, poor: number): number {
  return (pass < 2 ? odd : ~odd) & (pass & 1 ? poor : ~poor);
}

function hasNeighbour(oHi: number, oLo: number, x: number): boolean {
  return ((oHi & NEIGHBOURS_HI[x]!) | (oLo & NEIGHBOURS_LO[x]!)) !== 0;
}

/**
 * One empty square left: P plays it, or else O does, or nobody. When P cannot and even the best
 * case fails low, O's flips are not counted: the score stands as an upper bound.
 */
function solve1(pHi: number, pLo: number, oHi: number, oLo: number, alpha: number, x: number): number {
  nodes++;
  const diff = 2 * (popcount(pHi) + popcount(pLo)) - 63; // P minus O, 63 discs on the board
  let n = countFlips(pHi, pLo, oHi, oLo, x);
  if (n !== 0) return diff + 2 * n + 1;
  const stuck = diff > 0 ? diff + 1 : diff - 1;
  if (stuck <= alpha) return stuck;
  n = countFlips(oHi, oLo, pHi, pLo, x);
  if (n !== 0) return diff - 2 * n - 1;
  return stuck;
}

function solve2(pHi: number, pLo: number, oHi: number, oLo: number, alpha: number, beta: number, x1: number, x2: number, passed: boolean): number {
  nodes++;
  let best = -INF;
  if (hasNeighbour(oHi, oLo, x1)) {
    flip(pHi, pLo, oHi, oLo, x1);
    const fHi = flipped[0]!;
    const fLo = flipped[1]!;
    if ((fHi | fLo) !== 0) {
      best = 0 - solve1(oHi ^ fHi, oLo ^ fLo, pHi | fHi | BIT_HI[x1]!, pLo | fLo | BIT_LO[x1]!, 0 - beta, x2);
      if (best >= beta) return best;
    }
  }
  if (hasNeighbour(oHi, oLo, x2)) {
    flip(pHi, pLo, oHi, oLo, x2);
    const fHi = flipped[0]!;
    const fLo = flipped[1]!;
    if ((fHi | fLo) !== 0) {
      const score = 0 - solve1(oHi ^ fHi, oLo ^ fLo, pHi | fHi | BIT_HI[x2]!, pLo | fLo | BIT_LO[x2]!, 0 - beta, x1);
      if (score > best) best = score;
    }
  }
  if (best === -INF) {
    if (passed) return finalScore(pHi, pLo, oHi, oLo);
    return 0 - solve2(oHi, oLo, pHi, pLo, 0 - beta, 0 - alpha, x1, x2, true);
  }
  return best;
}

function solve3(
  pHi: number,
  pLo: number,
  oHi: number,
  oLo: number,
  alpha: number,
  beta: number,
  x1: number,
  x2: number,
  x3: number,
  passed: boolean,
): number {
  nodes++;
  let best = -INF;
  if (hasNeighbour(oHi, oLo, x1)) {
    flip(pHi, pLo, oHi, oLo, x1);
    const fHi = flipped[0]!;
    const fLo = flipped[1]!;
    if ((fHi | fLo) !== 0) {
      best = 0 - solve2(oHi ^ fHi, oLo ^ fLo, pHi | fHi | BIT_HI[x1]!, pLo | fLo | BIT_LO[x1]!, 0 - beta, 0 - alpha, x2, x3, false);
      if (best >= beta) return best;
      if (best > alpha) alpha = best;
    }
  }
  if (hasNeighbour(oHi, oLo, x2)) {
    flip(pHi, pLo, oHi, oLo, x2);
    const fHi = flipped[0]!;
    const fLo = flipped[1]!;
    if ((fHi | fLo) !== 0) {
      const score = 0 - solve2(oHi ^ fHi, oLo ^ fLo, pHi | fHi | BIT_HI[x2]!, pLo | fLo | BIT_LO[x2]!, 0 - beta, 0 - alpha, x1, x3, false);
      if (score > best) {
        if (score >= beta) return score;
        best = score;
        if (score > alpha) alpha = score;
      }
    }
  }
  if (hasNeighbour(oHi, oLo, x3)) {
    flip(pHi, pLo, oHi, oLo, x3);
    const fHi = flipped[0]!;
    const fLo = flipped[1]!;
    if ((fHi | fLo) !== 0) {
      const score = 0 - solve2(oHi ^ fHi, oLo ^ fLo, pHi | fHi | BIT_HI[x3]!, pLo | fLo | BIT_LO[x3]!, 0 - beta, 0 - alpha, x1, x2, false);
      if (score > best) best = score;
    }
  }
  if (best === -INF) {
    if (passed) return finalScore(pHi, pLo, oHi, oLo);
    return 0 - solve3(oHi, oLo, pHi, pLo, 0 - beta, 0 - alpha, x1, x2, x3, true);
  }
  return best;
}

function solve4(
  pHi: number,
  pLo: number,
  oHi: number,
  oLo: number,
  alpha: number,
  beta: number,
  x1: number,
  x2: number,
  x3: number,
  x4: number,
  passed: boolean,
): number {
  nodes++;
  let best = -INF;
  if (hasNeighbour(oHi, oLo, x1)) {
    flip(pHi, pLo, oHi, oLo, x1);
    const fHi = flipped[0]!;
    const fLo = flipped[1]!;
    if ((fHi | fLo) !== 0) {
      best = 0 - solve3(oHi ^ fHi, oLo ^ fLo, pHi | fHi | BIT_HI[x1]!, pLo | fLo | BIT_LO[x1]!, 0 - beta, 0 - alpha, x2, x3, x4, false);
      if (best >= beta) return best;
      if (best > alpha) alpha = best;
    }
  }
  if (hasNeighbour(oHi, oLo, x2)) {
    flip(pHi, pLo, oHi, oLo, x2);
    const fHi = flipped[0]!;
    const fLo = flipped[1]!;
    if ((fHi | fLo) !== 0) {
      const score = 0 - solve3(oHi ^ fHi, oLo ^ fLo, pHi | fHi | BIT_HI[x2]!, pLo | fLo | BIT_LO[x2]!, 0 - beta, 0 - alpha, x1, x3, x4, false);
      if (score > best) {
        if (score >= beta) return score;
        best = score;
        if (score > alpha) alpha = score;
      }
    }
  }
  if (hasNeighbour(oHi, oLo, x3)) {
    flip(pHi, pLo, oHi, oLo, x3);
    const fHi = flipped[0]!;
    const fLo = flipped[1]!;
    if ((fHi | fLo) !== 0) {
      const score = 0 - solve3(oHi ^ fHi, oLo ^ fLo, pHi | fHi | BIT_HI[x3]!, pLo | fLo | BIT_LO[x3]!, 0 - beta, 0 - alpha, x1, x2, x4, false);
      if (score > best) {
        if (score >= beta) return score;
        best = score;
        if (score > alpha) alpha = score;
      }
    }
  }
  if (hasNeighbour(oHi, oLo, x4)) {
    flip(pHi, pLo, oHi, oLo, x4);
    const fHi = flipped[0]!;
    const fLo = flipped[1]!;
    if ((fHi | fLo) !== 0) {
      const score = 0 - solve3(oHi ^ fHi, oLo ^ fLo, pHi | fHi | BIT_HI[x4]!, pLo | fLo | BIT_LO[x4]!, 0 - beta, 0 - alpha, x1, x2, x3, false);
      if (score > best) best = score;
    }
  }
  if (best === -INF) {
    if (passed) return finalScore(pHi, pLo, oHi, oLo);
    return 0 - solve4(oHi, oLo, pHi, pLo, 0 - beta, 0 - alpha, x1, x2, x3, x4, true);
  }
  return best;
}

/** Four empties: put them in trying order and hand them to `solve4`. */
function enter4(pHi: number, pLo: number, oHi: number, oLo: number, alpha: number, beta: number): number {
  const eHi = ~(pHi | oHi);
  const eLo = ~(pLo | oLo);
  const oddHi = oddQuadrants(eHi);
  const oddLo = oddQuadrants(eLo);
  let x1 = 0;
  let x2 = 0;
  let x3 = 0;
  let x4 = 0;
  let n = 0;
  for (let pass = 0; pass < 4; pass++) {
    let lo = eLo & orderClass(pass, oddLo, POOR_LO);
    let hi = eHi & orderClass(pass, oddHi, POOR_HI);
    while ((lo | hi) !== 0) {
      let square: number;
      if (lo !== 0) {
        const bit = lo & -lo;
        lo ^= bit;
        square = 31 - Math.clz32(bit);
      } else {
        const bit = hi & -hi;
        hi ^= bit;
        square = 63 - Math.clz32(bit);
      }
      if (n === 0) x1 = square;
      else if (n === 1) x2 = square;
      else if (n === 2) x3 = square;
      else x4 = square;
      n++;
    }
  }
  return solve4(pHi, pLo, oHi, oLo, alpha, beta, x1, x2, x3, x4, false);
}

/** 5 to SHALLOW empties: the empties in trying order, no sorting and no table. */
function shallow(pHi: number, pLo: number, oHi: number, oLo: number, alpha: number, beta: number, empties: number, passed: boolean): number {
  nodes++;
  if (alpha >= STABILITY_THRESHOLD[empties]!) {
    const bound = 64 - 2 * stableCount(oHi, oLo, pHi, pLo);
    if (bound <= alpha) return bound;
  }
  const eHi = ~(pHi | oHi);
  const eLo = ~(pLo | oLo);
  const oddHi = oddQuadrants(eHi);
  const oddLo = oddQuadrants(eLo);
  let best = -INF;
  for (let pass = 0; pass < 4; pass++) {
    let lo = eLo & orderClass(pass, oddLo, POOR_LO);
    let hi = eHi & orderClass(pass, oddHi, POOR_HI);
    while ((lo | hi) !== 0) {
      let square: number;
      if (lo !== 0) {
        const bit = lo & -lo;
        lo ^= bit;
        square = 31 - Math.clz32(bit);
      } else {
        const bit = hi & -hi;
        hi ^= bit;
        square = 63 - Math.clz32(bit);
      }
      if (!hasNeighbour(oHi, oLo, square)) continue;
      flip(pHi, pLo, oHi, oLo, square);
      const fHi = flipped[0]!;
      const fLo = flipped[1]!;
      if ((fHi | fLo) === 0) continue;
      const cPHi = oHi ^ fHi;
      const cPLo = oLo ^ fLo;
      const cOHi = pHi | fHi | BIT_HI[square]!;
      const cOLo = pLo | fLo | BIT_LO[square]!;
      const score =
        empties === 5
          ? 0 - enter4(cPHi, cPLo, cOHi, cOLo, 0 - beta, 0 - alpha)
          : 0 - shallow(cPHi, cPLo, cOHi, cOLo, 0 - beta, 0 - alpha, empties - 1, false);
      if (score > best) {
        if (score >= beta) return score;
        best = score;
        if (score > alpha) alpha = score;
      }
    }
  }
  if (best === -INF) {
    if (passed) return finalScore(pHi, pLo, oHi, oLo);
    return 0 - shallow(oHi, oLo, pHi, pLo, 0 - beta, 0 - alpha, empties, true);
  }
  return best;
}

function child(pHi: number, pLo: number, oHi: number, oLo: number, alpha: number, beta: number, empties: number, ply: number): number {
  if (empties > SHALLOW) return deep(pHi, pLo, oHi, oLo, alpha, beta, empties, ply);
  if (empties > 4) return shallow(pHi, pLo, oHi, oLo, alpha, beta, empties, false);
  if (empties === 4) return enter4(pHi, pLo, oHi, oLo, alpha, beta);
  return fewEmpties(pHi, pLo, oHi, oLo, alpha, beta);
}

/** Three empties or fewer (only ever at the root): gather them and solve. */
function fewEmpties(pHi: number, pLo: number, oHi: number, oLo: number, alpha: number, beta: number): number {
  const squares: number[] = [];
  for (let square = 0; square < 64; square++) if (((pHi | oHi) & BIT_HI[square]!) === 0 && ((pLo | oLo) & BIT_LO[square]!) === 0) squares.push(square);
  const [x1 = 0, x2 = 0, x3 = 0] = squares;
  if (squares.length === 3) return solve3(pHi, pLo, oHi, oLo, alpha, beta, x1, x2, x3, false);
  if (squares.length === 2) return solve2(pHi, pLo, oHi, oLo, alpha, beta, x1, x2, false);
  if (squares.length === 1) return solve1(pHi, pLo, oHi, oLo, alpha, x1);
  return finalScore(pHi, pLo, oHi, oLo);
}

/** Discs of `d` that no move can flip because they are a corner or an edge square beside one. */
function cornerStable(dHi: number, dLo: number): number {
  const lo = (((dLo & 1) << 1) | ((dLo & 0x80) >>> 1) | ((dLo & 0x81) << 8) | 0x81) & dLo;
  const hi = (((dHi & 0x01000000) << 1) | ((dHi & 0x80000000) >>> 1) | ((dHi & 0x81000000) >>> 8) | 0x81000000) & dHi;
  return popcount(lo) + popcount(hi);
}

/** Empty squares next to a disc of `d`: where the other side may one day move. */
function frontier(dHi: number, dLo: number, eHi: number, eLo: number): number {
  const hLo = dLo | ((dLo << 1) & 0xfefefefe) | ((dLo >>> 1) & 0x7f7f7f7f);
  const hHi = dHi | ((dHi << 1) & 0xfefefefe) | ((dHi >>> 1) & 0x7f7f7f7f);
  const nLo = hLo | (hLo << 8) | (hLo >>> 8) | (hHi << 24);
  const nHi = hHi | (hHi << 8) | (hLo >>> 24) | (hHi >>> 8);
  return popcount(nLo & eLo) + popcount(nHi & eHi);
}

/**
 * Builds the move list of `ply` with each move's flips and sort key, the table's move first.
 * From ETC_MIN_EMPTIES up, a child already in the table with a bound that refutes this node
 * cuts it at once: the list is abandoned, -1 returned and the score left in `etcScore`.
 */
function listMoves(pHi: number, pLo: number, oHi: number, oLo: number, mHi: number, mLo: number, ply: number, tableMove: number, empties: number, beta: number): number {
  const base = ply * MOVES_PER_PLY;
  const oddHi = oddQuadrants(~(pHi | oHi));
  const oddLo = oddQuadrants(~(pLo | oLo));
  let n = 0;
  while ((mHi | mLo) !== 0) {
    let square: number;
    if (mLo !== 0) {
      const bit = mLo & -mLo;
      mLo ^= bit;
      square = 31 - Math.clz32(bit);
    } else {
      const bit = mHi & -mHi;
      mHi ^= bit;
      square = 63 - Math.clz32(bit);
    }
    flip(pHi, pLo, oHi, oLo, square);
    const fHi = flipped[0]!;
    const fLo = flipped[1]!;
    const i = base + n++;
    listSquare[i] = square;
    listFlipHi[i] = fHi;
    listFlipLo[i] = fLo;
    if (square === tableMove) {
      listKey[i] = KEY_TABLE_MOVE;
      continue;
    }
    const cPHi = oHi ^ fHi;
    const cPLo = oLo ^ fLo;
    const cOHi = pHi | fHi | BIT_HI[square]!;
    const cOLo = pLo | fLo | BIT_LO[square]!;
    // The root's list (beta INF) cannot be cut, and is made for the WebAssembly solver too, with no table here.
    if (empties >= ETC_MIN_EMPTIES && beta < INF) {
      const e = tableIndex(cPHi, cPLo, cOHi, cOLo);
      if (inTable(e, cPHi, cPLo, cOHi, cOLo) && 0 - table[e + UPPER]! >= beta) {
        etcScore = 0 - table[e + UPPER]!;
        return -1;
      }
    }
    moves(cPHi, cPLo, cOHi, cOLo, mobility);
    const replies = popcount(mobility[0]!) + popcount(mobility[1]!) + popcount(mobility[0]! & CORNERS_HI) + popcount(mobility[1]! & CORNERS_LO);
    let key =
      cornerStable(cOHi, cOLo) * KEY_CORNER_STABLE -
      replies * KEY_REPLY -
      frontier(cOHi, cOLo, ~(cPHi | cOHi), ~(cPLo | cOLo)) * KEY_FRONTIER +
      ((oddLo & BIT_LO[square]!) | (oddHi & BIT_HI[square]!) ? KEY_PARITY : 0);
    if (empties >= OWN_MOBILITY_MIN_EMPTIES) {
      moves(cOHi, cOLo, cPHi, cPLo, mobility);
      key += (popcount(mobility[0]!) + popcount(mobility[1]!)) * KEY_OWN_MOVE;
    }
    listKey[i] = key;
  }
  return n;
}

/** Moves the best-keyed move left in the list to position `i` and returns where it now is. */
function pickNext(base: number, i: number, n: number): number {
  let best = base + i;
  for (let j = best + 1; j < base + n; j++) if (listKey[j]! > listKey[best]!) best = j;
  const at = base + i;
  if (best !== at) {
    const square = listSquare[best]!;
    const fHi = listFlipHi[best]!;
    const fLo = listFlipLo[best]!;
    const key = listKey[best]!;
    listSquare[best] = listSquare[at]!;
    listFlipHi[best] = listFlipHi[at]!;
    listFlipLo[best] = listFlipLo[at]!;
    listKey[best] = listKey[at]!;
    listSquare[at] = square;
    listFlipHi[at] = fHi;
    listFlipLo[at] = fLo;
    listKey[at] = key;
  }
  return at;
}

function deep(pHi: number, pLo: number, oHi: number, oLo: number, alpha: number, beta: number, empties: number, ply: number): number {
  if ((++nodes & CHECK_EVERY) === 0 && performance.now() > deadline) stopped = true;
  if (stopped) return 0;
  moves(pHi, pLo, oHi, oLo, mobility);
  const mHi = mobility[0]!;
  const mLo = mobility[1]!;
  if ((mHi | mLo) === 0) {
    moves(oHi, oLo, pHi, pLo, mobility);
    if ((mobility[0]! | mobility[1]!) === 0) return finalScore(pHi, pLo, oHi, oLo);
    return 0 - deep(oHi, oLo, pHi, pLo, 0 - beta, 0 - alpha, empties, ply + 1);
  }
  if (alpha >= STABILITY_THRESHOLD[empties]!) {
    const bound = 64 - 2 * stableCount(oHi, oLo, pHi, pLo);
    if (bound <= alpha) return bound;
  }

  const entry = tableIndex(pHi, pLo, oHi, oLo);
  let tableMove = -1;
  if (inTable(entry, pHi, pLo, oHi, oLo)) {
    const lower = table[entry + LOWER]!;
    const upper = table[entry + UPPER]!;
    if (lower >= beta) return lower;
    if (upper <= alpha || lower === upper) return upper;
    if (lower > alpha) alpha = lower;
    if (upper < beta) beta = upper;
    tableMove = table[entry + MOVE]!;
  }

  const alphaSearched = alpha;
  const n = listMoves(pHi, pLo, oHi, oLo, mHi, mLo, ply, tableMove, empties, beta);
  if (n < 0) return etcScore;
  const base = ply * MOVES_PER_PLY;
  let best = -INF;
  let bestMove = -1;
  for (let i = 0; i < n; i++) {
    const at = pickNext(base, i, n);
    const square = listSquare[at]!;
    const fHi = listFlipHi[at]!;
    const fLo = listFlipLo[at]!;
    const cPHi = oHi ^ fHi;
    const cPLo = oLo ^ fLo;
    const cOHi = pHi | fHi | BIT_HI[square]!;
    const cOLo = pLo | fLo | BIT_LO[square]!;
    let score: number;
    if (i === 0) {
      score = 0 - child(cPHi, cPLo, cOHi, cOLo, 0 - beta, 0 - alpha, empties - 1, ply + 1);
    } else {
      score = 0 - child(cPHi, cPLo, cOHi, cOLo, -1 - alpha, 0 - alpha, empties - 1, ply + 1);
      if (score > alpha && score < beta) score = 0 - child(cPHi, cPLo, cOHi, cOLo, 0 - beta, 0 - alpha, empties - 1, ply + 1);
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
  if (inTable(entry, pHi, pLo, oHi, oLo)) {
    lower = table[entry + LOWER]!;
    upper = table[entry + UPPER]!;
  }
  if (best >= beta) lower = best > lower ? best : lower;
  else if (best <= alphaSearched) upper = best < upper ? best : upper;
  else lower = upper = best;
  table[entry] = pHi;
  table[entry + 1] = pLo;
  table[entry + 2] = oHi;
  table[entry + 3] = oLo;
  table[entry + LOWER] = lower;
  table[entry + UPPER] = upper;
  table[entry + MOVE] = bestMove;
  table[entry + GENERATION] = generation;
  return best;
}

/**
 * A plain alpha-beta on the midgame evaluation, to order the root's moves: proving every other
 * root move worse is most of a solve, and it is cheapest when the best move comes first. Inside
 * the tree fastest-first orders better (measured).
 */
function probe(pHi: number, pLo: number, oHi: number, oLo: number, depth: number, alpha: number, beta: number): number {
  if (depth === 0) return evaluate(pHi, pLo, oHi, oLo);
  moves(pHi, pLo, oHi, oLo, probeMoves);
  let mHi = probeMoves[0]!;
  let mLo = probeMoves[1]!;
  if ((mHi | mLo) === 0) {
    moves(oHi, oLo, pHi, pLo, probeMoves);
    if ((probeMoves[0]! | probeMoves[1]!) === 0) return finalScore(pHi, pLo, oHi, oLo) * PROBE_DISC;
    return 0 - probe(oHi, oLo, pHi, pLo, depth, 0 - beta, 0 - alpha);
  }
  let best = -PROBE_INF;
  while ((mHi | mLo) !== 0) {
    let square: number;
    if (mLo !== 0) {
      const bit = mLo & -mLo;
      mLo ^= bit;
      square = 31 - Math.clz32(bit);
    } else {
      const bit = mHi & -mHi;
      mHi ^= bit;
      square = 63 - Math.clz32(bit);
    }
    flip(pHi, pLo, oHi, oLo, square);
    const fHi = flipped[0]!;
    const fLo = flipped[1]!;
    const score = 0 - probe(oHi ^ fHi, oLo ^ fLo, pHi | fHi | BIT_HI[square]!, pLo | fLo | BIT_LO[square]!, depth - 1, 0 - beta, 0 - alpha);
    if (score > best) {
      best = score;
      if (score > alpha) {
        alpha = score;
        if (alpha >= beta) break;
      }
    }
  }
  return best;
}

const typescriptChildSolver: ChildSolver = {
  begin(giveUpAt) {
    if (table.length === 0) table = new Int32Array((1 << TABLE_BITS) * ENTRY);
    generation++; // entries written before read as misses from now on
    nodes = 1;
    stopped = false;
    deadline = giveUpAt;
  },
  child,
  stopped: () => stopped,
  nodes: () => nodes,
};

/**
 * Solves `board` for the side to move. Undefined when the deadline came first or the game is
 * over. Each solve starts from an empty table (a new generation), so a result never depends on
 * earlier solves.
 */
export function solve(board: OthelloBoard, options: SolveOptions = {}): SolveResult | undefined {
  const started = performance.now();
  const giveUpAt = options.deadline ?? Infinity;
  if (started > giveUpAt) return undefined;
  const solver = options.engine === 'ts' ? typescriptChildSolver : wasmChildSolver();
  solver.begin(giveUpAt);
  const result = solveRoot(solver, board.pHi, board.pLo, board.oHi, board.oLo, options.alpha ?? -64, options.beta ?? 64);
  if (result === undefined || solver.stopped()) return undefined;
  return { move: result.move, score: result.score || 0, nodes: solver.nodes(), ms: performance.now() - started };
}

type RootResult = { move: number; score: number } | undefined;

function solveRoot(solver: ChildSolver, pHi: number, pLo: number, oHi: number, oLo: number, alpha: number, beta: number): RootResult {
  const empties = 64 - popcount(pHi | oHi) - popcount(pLo | oLo);
  moves(pHi, pLo, oHi, oLo, mobility);
  const mHi = mobility[0]!;
  const mLo = mobility[1]!;
  if ((mHi | mLo) === 0) {
    moves(oHi, oLo, pHi, pLo, mobility);
    if ((mobility[0]! | mobility[1]!) === 0) return undefined;
    return { move: PASS, score: 0 - solver.child(oHi, oLo, pHi, pLo, 0 - beta, 0 - alpha, empties, 1) };
  }
  const n = listMoves(pHi, pLo, oHi, oLo, mHi, mLo, 0, -1, empties, INF);
  if (empties >= ROOT_PROBE_MIN_EMPTIES) {
    for (let i = 0; i < n; i++) {
      const square = listSquare[i]!;
      const fHi = listFlipHi[i]!;
      const fLo = listFlipLo[i]!;
      listKey[i] = 0 - probe(oHi ^ fHi, oLo ^ fLo, pHi | fHi | BIT_HI[square]!, pLo | fLo | BIT_LO[square]!, ROOT_PROBE_DEPTH, -PROBE_INF, PROBE_INF);
    }
  }
  let best = -INF;
  let bestMove = listSquare[0]!;
  for (let i = 0; i < n; i++) {
    const at = pickNext(0, i, n);
    const square = listSquare[at]!;
    const fHi = listFlipHi[at]!;
    const fLo = listFlipLo[at]!;
    const cPHi = oHi ^ fHi;
    const cPLo = oLo ^ fLo;
    const cOHi = pHi | fHi | BIT_HI[square]!;
    const cOLo = pLo | fLo | BIT_LO[square]!;
    let score: number;
    if (i === 0) {
      score = 0 - solver.child(cPHi, cPLo, cOHi, cOLo, 0 - beta, 0 - alpha, empties - 1, 1);
    } else {
      score = 0 - solver.child(cPHi, cPLo, cOHi, cOLo, -1 - alpha, 0 - alpha, empties - 1, 1);
      if (score > alpha && score < beta) score = 0 - solver.child(cPHi, cPLo, cOHi, cOLo, 0 - beta, 0 - alpha, empties - 1, 1);
    }
    if (solver.stopped()) return undefined;
    if (score > best) {
      best = score;
      bestMove = square;
      if (score > alpha) {
        alpha = score;
        if (score >= beta) break;
      }
    }
  }
  return { move: bestMove, score: best };
}
