import { moves, popcount, writeSquares } from '../../shared/othello/bitboard.js';
import { OthelloBoard, PASS } from '../../shared/othello/board.js';
import { WIN_THRESHOLD, type SearchGame } from '../engine/game.js';
import { solve } from './endgame.js';
import { evaluateWithMobility } from './evaluate.js';
import { evaluateFromBlackIndices, evaluateLearned } from './learned-eval.js';
import { changeSquare, INSTANCE_COUNT, patternIndices } from './patterns.js';
import { flip, flipped } from '../../shared/othello/flip.js';
import { mulberry32 } from '../../shared/random.js';

/**
 * Zobrist keys by byte tabulation: one random 64-bit value (two halves) per byte value per byte
 * position, for the side to move's discs and for the other side's, XORed together, plus one for
 * black to move. Sixteen lookups per half, no incremental update to get wrong, and the same key
 * for the same position however it was reached.
 */
export const KEY_HI = new Int32Array(2 * 8 * 256);
export const KEY_LO = new Int32Array(2 * 8 * 256);
export const BLACK_TO_MOVE_HI = 0x5a17c3e9 | 0;
export const BLACK_TO_MOVE_LO = 0x1f83d9ab | 0;
{
  // A fixed seed: the same keys in every process, so results are repeatable.
  const next = mulberry32(0x2545f491);
  for (let i = 0; i < KEY_HI.length; i++) {
    KEY_HI[i] = next();
    KEY_LO[i] = next();
  }
}

/**
 * One half of the key: entry `256 * k + byte` for byte `k` of the side to move's discs (bytes
 * 0–3 from `lo`, 4–7 from `hi`), and from 2048 on the same for the other side's.
 */
function keyHalf(keys: Int32Array, pHi: number, pLo: number, oHi: number, oLo: number): number {
  return wordKey(keys, 0, pLo) ^ wordKey(keys, 1024, pHi) ^ wordKey(keys, 2048, oLo) ^ wordKey(keys, 3072, oHi);
}

/** The keys of a 32-bit word's four bytes, from entry `base` on. */
function wordKey(keys: Int32Array, base: number, word: number): number {
  return keys[base | (word & 255)]! ^ keys[(base + 256) | ((word >>> 8) & 255)]! ^ keys[(base + 512) | ((word >>> 16) & 255)]! ^ keys[(base + 768) | (word >>> 24)]!;
}

/**
 * The engine's score for an exact endgame margin: a win ranks above every evaluation, and a
 * bigger margin above a smaller one.
 */
export function exactScore(margin: number): number {
  if (margin > 0) return WIN_THRESHOLD + 100 + margin;
  if (margin < 0) return -(WIN_THRESHOLD + 100) + margin;
  return 0;
}

/** The disc margin an `exactScore` stands for; undefined for a plain evaluation. */
export function marginOf(score: number): number | undefined {
  if (score === 0) return undefined;
  if (score > WIN_THRESHOLD + 100 && score <= WIN_THRESHOLD + 164) return score - WIN_THRESHOLD - 100;
  if (score < -(WIN_THRESHOLD + 100) && score >= -(WIN_THRESHOLD + 164)) return score + WIN_THRESHOLD + 100;
  return undefined;
}

/**
 * How many empties the solver takes on with this much time: each extra empty costs it about
 * two and a half times as long (FFO #40–#44 on this project's 2-core machine, busy with other
 * work: 3–6 s at 20 empties, 11–25 s at 22–23).
 */
export function solvableEmpties(ms: number): number {
  if (ms >= 40_000) return 22;
  if (ms >= 15_000) return 21;
  if (ms >= 5_000) return 20;
  if (ms >= 2_000) return 19;
  if (ms >= 800) return 18;
  if (ms >= 300) return 17;
  if (ms >= 100) return 16;
  if (ms >= 40) return 15;
  return 14;
}

/** For move ordering only: corners first, then edges and the centre, X-squares last. */
export const ORDER_WEIGHTS = Int32Array.from([
  200, -20, 20, 10, 10, 20, -20, 200,
  -20, -80, -5, -5, -5, -5, -80, -20,
  20, -5, 5, 2, 2, 5, -5, 20,
  10, -5, 2, 0, 0, 2, -5, 10,
  10, -5, 2, 0, 0, 2, -5, 10,
  20, -5, 5, 2, 2, 5, -5, 20,
  -20, -80, -5, -5, -5, -5, -80, -20,
  200, -20, 20, 10, 10, 20, -20, 200,
]);

/** Without a deadline the solver still takes the small endgames, which are quick. */
const EMPTIES_WITHOUT_DEADLINE = 14;

const MAX_PLIES = 128; // 60 placements and the passes between them
const mobility = new Int32Array(2);

/**
 * An Othello board for the generic search: Zobrist keys, the evaluation, and the exact solver.
 * It plays moves with the line flips of `flip.ts` on its own undo stack, and remembers the
 * mobility it found for the side to move, which the evaluation of the same position reuses. It
 * keeps the learned evaluation's pattern indices from black's side and changes only those of the
 * squares a move places and flips: reading all 46 from the board at each leaf was half the
 * midgame search's time.
 */
export class OthelloSearchBoard extends OthelloBoard implements SearchGame {
  private readonly history = new Int32Array(MAX_PLIES * 3);
  private ply = 0;
  /** The midgame evaluation: the hand-made one, or the learned one (`learned-eval.ts`). */
  evaluation: (pHi: number, pLo: number, oHi: number, oLo: number, mobilityP: number) => number = evaluateLearned;
  /** Legal placements of the side to move, valid while `mobilityStamp` equals `stamp`. */
  private mobilityHi = 0;
  private mobilityLo = 0;
  private mobilityStamp = -1;
  private stamp = 0;
  private readonly blackIndices = new Int32Array(INSTANCE_COUNT);

  static from(board: OthelloBoard): OthelloSearchBoard {
    return new OthelloSearchBoard().copyOf(board);
  }

  protected override copyOf(other: OthelloBoard): this {
    super.copyOf(other);
    if (this.blackToMove) patternIndices(this.pHi, this.pLo, this.oHi, this.oLo, this.blackIndices);
    else patternIndices(this.oHi, this.oLo, this.pHi, this.pLo, this.blackIndices);
    this.stamp++;
    return this;
  }

  /** The pattern indices after the side to move placed `move` and flipped `fHi:fLo` (`sign` 1), or back before it (`sign` −1, the mover to move again). */
  private changeIndices(move: number, fHi: number, fLo: number, sign: number): void {
    const mover = this.blackToMove ? 1 : 2;
    const indices = this.blackIndices;
    changeSquare(indices, move, sign * mover);
    const flipDelta = sign * (2 * mover - 3);
    for (let x = fLo; x !== 0; x &= x - 1) changeSquare(indices, 31 - Math.clz32(x & -x), flipDelta);
    for (let x = fHi; x !== 0; x &= x - 1) changeSquare(indices, 63 - Math.clz32(x & -x), flipDelta);
  }

  override generateMoves(out: Int32Array, offset: number): number {
    const count = this.placementCount();
    if (count === 0) {
      moves(this.oHi, this.oLo, this.pHi, this.pLo, mobility);
      if ((mobility[0]! | mobility[1]!) === 0) return 0;
      out[offset] = PASS;
      return 1;
    }
    return writeSquares(this.mobilityHi, this.mobilityLo, out, offset);
  }

  override countMoves(): number {
    const count = this.placementCount();
    if (count !== 0) return count;
    moves(this.oHi, this.oLo, this.pHi, this.pLo, mobility);
    return (mobility[0]! | mobility[1]!) === 0 ? 0 : 1;
  }

  override make(move: number): void {
    const u = this.ply++ * 3;
    this.history[u] = move;
    if (move !== PASS) {
      flip(this.pHi, this.pLo, this.oHi, this.oLo, move);
      const fHi = flipped[0]!;
      const fLo = flipped[1]!;
      this.history[u + 1] = fHi;
      this.history[u + 2] = fLo;
      this.changeIndices(move, fHi, fLo, 1);
      const pHi = this.pHi | fHi | (move >= 32 ? 1 << (move - 32) : 0);
      const pLo = this.pLo | fLo | (move < 32 ? 1 << move : 0);
      this.pHi = this.oHi ^ fHi;
      this.pLo = this.oLo ^ fLo;
      this.oHi = pHi;
      this.oLo = pLo;
      this.blackToMove = !this.blackToMove;
    } else this.swapSides();
    this.stamp++;
  }

  override unmake(): void {
    const u = --this.ply * 3;
    const move = this.history[u]!;
    this.swapSides();
    if (move !== PASS) {
      const fHi = this.history[u + 1]!;
      const fLo = this.history[u + 2]!;
      this.pHi ^= fHi | (move >= 32 ? 1 << (move - 32) : 0);
      this.pLo ^= fLo | (move < 32 ? 1 << move : 0);
      this.oHi |= fHi;
      this.oLo |= fLo;
      this.changeIndices(move, fHi, fLo, -1);
    }
    this.stamp++;
  }

  hashHi(): number {
    return keyHalf(KEY_HI, this.pHi, this.pLo, this.oHi, this.oLo) ^ (this.blackToMove ? BLACK_TO_MOVE_HI : 0);
  }

  hashLo(): number {
    return keyHalf(KEY_LO, this.pHi, this.pLo, this.oHi, this.oLo) ^ (this.blackToMove ? BLACK_TO_MOVE_LO : 0);
  }

  evaluate(): number {
    if (this.evaluation === evaluateLearned) return evaluateFromBlackIndices(this.blackIndices, this.blackToMove, this.pHi, this.pLo, this.oHi, this.oLo, this.placementCount());
    return this.evaluation(this.pHi, this.pLo, this.oHi, this.oLo, this.placementCount());
  }

  /** More discs wins (docs/rules.md §Othello); called only when neither side can move. */
  result(): number {
    const diff = popcount(this.pHi) + popcount(this.pLo) - popcount(this.oHi) - popcount(this.oLo);
    return diff > 0 ? 1 : diff < 0 ? -1 : 0;
  }

  empties(): number {
    return 64 - popcount(this.pHi | this.oHi) - popcount(this.pLo | this.oLo);
  }

  /**
   * Square weights, corners first and X-squares last. Counting the opponent's replies to each
   * move ordered a little better but cost more than it saved, with the table, killers and
   * history on top.
   */
  orderScore(move: number): number {
    return move === PASS ? 0 : ORDER_WEIGHTS[move]!;
  }

  /**
   * The exact solver, when the empties are few enough for the time left: it gets half of that
   * time, and when it runs out the search still has the other half.
   */
  solveExactly(_alpha: number, _beta: number, deadline: number): { score: number; move: number; nodes: number } | undefined {
    const now = performance.now();
    const left = deadline - now;
    const limit = Number.isFinite(left) ? solvableEmpties(left / 3) : EMPTIES_WITHOUT_DEADLINE;
    if (this.empties() > limit) return undefined;
    const result = solve(this, { deadline: now + left / 2 });
    if (!result || result.move === PASS) return undefined;
    return { score: exactScore(result.score), move: result.move, nodes: result.nodes };
  }

  /** How many placements the side to move has, computed once per position. */
  private placementCount(): number {
    if (this.mobilityStamp !== this.stamp) {
      moves(this.pHi, this.pLo, this.oHi, this.oLo, mobility);
      this.mobilityHi = mobility[0]!;
      this.mobilityLo = mobility[1]!;
      this.mobilityStamp = this.stamp;
    }
    return popcount(this.mobilityHi) + popcount(this.mobilityLo);
  }
}
