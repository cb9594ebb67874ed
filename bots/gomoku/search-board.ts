import { GomokuBoard, type GomokuPosition, POINTS, SIZE } from '../../shared/gomoku/board.js';
import type { GameOptions } from '../../shared/rules.js';
import type { SearchGame } from '../engine/game.js';
import {
  BLACK,
  BLOCK4,
  DOUBLE_FOUR,
  DOUBLE_THREE,
  EMPTY,
  FIVE,
  FLEX4,
  FOUR_THREE,
  FOUR_UNIT,
  LinePatterns,
  LINES,
  type Stone,
  THREE_MASK,
  WHITE,
} from './patterns.js';
import { insertBestFirst } from './best-first.js';

export const CENTER = 7 * SIZE + 7; // h8
const NEAR_RADIUS = 2;

/** Static scores for positions the evaluation can call won without searching (below the engine's WIN_THRESHOLD). */
export const FIVE_NEXT_SCORE = 60_000;
export const OPEN_FOUR_NEXT_SCORE = 50_000;
/** A four-three or double three against an opponent with no four to answer with: nearly always a win, not quite proven. */
export const FOUR_THREE_NEXT_SCORE = 30_000;
export const DOUBLE_THREE_NEXT_SCORE = 15_000;
/**
 * Fours tried per quiescence node, and how far from the loaded position quiescence still tries
 * them. Quiescence is most of the search's nodes: four fours a node and 40 plies cost 8 times the
 * nodes of two and 20 to the same depth, for the same moves and scores on our test positions.
 */
const QUIESCENCE_FOURS = 2;
const QUIESCENCE_PLIES = 20;

const DOUBLE_THREAT_ATTACK = 500;
const DOUBLE_THREAT_DEFEND = 300;

/** The points within NEAR_RADIUS (Chebyshev) of each point, itself excluded, as a flat list with starts. */
const NEAR_START = new Int32Array(POINTS + 1);
const NEAR_LIST: Int16Array = (() => {
  const list: number[] = [];
  for (let point = 0; point < POINTS; point++) {
    NEAR_START[point] = list.length;
    const file = point % SIZE;
    const rank = (point - file) / SIZE;
    for (let r = rank - NEAR_RADIUS; r <= rank + NEAR_RADIUS; r++) {
      for (let f = file - NEAR_RADIUS; f <= file + NEAR_RADIUS; f++) {
        if (f < 0 || f >= SIZE || r < 0 || r >= SIZE || (f === file && r === rank)) continue;
        list.push(r * SIZE + f);
      }
    }
  }
  NEAR_START[POINTS] = list.length;
  return Int16Array.from(list);
})();

/** Zobrist keys, two 32-bit halves per (stone, point), from a fixed-seed xorshift so hashes repeat across runs. */
const ZOBRIST_HI = new Int32Array(3 * POINTS);
const ZOBRIST_LO = new Int32Array(3 * POINTS);
const SIDE_HI = 0x2f6b_8a31;
const SIDE_LO = 0x5c1d_e947;
/**
 * In the hash when the search plays white: the evaluation weighs the opponent's shapes more, so
 * the same stones score differently for each player, and a table kept by one bot across games
 * must not hand one player's scores to the other.
 */
const WHITE_PLAYER_HI = 0x6a09_e667;
const WHITE_PLAYER_LO = 0x3c6e_f372;
{
  let x = 0x9e37_79b9;
  const next = (): number => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x | 0;
  };
  for (let i = 0; i < 3 * POINTS; i++) {
    ZOBRIST_HI[i] = next();
    ZOBRIST_LO[i] = next();
  }
}

// Scratch: no allocation per node.
const trimMoves = new Int32Array(POINTS);
const trimScores = new Int32Array(POINTS);
const countScratch = new Int32Array(POINTS);

export interface GomokuSearchOptions {
  /**
   * At most this many quiet candidates (the best by `orderScore`) when no threat forces the reply;
   * 0 keeps them all.
   */
  readonly breadth?: number;
  /** The same at the loaded position itself (the root of a search); default `breadth`. */
  readonly rootBreadth?: number;
  /** Read fours on at the leaves (`generateNoisyMoves`); default true. */
  readonly quiescence?: boolean;
}

/**
 * How much more the opponent's shapes weigh than the player's, in the evaluation: breaking the
 * opponent's lines comes before building one's own (docs/engine/gomoku.md has the trials). The
 * weights follow the player the search is for, not the side to move, so that a position scores
 * the same at odd and even depths but for the tempo.
 */
const OPPONENT_WEIGHT = 2;
/** The side to move is a tempo ahead: its own shapes' value divided by 2^TEMPO_SHIFT, added. */
const TEMPO_SHIFT = 3;

/**
 * Gomoku for the engine: the stones kept with their line patterns (`LinePatterns`), a Zobrist
 * hash and the points near stones, all updated by `make`/`unmake`. Forced replies are found from
 * the patterns: `generateMoves` writes only the win, the blocks of a five, the open four that wins,
 * or the answers to an open three, and otherwise the points within two of a stone, best first.
 * A five follows the position's rule (`exactFive`: a six does not win), read from the same tables.
 */
export class GomokuSearchBoard implements SearchGame {
  readonly maxMoves = POINTS;
  readonly patterns: LinePatterns;
  readonly breadth: number;
  readonly rootBreadth: number;
  private readonly quiescence: boolean;
  /** How many stones lie within NEAR_RADIUS of each point. */
  private readonly near = new Uint8Array(POINTS);
  /** The points with `near > 0` (occupied ones too), in no particular order, and where each sits in the list. */
  private readonly candidates = new Int16Array(POINTS);
  private readonly candidateSlot = new Int16Array(POINTS).fill(-1);
  private candidateCount = 0;
  private readonly history = new Int16Array(POINTS);
  private historyLength = 0;
  private stones = 0;
  /** 1 after `pass()`: the side to move is the other one than the stone counts say. */
  private passed = 0;
  private rootMoves: Int32Array | undefined;
  private rootHistory = 0;
  /** The side to move in the loaded position: the player the search is for, whose opponent's shapes weigh more. */
  private player: Stone = BLACK;
  private winnerStone = EMPTY;
  private hi = 0;
  private lo = 0;

  private constructor(exactFive: boolean, options: GomokuSearchOptions) {
    this.patterns = new LinePatterns(exactFive);
    this.breadth = options.breadth ?? 0;
    this.rootBreadth = options.rootBreadth ?? this.breadth;
    this.quiescence = options.quiescence ?? true;
  }

  static empty(options: GameOptions & GomokuSearchOptions = {}): GomokuSearchBoard {
    return new GomokuSearchBoard(options.exactFive === true, options);
  }

  /** Copies the stones of a rules board; the moves that led there are not known, so `unmake` stops at this position. */
  static fromBoard(board: GomokuBoard, options: GomokuSearchOptions = {}): GomokuSearchBoard {
    const searchBoard = new GomokuSearchBoard(board.exactFive, options);
    for (let point = 0; point < POINTS; point++) {
      const color = board.stoneAt(point);
      if (color !== null) searchBoard.put(point, color === 'black' ? BLACK : WHITE);
    }
    if (board.winner !== null) searchBoard.winnerStone = board.winner === 'black' ? BLACK : WHITE;
    searchBoard.player = searchBoard.sideToMove;
    if (searchBoard.player === WHITE) {
      searchBoard.hi ^= WHITE_PLAYER_HI;
      searchBoard.lo ^= WHITE_PLAYER_LO;
    }
    return searchBoard;
  }

  static fromPosition(position: GomokuPosition, options: GomokuSearchOptions = {}): GomokuSearchBoard {
    return GomokuSearchBoard.fromBoard(GomokuBoard.fromPosition(position), options);
  }

  get exactFive(): boolean {
    return this.patterns.exactFive;
  }

  get sideToMove(): Stone {
    return ((this.stones + this.passed) & 1) === 0 ? BLACK : WHITE;
  }

  /**
   * Hands the move to the other side without a stone (for asking "what would the opponent do
   * here?", as in looking for the opponent's VCF); `unpass` takes it back. Not a Gomoku move.
   */
  pass(): void {
    if (this.passed !== 0) throw new Error('GomokuSearchBoard.pass: already passed.');
    this.passed = 1;
    this.hi ^= SIDE_HI;
    this.lo ^= SIDE_LO;
  }

  unpass(): void {
    if (this.passed === 0) throw new Error('GomokuSearchBoard.unpass: no pass to take back.');
    this.passed = 0;
    this.hi ^= SIDE_HI;
    this.lo ^= SIDE_LO;
  }

  /**
   * From now on, in this position (and only here: not after moves made from it), `generateMoves`
   * writes `moves` instead of its own choice; undefined lifts it. For narrowing the root to the
   * moves that survive a check the search cannot make, such as the opponent's VCF.
   */
  restrictMoves(moves: readonly number[] | undefined): void {
    this.rootMoves = moves === undefined || moves.length === 0 ? undefined : Int32Array.from(moves);
    this.rootHistory = this.historyLength;
  }

  /** The search is over: its line patterns' WebAssembly slot goes back for the next board (`LinePatterns.release`). */
  release(): void {
    this.patterns.release();
  }

  get stoneCount(): number {
    return this.stones;
  }

  /** EMPTY, BLACK or WHITE. */
  stoneAt(point: number): number {
    return this.patterns.cells[point]!;
  }

  /** The stone that made five, or EMPTY. */
  get winner(): number {
    return this.winnerStone;
  }

  get isOver(): boolean {
    return this.winnerStone !== EMPTY || this.stones === POINTS;
  }

  /** Moves made since loading. */
  get movesMade(): number {
    return this.historyLength;
  }

  get lastMove(): number {
    return this.historyLength === 0 ? -1 : this.history[this.historyLength - 1]!;
  }

  hashHi(): number {
    return this.hi;
  }

  hashLo(): number {
    return this.lo;
  }

  make(move: number): void {
    const cells = this.patterns.cells;
    if (this.winnerStone !== EMPTY || cells[move] !== EMPTY) throw new Error(`GomokuSearchBoard.make: move ${move} is not legal here.`);
    const stone = this.sideToMove;
    const five = this.makesFive(move, stone);
    this.put(move, stone);
    this.history[this.historyLength++] = move;
    if (five) this.winnerStone = stone;
  }

  unmake(): void {
    if (this.historyLength === 0) throw new Error('GomokuSearchBoard.unmake: no move made since loading.');
    const move = this.history[--this.historyLength]!;
    const stone = this.patterns.cells[move]!;
    this.patterns.remove(move);
    this.stones--;
    this.hi ^= ZOBRIST_HI[stone * POINTS + move]! ^ SIDE_HI;
    this.lo ^= ZOBRIST_LO[stone * POINTS + move]! ^ SIDE_LO;
    const near = this.near;
    for (let i = NEAR_START[move]!; i < NEAR_START[move + 1]!; i++) {
      const point = NEAR_LIST[i]!;
      const count = near[point]! - 1;
      near[point] = count;
      if (count === 0) this.dropCandidate(point);
    }
    this.winnerStone = EMPTY;
  }

  private put(point: number, stone: Stone): void {
    this.patterns.place(point, stone);
    this.stones++;
    this.hi ^= ZOBRIST_HI[stone * POINTS + point]! ^ SIDE_HI;
    this.lo ^= ZOBRIST_LO[stone * POINTS + point]! ^ SIDE_LO;
    const near = this.near;
    for (let i = NEAR_START[point]!; i < NEAR_START[point + 1]!; i++) {
      const neighbour = NEAR_LIST[i]!;
      const count = near[neighbour]! + 1;
      near[neighbour] = count;
      if (count === 1) {
        this.candidateSlot[neighbour] = this.candidateCount;
        this.candidates[this.candidateCount++] = neighbour;
      }
    }
  }

  private dropCandidate(point: number): void {
    const slot = this.candidateSlot[point]!;
    const last = this.candidates[--this.candidateCount]!;
    this.candidates[slot] = last;
    this.candidateSlot[last] = slot;
    this.candidateSlot[point] = -1;
  }

  /** Would `stone` on the empty `point` make a winning line under this board's rule? */
  makesFive(point: number, stone: Stone): boolean {
    const patterns = this.patterns;
    for (let line = 0; line < LINES; line++) if (patterns.pattern(point, line, stone) === FIVE) return true;
    return false;
  }

  /** Is `point` empty and within two of a stone: a point worth considering. */
  isCandidate(point: number): boolean {
    return this.patterns.cells[point] === EMPTY && this.near[point]! > 0;
  }

  /** Writes the points where `stone` makes five; returns how many. */
  fiveMoves(stone: Stone, out: Int32Array, offset: number): number {
    if (this.patterns.count(stone, FIVE) === 0) return 0;
    const cells = this.patterns.cells;
    const threats = this.patterns.threats;
    let n = offset;
    for (let i = 0; i < this.candidateCount; i++) {
      const point = this.candidates[i]!;
      // A five is a four or better first; most points fail that one read.
      if (cells[point] === EMPTY && threats[stone * POINTS + point]! >= FOUR_UNIT && this.makesFive(point, stone)) out[n++] = point;
    }
    return n - offset;
  }

  /**
   * Writes the empty points where `stone` makes at least `minimum` (FOUR_UNIT: a four or better;
   * 1: an open three or better) by the per-point threat summary; returns how many.
   */
  threatMoves(stone: Stone, minimum: number, out: Int32Array, offset: number): number {
    const cells = this.patterns.cells;
    const threats = this.patterns.threats;
    const base = stone * POINTS;
    let n = offset;
    for (let i = 0; i < this.candidateCount; i++) {
      const point = this.candidates[i]!;
      if (cells[point] === EMPTY && threats[base + point]! >= minimum) out[n++] = point;
    }
    return n - offset;
  }

  /**
   * The side to move's answers when the opponent threatens to make an open four: its own fours
   * (which must be answered first), and the blocks — the points where the opponent would make a
   * four or better. With `exact`, a block is kept only when a stone there leaves the opponent no
   * open four to make (one make/unmake per point); when no single block does (two threes at once),
   * every such point is kept: all lose but fours. Without it, the cheaper superset.
   */
  answersToThree(out: Int32Array, offset: number, exact = true): number {
    const patterns = this.patterns;
    const cells = patterns.cells;
    const threats = patterns.threats;
    const own = this.sideToMove * POINTS;
    const other: Stone = this.sideToMove === BLACK ? WHITE : BLACK;
    let n = offset;
    for (let i = 0; i < this.candidateCount; i++) {
      const point = this.candidates[i]!;
      if (cells[point] === EMPTY && (threats[other * POINTS + point]! >= FOUR_UNIT || threats[own + point]! >= FOUR_UNIT)) out[n++] = point;
    }
    if (!exact) return n - offset;
    let kept = offset;
    let blocks = 0;
    for (let i = offset; i < n; i++) {
      const point = out[i]!;
      let keep = threats[own + point]! >= FOUR_UNIT;
      if (!keep) {
        this.make(point);
        keep = patterns.count(other, FLEX4) === 0;
        this.unmake();
        if (keep) blocks++;
      }
      if (keep) out[kept++] = point;
    }
    return blocks > 0 ? kept - offset : n - offset;
  }

  /** How many lines through the empty `point` `stone` would turn into a four or better. */
  foursAt(point: number, stone: Stone): number {
    return this.patterns.threats[stone * POINTS + point]! >>> 4;
  }

  /** How many lines through the empty `point` `stone` would turn into an open three or better. */
  threatsAt(point: number, stone: Stone): number {
    return this.patterns.threats[stone * POINTS + point]! & THREE_MASK;
  }

  generateMoves(out: Int32Array, offset: number): number {
    if (this.rootMoves !== undefined && this.historyLength === this.rootHistory && !this.isOver) {
      out.set(this.rootMoves, offset);
      return this.rootMoves.length;
    }
    return this.movesWithin(out, offset, this.historyLength === this.rootHistory ? this.rootBreadth : this.breadth);
  }

  /** What `generateMoves` writes before it trims quiet candidates to `breadth` (and without `restrictMoves`). */
  allSensibleMoves(out: Int32Array, offset: number): number {
    return this.movesWithin(out, offset, 0);
  }

  private movesWithin(out: Int32Array, offset: number, breadth: number): number {
    if (this.isOver) return 0;
    if (this.stones === 0) {
      out[offset] = CENTER;
      return 1;
    }
    const patterns = this.patterns;
    const own = this.sideToMove;
    const other: Stone = own === BLACK ? WHITE : BLACK;
    if (patterns.count(own, FIVE) > 0) return this.firstWith(own, FIVE, out, offset);
    if (patterns.count(other, FIVE) > 0) return this.fiveMoves(other, out, offset);
    if (patterns.count(own, FLEX4) > 0) return this.firstWith(own, FLEX4, out, offset);

    // The opponent threatens an open four: block it or play a four of our own (which must be answered first).
    if (patterns.comboCount(own, DOUBLE_FOUR) === 0 && patterns.count(other, FLEX4) > 0) return this.answersToThree(out, offset);
    const mustAnswer = patterns.count(other, FLEX4) > 0;
    const cells = patterns.cells;
    const threats = patterns.threats;
    // A double four wins whatever the opponent has short of a five.
    const doubleFour = patterns.comboCount(own, DOUBLE_FOUR) > 0;
    let n = offset;
    for (let i = 0; i < this.candidateCount; i++) {
      const point = this.candidates[i]!;
      if (cells[point] !== EMPTY) continue;
      const ownThreats = threats[own * POINTS + point]!;
      if (doubleFour && ownThreats >= 2 * FOUR_UNIT) {
        out[offset] = point;
        return 1;
      }
      if (mustAnswer && ownThreats < FOUR_UNIT && threats[other * POINTS + point]! < FOUR_UNIT) continue;
      out[n++] = point;
    }
    if (n === offset) {
      // Stones fill every point near them: any empty point will do.
      for (let point = 0; point < POINTS; point++) if (patterns.cells[point] === EMPTY) out[n++] = point;
    }
    const count = n - offset;
    if (mustAnswer || breadth <= 0 || count <= breadth) return count;
    return this.keepBest(out, offset, count, breadth);
  }

  countMoves(): number {
    return this.generateMoves(countScratch, 0);
  }

  /** Keeps the `keep` best of `count` moves by `orderScore`, best first. */
  private keepBest(out: Int32Array, offset: number, count: number, keep: number): number {
    for (let i = 0; i < count; i++) {
      const move = out[offset + i]!;
      const score = this.orderScore(move);
      if (i >= keep && score <= trimScores[keep - 1]!) continue;
      insertBestFirst(trimMoves, 0, trimScores, Math.min(i, keep - 1), move, score);
    }
    for (let i = 0; i < keep; i++) out[offset + i] = trimMoves[i]!;
    return keep;
  }

  private firstWith(stone: Stone, pattern: number, out: Int32Array, offset: number): number {
    const patterns = this.patterns;
    for (let i = 0; i < this.candidateCount; i++) {
      const point = this.candidates[i]!;
      if (patterns.cells[point] === EMPTY && patterns.bestPattern(point, stone) === pattern) {
        out[offset] = point;
        return 1;
      }
    }
    throw new Error(`GomokuSearchBoard: the pattern counts promise a ${pattern} that no point has.`);
  }

  /** Pattern gain of a move: what it makes for the side to move plus what it takes from the opponent. */
  orderScore(move: number): number {
    const patterns = this.patterns;
    const own = this.sideToMove;
    const other: Stone = own === BLACK ? WHITE : BLACK;
    const ownAt = own * POINTS + move;
    const otherAt = other * POINTS + move;
    let score = patterns.moveValue(move, own);
    if ((patterns.threats[ownAt]! & THREE_MASK) >= 2) score += DOUBLE_THREAT_ATTACK;
    if ((patterns.threats[otherAt]! & THREE_MASK) >= 2) score += DOUBLE_THREAT_DEFEND;
    return score;
  }

  evaluate(): number {
    const patterns = this.patterns;
    const own = this.sideToMove;
    const other: Stone = own === BLACK ? WHITE : BLACK;
    if (patterns.count(own, FIVE) > 0) return FIVE_NEXT_SCORE;
    const otherFives = patterns.count(other, FIVE);
    if (otherFives >= 2 && this.fiveMoves(other, countScratch, 0) >= 2) return -FIVE_NEXT_SCORE;
    const ownValue = patterns.value(own);
    const otherValue = patterns.value(other);
    const base = own === this.player ? ownValue - OPPONENT_WEIGHT * otherValue : OPPONENT_WEIGHT * ownValue - otherValue;
    // The block is forced and the quiescence search plays it, so standing pat here must not look good.
    if (otherFives > 0) return base - FIVE_NEXT_SCORE;
    if (patterns.count(own, FLEX4) > 0 || patterns.comboCount(own, DOUBLE_FOUR) > 0) return OPEN_FOUR_NEXT_SCORE;
    // With no four to answer with, the opponent must let a four-three or a double three through.
    if (patterns.count(other, BLOCK4) === 0 && patterns.count(other, FLEX4) === 0) {
      if (patterns.comboCount(own, FOUR_THREE) > 0) return FOUR_THREE_NEXT_SCORE + base;
      if (patterns.comboCount(own, DOUBLE_THREE) > 0 && patterns.count(other, FLEX4) === 0) return DOUBLE_THREE_NEXT_SCORE + base;
    }
    return base + (ownValue >> TEMPO_SHIFT);
  }

  /**
   * The quiescence moves: a five, else the blocks of the opponent's five, else the side to move's
   * fours (the best few, and none past QUIESCENCE_PLIES from the loaded position), so that every
   * leaf is read on until no four is left to play: a VCF of the side to move is found at the leaves.
   */
  generateNoisyMoves(out: Int32Array, offset: number): number {
    if (this.isOver) return -1;
    if (!this.quiescence) return 0;
    const patterns = this.patterns;
    const own = this.sideToMove;
    const other: Stone = own === BLACK ? WHITE : BLACK;
    if (patterns.count(own, FIVE) > 0) return this.firstWith(own, FIVE, out, offset);
    if (patterns.count(other, FIVE) > 0) return this.fiveMoves(other, out, offset);
    if (this.historyLength - this.rootHistory >= QUIESCENCE_PLIES) return 0;
    if (patterns.count(own, BLOCK4) === 0 && patterns.count(own, FLEX4) === 0) return 0;
    const threats = patterns.threats;
    const cells = patterns.cells;
    let n = offset;
    for (let i = 0; i < this.candidateCount; i++) {
      const point = this.candidates[i]!;
      if (cells[point] === EMPTY && threats[own * POINTS + point]! >= FOUR_UNIT) out[n++] = point;
    }
    const count = n - offset;
    return count <= QUIESCENCE_FOURS ? count : this.keepBest(out, offset, count, QUIESCENCE_FOURS);
  }

  result(): number {
    if (this.winnerStone === EMPTY) return 0;
    return this.winnerStone === this.sideToMove ? 1 : -1;
  }
}
