import { flips } from './flips';
import { placements } from './moves';

/**
 * The midgame search below the iterative deepening: `negamax` of `bots/engine/search.ts` as the
 * Othello engine runs it (PVS, transposition table, TT-move / killer / history ordering, ProbCut,
 * no reductions, no quiescence) on u64 boards with the learned evaluation, its pattern indices
 * kept move by move. It searches the same tree in the same order as the TypeScript search on
 * `OthelloSearchBoard`, so it visits the same nodes (the tests compare the counts). The
 * TypeScript side (`bots/othello/wasm-search.ts`) writes the tables this file reads (hash keys,
 * weights, pattern squares, ProbCut's depths and margins) and drives one depth at a time.
 */

// @ts-ignore: decorator
@external('env', 'outOfBudget')
declare function outOfBudget(nodes: f64): bool;

const WIN: i32 = 1_000_000;
const WIN_THRESHOLD: i32 = WIN - 10_000;
const NO_MOVE: i32 = -1;
const PASS: i32 = 64;
const MAX_PLY: i32 = 128;
const STRIDE: i32 = 33; // no Othello position has more than 33 legal moves
const CHECK_EVERY: u64 = 255;
const TT_MOVE_SCORE: i32 = 1 << 30;
const KILLER_SCORE_0: i32 = 1 << 29;
const KILLER_SCORE_1: i32 = (1 << 29) - 1;
const HISTORY_SIZE: i32 = 4096;
const HISTORY_CAP: i32 = 1 << 20;
const NO_CUT: i32 = i32.MIN_VALUE;

const BOUND_EXACT: i32 = 1;
const BOUND_LOWER: i32 = 2;
const BOUND_UPPER: i32 = 3;

/** Evaluation terms: the weights' layout (`bots/othello/learned-eval.ts`). */
const INSTANCES: i32 = 46;
const LINEAR_TERMS: i32 = 6;
const STAGES: i32 = 15;

// Tables the TypeScript side fills once (`midTablePointers`).
/** Zobrist keys, high half and low half in one u64: byte k of the side to move's discs at 256k + byte, the other side's from 2048, black to move at 4096. */
const KEYS = new StaticArray<u64>(4097);
/** For each square, its pattern instances and their powers of 3 (`SQUARE_START`, `SQUARE_INSTANCE`, `SQUARE_POWER` of patterns.ts). */
const SQUARE_START = new StaticArray<i32>(65);
const SQUARE_INSTANCE = new StaticArray<i32>(512);
const SQUARE_POWER = new StaticArray<i32>(512);
/** Each square's weight for move ordering (`ORDER_WEIGHTS` of search-board.ts). */
const ORDER_WEIGHTS = new StaticArray<i32>(64);
/** ProbCut by depth: the shallow search's depth (≥ depth: no probe) and the margin. */
const PROBCUT_SHALLOW = new StaticArray<i32>(MAX_PLY);
const PROBCUT_MARGIN = new StaticArray<i32>(MAX_PLY);
let probCutMinDepth: i32 = i32.MAX_VALUE;
/** Every stage's weights. */
let weights = new StaticArray<i16>(0);
let stageWeights: i32 = 0;

// The search's state, reset by `midBegin`.
const moveList = new StaticArray<i32>(STRIDE * (MAX_PLY + 1));
const scoreList = new StaticArray<i32>(STRIDE * (MAX_PLY + 1));
const killers = new StaticArray<i32>(MAX_PLY * 2);
const history = new StaticArray<i32>(HISTORY_SIZE * 2);
const pv = new StaticArray<i32>(MAX_PLY * MAX_PLY);
const pvLength = new StaticArray<i32>(MAX_PLY);
/**
 * The pattern indices at each ply, with their family's offset: from black's side (black's discs
 * the digit 1), then from white's, so that the side to move's are at hand without exchanging the
 * weights. The root's are written by TypeScript.
 */
const PLY_INDICES: i32 = 2 * INSTANCES;
const indices = new StaticArray<i32>(PLY_INDICES * (MAX_PLY + 1));
let nodes: u64 = 0;
let stopped = false;
let rootPlayer: u64 = 0;
let rootOpponent: u64 = 0;
let rootBlack = true;

/**
 * The transposition table: 16-byte entries (check i32, score i32, move + 1 i32, depth i8, bound
 * i8, age u8; all zero is empty), the same index (`hashLo & mask`) and replacement as
 * `bots/engine/table.ts`.
 */
let table: usize = 0;
let tableMask: u32 = 0;
let age: i32 = 0;
let probedScore: i32 = 0;
let probedMove: i32 = NO_MOVE;
let probedDepth: i32 = 0;
let probedBound: i32 = 0;

/**
 * Where the TypeScript side writes the tables: the keys, the squares' instances and powers,
 * ProbCut's depths and margins, the root's indices; where it reads the PV; the ordering weights.
 */
export function midTablePointers(): usize {
  const out = new StaticArray<u32>(9);
  out[0] = <u32>changetype<usize>(KEYS);
  out[1] = <u32>changetype<usize>(SQUARE_START);
  out[2] = <u32>changetype<usize>(SQUARE_INSTANCE);
  out[3] = <u32>changetype<usize>(SQUARE_POWER);
  out[4] = <u32>changetype<usize>(PROBCUT_SHALLOW);
  out[5] = <u32>changetype<usize>(PROBCUT_MARGIN);
  out[6] = <u32>changetype<usize>(indices);
  out[7] = <u32>changetype<usize>(pv);
  out[8] = <u32>changetype<usize>(ORDER_WEIGHTS);
  return changetype<usize>(out);
}

/** Room for the weights, `perStage` a stage; where to write them. */
export function midWeights(perStage: i32): usize {
  if (perStage != stageWeights) {
    weights = new StaticArray<i16>(STAGES * perStage);
    stageWeights = perStage;
  }
  return changetype<usize>(weights);
}

export function midProbCut(minDepth: i32): void {
  probCutMinDepth = minDepth;
}

/**
 * A new empty table of 2^bits entries, never freed: the TypeScript side reuses them. Memory the
 * module has just grown by is zero, so the pages are first touched by the search, not here.
 */
export function midNewTable(bits: i32): usize {
  return heap.alloc(<usize>16 << bits);
}

export function midClearTable(base: usize, bits: i32): void {
  memory.fill(base, 0, <usize>16 << bits);
}

/** Starts a search of the root (the side to move's discs, the other's) with `tableBase`, at `searchAge`. */
export function midBegin(pHi: u32, pLo: u32, oHi: u32, oLo: u32, black: bool, tableBase: usize, bits: i32, searchAge: i32): void {
  rootPlayer = ((<u64>pHi) << 32) | <u64>pLo;
  rootOpponent = ((<u64>oHi) << 32) | <u64>oLo;
  rootBlack = black;
  table = tableBase;
  tableMask = (1 << bits) - 1;
  age = searchAge & 0xff;
  nodes = 0;
  stopped = false;
  for (let i = 0; i < MAX_PLY * 2; i++) unchecked((killers[i] = NO_MOVE));
  for (let i = 0; i < HISTORY_SIZE * 2; i++) unchecked((history[i] = 0));
}

/** One depth from the root: its score in (alpha, beta); the PV at `pv[0 .. midPvLength())`. */
export function midNegamax(depth: i32, alpha: i32, beta: i32): i32 {
  return negamax(depth, alpha, beta, 0, rootPlayer, rootOpponent, rootBlack);
}

export function midNodes(): f64 {
  return <f64>nodes;
}

export function midStopped(): bool {
  return stopped;
}

export function midPvLength(): i32 {
  return unchecked(pvLength[0]);
}

function negamax(depth: i32, alpha: i32, beta: i32, ply: i32, player: u64, opponent: u64, black: bool): i32 {
  unchecked((pvLength[ply] = 0));
  if ((++nodes & CHECK_EVERY) == 0 && outOfBudget(<f64>nodes)) stopped = true;
  if (stopped) return 0;

  const offset = ply * STRIDE;
  const mobility = placements(player, opponent);
  let count: i32;
  if (mobility != 0) {
    count = 0;
    for (let m = mobility; m != 0; m &= m - 1) unchecked((moveList[offset + count++] = <i32>ctz(m)));
  } else {
    if (placements(opponent, player) == 0) return result(player, opponent) * (WIN - ply);
    unchecked((moveList[offset] = PASS));
    count = 1;
  }
  if (depth <= 0 || ply >= MAX_PLY - 1) return evaluate(player, opponent, black, ply, <i32>popcnt(mobility));

  const hash = hashOf(player, opponent, black);
  const hashHi = <i32>(hash >> 32);
  const hashLo = <i32>hash;
  let ttMove = NO_MOVE;
  if (probe(hashHi, hashLo, ply)) {
    ttMove = probedMove;
    if (ply > 0 && probedDepth >= depth) {
      const s = probedScore;
      const bound = probedBound;
      if (bound == BOUND_EXACT || (bound == BOUND_LOWER && s >= beta) || (bound == BOUND_UPPER && s <= alpha)) return s;
    }
  }

  if (ply > 0 && beta - alpha == 1 && depth >= probCutMinDepth && abs(beta) < WIN_THRESHOLD) {
    const cut = probCut(depth, alpha, ply, player, opponent, black);
    if (stopped) return 0;
    if (cut != NO_CUT) return cut;
    // No cut: the shallow searches left this node's moves in place, only reordered.
  }

  orderMoves(offset, count, ttMove, ply);
  const alphaAtStart = alpha;
  let bestScore = -WIN - 1;
  let bestMove = NO_MOVE;
  const here = ply * PLY_INDICES;
  const next = here + PLY_INDICES;
  for (let i = 0; i < count; i++) {
    const move = pickNext(offset, i, count);
    let childPlayer = opponent;
    let childOpponent = player;
    memory.copy(changetype<usize>(indices) + (<usize>next << 2), changetype<usize>(indices) + (<usize>here << 2), PLY_INDICES << 2);
    if (move != PASS) {
      const flipped = flips(player, opponent, move);
      childPlayer = opponent ^ flipped;
      childOpponent = player | flipped | ((<u64>1) << <u64>move);
      changeIndices(next, move, flipped, black);
    }
    let score: i32;
    if (i == 0) {
      score = -negamax(depth - 1, -beta, -alpha, ply + 1, childPlayer, childOpponent, !black);
    } else {
      score = -negamax(depth - 1, -alpha - 1, -alpha, ply + 1, childPlayer, childOpponent, !black);
      if (score > alpha && score < beta && !stopped) score = -negamax(depth - 1, -beta, -alpha, ply + 1, childPlayer, childOpponent, !black);
    }
    if (stopped) return 0;
    if (score > bestScore) {
      bestScore = score;
      bestMove = move;
      if (score > alpha) {
        alpha = score;
        updatePv(ply, move);
        if (alpha >= beta) {
          rememberCutoff(move, ply, depth);
          break;
        }
      }
    }
  }
  const bound = bestScore >= beta ? BOUND_LOWER : bestScore > alphaAtStart ? BOUND_EXACT : BOUND_UPPER;
  save(hashHi, hashLo, ply, depth, bound, bestScore, bestMove);
  return bestScore;
}

/** ProbCut's two shallow null-window searches around (alpha, alpha + 1): the bound one of them predicts, or NO_CUT. */
function probCut(depth: i32, alpha: i32, ply: i32, player: u64, opponent: u64, black: bool): i32 {
  const shallow = unchecked(PROBCUT_SHALLOW[depth]);
  if (shallow >= depth) return NO_CUT;
  const margin = unchecked(PROBCUT_MARGIN[depth]);
  const high = alpha + 1 + margin;
  if (high < WIN_THRESHOLD && negamax(shallow, high - 1, high, ply, player, opponent, black) >= high) return alpha + 1;
  if (stopped) return NO_CUT;
  const low = alpha - margin;
  if (low > -WIN_THRESHOLD && negamax(shallow, low, low + 1, ply, player, opponent, black) <= low) return alpha;
  return NO_CUT;
}

/** More discs wins: +1, 0 or -1 for the side to move. */
function result(player: u64, opponent: u64): i32 {
  const diff = <i32>popcnt(player) - <i32>popcnt(opponent);
  return diff > 0 ? 1 : diff < 0 ? -1 : 0;
}

function hashOf(player: u64, opponent: u64, black: bool): u64 {
  const keys = changetype<usize>(KEYS);
  let h: u64 = black ? unchecked(KEYS[4096]) : 0;
  for (let k = 0; k < 8; k++) {
    const shift = <u64>(k << 3);
    h ^= load<u64>(keys + ((<usize>((k << 8) | <i32>((player >> shift) & 255))) << 3));
    h ^= load<u64>(keys + ((<usize>(2048 | (k << 8) | <i32>((opponent >> shift) & 255))) << 3));
  }
  return h;
}

/**
 * The indices at `at` after the mover placed `move` and flipped `flipped`: its digit is 1 from
 * its own side and 2 from the other's, and a flipped disc goes from 2 to 1 on its side and from
 * 1 to 2 on the other.
 */
// @ts-ignore: decorator
@inline
function changeIndices(at: i32, move: i32, flipped: u64, black: bool): void {
  const own = black ? at : at + INSTANCES;
  const other = black ? at + INSTANCES : at;
  changeSquare(own, other, move, 1, 2);
  for (let f = flipped; f != 0; f &= f - 1) changeSquare(own, other, <i32>ctz(f), -1, 1);
}

// @ts-ignore: decorator
@inline
function changeSquare(own: i32, other: i32, square: i32, ownDelta: i32, otherDelta: i32): void {
  const end = unchecked(SQUARE_START[square + 1]);
  for (let j = unchecked(SQUARE_START[square]); j < end; j++) {
    const instance = unchecked(SQUARE_INSTANCE[j]);
    const power = unchecked(SQUARE_POWER[j]);
    unchecked((indices[own + instance] = indices[own + instance] + power * ownDelta));
    unchecked((indices[other + instance] = indices[other + instance] + power * otherDelta));
  }
}

/** Empty squares next to a disc of `discs`. */
// @ts-ignore: decorator
@inline
function frontier(discs: u64, empty: u64): i32 {
  const h = discs | ((discs << 1) & 0xfefefefefefefefe) | ((discs >> 1) & 0x7f7f7f7f7f7f7f7f);
  return <i32>popcnt((h | (h << 8) | (h >> 8)) & empty);
}

/** The learned evaluation (`weighed` in learned-eval.ts) for the side to move with `mobility` placements. */
function evaluate(player: u64, opponent: u64, black: bool, ply: i32, mobility: i32): i32 {
  const discs = <i32>popcnt(player | opponent);
  const stage = min(STAGES - 1, max(0, (discs - 4) >> 2));
  const w = changetype<usize>(weights) + (<usize>(stage * stageWeights) << 1);
  const at = changetype<usize>(indices) + (<usize>(ply * PLY_INDICES + (black ? 0 : INSTANCES)) << 2);
  let score: i32 = 0;
  for (let i = 0; i < INSTANCES; i++) score += <i32>load<i16>(w + (<usize>load<i32>(at + (<usize>i << 2)) << 1));
  const empty = ~(player | opponent);
  const linear = w + (<usize>(stageWeights - LINEAR_TERMS) << 1);
  score += <i32>load<i16>(linear) * mobility;
  score += <i32>load<i16>(linear, 2) * <i32>popcnt(placements(opponent, player));
  score += <i32>load<i16>(linear, 4) * frontier(opponent, empty);
  score += <i32>load<i16>(linear, 6) * frontier(player, empty);
  score += <i32>load<i16>(linear, 8) * ((popcnt(empty) & 1) != 0 ? 1 : -1);
  score += <i32>load<i16>(linear, 10);
  return score;
}

/** Scores the moves for ordering: TT move, killers, then the square's weight plus history. */
function orderMoves(offset: i32, count: i32, ttMove: i32, ply: i32): void {
  const side = (ply & 1) * HISTORY_SIZE;
  const k0 = unchecked(killers[ply * 2]);
  const k1 = unchecked(killers[ply * 2 + 1]);
  for (let i = offset; i < offset + count; i++) {
    const move = unchecked(moveList[i]);
    let s: i32;
    if (move == ttMove) s = TT_MOVE_SCORE;
    else if (move == k0) s = KILLER_SCORE_0;
    else if (move == k1) s = KILLER_SCORE_1;
    else s = (move == PASS ? 0 : unchecked(ORDER_WEIGHTS[move])) * 64 + unchecked(history[side + (move & (HISTORY_SIZE - 1))]);
    unchecked((scoreList[i] = s));
  }
}

/** Selection sort, one step at a time, swapping as the TypeScript search does. */
function pickNext(offset: i32, i: i32, count: i32): i32 {
  let best = offset + i;
  for (let j = best + 1; j < offset + count; j++) if (unchecked(scoreList[j]) > unchecked(scoreList[best])) best = j;
  const move = unchecked(moveList[best]);
  const s = unchecked(scoreList[best]);
  unchecked((moveList[best] = moveList[offset + i]));
  unchecked((scoreList[best] = scoreList[offset + i]));
  unchecked((moveList[offset + i] = move));
  unchecked((scoreList[offset + i] = s));
  return move;
}

function rememberCutoff(move: i32, ply: i32, depth: i32): void {
  if (unchecked(killers[ply * 2]) != move) {
    unchecked((killers[ply * 2 + 1] = killers[ply * 2]));
    unchecked((killers[ply * 2] = move));
  }
  const h = (ply & 1) * HISTORY_SIZE + (move & (HISTORY_SIZE - 1));
  unchecked((history[h] = min(history[h] + depth * depth, HISTORY_CAP)));
}

function updatePv(ply: i32, move: i32): void {
  const row = ply * MAX_PLY;
  const child = (ply + 1) * MAX_PLY;
  const childLength = ply + 1 < MAX_PLY ? unchecked(pvLength[ply + 1]) : 0;
  unchecked((pv[row] = move));
  for (let i = 0; i < childLength; i++) unchecked((pv[row + 1 + i] = pv[child + i]));
  unchecked((pvLength[ply] = childLength + 1));
}

function probe(hashHi: i32, hashLo: i32, ply: i32): bool {
  const entry = table + (<usize>(<u32>hashLo & tableMask) << 4);
  const bound = <i32>load<i8>(entry, 13);
  if (bound == 0 || load<i32>(entry) != hashHi) return false;
  let score = load<i32>(entry, 4);
  if (score >= WIN_THRESHOLD) score -= ply;
  else if (score <= -WIN_THRESHOLD) score += ply;
  probedScore = score;
  probedMove = load<i32>(entry, 8) - 1;
  probedDepth = <i32>load<i8>(entry, 12);
  probedBound = bound;
  return true;
}

function save(hashHi: i32, hashLo: i32, ply: i32, depth: i32, bound: i32, score: i32, move: i32): void {
  const entry = table + (<usize>(<u32>hashLo & tableMask) << 4);
  const sameKey = load<i32>(entry) == hashHi;
  if (load<i8>(entry, 13) != 0 && <i32>load<u8>(entry, 14) == age && depth < <i32>load<i8>(entry, 12) && !sameKey) return;
  if (score >= WIN_THRESHOLD) score += ply;
  else if (score <= -WIN_THRESHOLD) score -= ply;
  store<i32>(entry, hashHi);
  store<i32>(entry, score, 4);
  if (move != NO_MOVE || !sameKey) store<i32>(entry, move + 1, 8);
  store<i8>(entry, <i8>min(depth, 127), 12);
  store<i8>(entry, <i8>bound, 13);
  store<u8>(entry, <u8>age, 14);
}
