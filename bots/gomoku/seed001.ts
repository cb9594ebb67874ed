import { GomokuBoard, POINTS, SIZE } from '../../shared/gomoku/board.js';
import { insertBestFirst } from './best-first.js';

/*
 * Seed 001 (shared/seeds/001_*.txt), in our own code:
 * - A point's value for a side is read from a table over the ten cells around it on each line
 *   (4 codes each: empty, own, opponent, wall; 4^10 entries): how much the side's best shape
 *   through the point gains when its stone goes there, plus how much the opponent's best shape
 *   through it loses. Shapes are matched against a list of patterns, walls counting as the
 *   other colour. The report builds the whole table into a file; we fill it on demand.
 * - Alpha-beta over the sum of those values along the line of play, depth 8, where every node
 *   above the last looks only at the 8 best points by value ("breadth limit 8"), a move that
 *   makes five ends the line at ±20 000 000 × (1 + depth left), and the last level takes the best
 *   single point scanning outward in rings from the opponent's last move so that cut-offs come
 *   early.
 * The report's pattern list itself is not printed; ours is the common one its reference (the
 * lihongxun945 Gomoku AI series) uses: five 10^7, open four 10^5, four 10^4, open three 10^3,
 * three and open two 10^2, two and open one 10, one 1. The report's search takes about a second
 * at depth 8 in C; here it deepens from 1 to 8 and, at the deadline, keeps the move of the last
 * depth it finished.
 */

const PATTERNS: readonly (readonly [value: number, shape: string])[] = [
  [10_000_000, '11111'],
  [100_000, '011110'],
  [10_000, '011112'],
  [10_000, '211110'],
  [10_000, '10111'],
  [10_000, '11101'],
  [10_000, '11011'],
  [1_000, '01110'],
  [1_000, '010110'],
  [1_000, '011010'],
  [100, '001112'],
  [100, '211100'],
  [100, '010112'],
  [100, '211010'],
  [100, '011012'],
  [100, '210110'],
  [100, '10011'],
  [100, '11001'],
  [100, '10101'],
  [100, '2011102'],
  [100, '00110'],
  [100, '01100'],
  [100, '01010'],
  [100, '010010'],
  [10, '000112'],
  [10, '211000'],
  [10, '001012'],
  [10, '210100'],
  [10, '010012'],
  [10, '210010'],
  [10, '10001'],
  [10, '2010102'],
  [10, '2011002'],
  [10, '2001102'],
  [10, '00100'],
  [1, '000012'],
  [1, '210000'],
];

export const SEED001_FIVE_VALUE = 10_000_000;
const WIN_VALUE = 20_000_000;
export const SEED001_DEPTH = 8;
export const SEED001_BREADTH = 8;

// A padded board like the report's: five wall cells around the 15 × 15, so windows never leave it.
const PAD = 5;
const WIDE = SIZE + 2 * PAD;
const EMPTY = 0;
const OWN = 1;
const OPPONENT = 2;
const WALL = 3;
const LINE_STEPS = [1, WIDE, WIDE + 1, WIDE - 1] as const;

function wideOf(point: number): number {
  const file = point % SIZE;
  return ((point - file) / SIZE + PAD) * WIDE + file + PAD;
}

/** The best pattern value through the centre (index 5) of an 11-cell line, `1` being the side whose shapes are matched. */
function bestShape(line: readonly number[]): number {
  for (const [value, shape] of PATTERNS) {
    for (let at = 0; at < shape.length; at++) {
      const start = 5 - at;
      if (start < 0 || start + shape.length > 11) continue;
      let matches = true;
      for (let k = 0; k < shape.length && matches; k++) matches = line[start + k] === shape.charCodeAt(k) - 48;
      if (matches) return value;
    }
  }
  return 0;
}

/** Window keys are the 10 cells at offsets -5..-1, 1..5 (two bits each), coded for the side to move. */
const UNKNOWN = -1;
const valueByKey = new Int32Array(1 << 20).fill(UNKNOWN);

function valueOfKey(key: number): number {
  const known = valueByKey[key]!;
  if (known !== UNKNOWN) return known;
  const codes: number[] = [];
  for (let i = 0; i < 10; i++) codes.push((key >>> (2 * i)) & 3);
  codes.splice(5, 0, EMPTY);
  // Our shapes: walls are the opponent's. The opponent's shapes: the colours swap and walls are ours.
  const ownView = codes.map((c) => (c === WALL ? OPPONENT : c));
  const theirView = codes.map((c) => (c === WALL || c === OWN ? OPPONENT : c === OPPONENT ? OWN : EMPTY));
  const ownBefore = bestShape(ownView);
  const theirBefore = bestShape(theirView);
  ownView[5] = OWN;
  theirView[5] = OPPONENT;
  // The report sums the scan in both directions along the line; our list holds every shape and its mirror, so the two agree.
  const value = 2 * (bestShape(ownView) - ownBefore + (theirBefore - bestShape(theirView)));
  valueByKey[key] = value;
  return value;
}

class Seed001Search {
  /** `views[side]`: the padded board coded for `side` (1 black, 2 white): own stones 1, the opponent's 2. */
  private readonly views = [new Uint8Array(0), new Uint8Array(WIDE * WIDE).fill(WALL), new Uint8Array(WIDE * WIDE).fill(WALL)];
  private readonly cells = new Uint8Array(POINTS);
  private nodes = 0;
  private stopped = false;

  constructor(
    board: GomokuBoard,
    private readonly exactFive: boolean,
    private readonly deadline: number,
  ) {
    for (let point = 0; point < POINTS; point++) {
      const color = board.stoneAt(point);
      this.set(point, color === null ? 0 : color === 'black' ? 1 : 2);
    }
  }

  get nodeCount(): number {
    return this.nodes;
  }

  get timedOut(): boolean {
    return this.stopped;
  }

  private set(point: number, side: number): void {
    this.cells[point] = side;
    const wide = wideOf(point);
    this.views[1]![wide] = side === 0 ? EMPTY : side === 1 ? OWN : OPPONENT;
    this.views[2]![wide] = side === 0 ? EMPTY : side === 2 ? OWN : OPPONENT;
  }

  /** What `side` gains by playing the empty `point`: its shapes made plus the opponent's broken, over four lines. */
  value(point: number, side: number): number {
    const view = this.views[side]!;
    const wide = wideOf(point);
    let total = 0;
    for (const step of LINE_STEPS) {
      let key = 0;
      let slot = 0;
      for (let offset = -5; offset <= 5; offset++) {
        if (offset === 0) continue;
        key |= view[wide + offset * step]! << (2 * slot++);
      }
      total += valueOfKey(key);
    }
    return total;
  }

  private makesFive(point: number, side: number): boolean {
    const view = this.views[side]!;
    const wide = wideOf(point);
    for (const step of LINE_STEPS) {
      let run = 1;
      for (let at = wide + step; view[at] === OWN; at += step) run++;
      for (let at = wide - step; view[at] === OWN; at -= step) run++;
      if (run === 5 || (run > 5 && !this.exactFive)) return true;
    }
    return false;
  }

  /** The `breadth` empty points with the highest value for `side`, best first. */
  private bestPoints(side: number, breadth: number): number[] {
    const points = new Int32Array(breadth);
    const values = new Int32Array(breadth);
    let length = 0;
    for (let point = 0; point < POINTS; point++) {
      if (this.cells[point] !== 0) continue;
      const value = this.value(point, side);
      if (length === breadth && value <= values[breadth - 1]!) continue;
      insertBestFirst(points, 0, values, Math.min(length, breadth - 1), point, value);
      if (length < breadth) length++;
    }
    return Array.from(points.subarray(0, length));
  }

  private tick(): void {
    if ((++this.nodes & 1023) === 0 && performance.now() >= this.deadline) this.stopped = true;
  }

  /** The root: the best of the `breadth` best points for `ai` searched to `depth`, or -1 when stopped. */
  root(ai: number, depth: number, breadth: number, lastMove: number): { move: number; value: number } {
    let best = -1;
    let bestValue = -Infinity;
    for (const point of this.bestPoints(ai, breadth)) {
      const here = this.value(point, ai);
      let value: number;
      if (this.makesFive(point, ai)) {
        value = WIN_VALUE * (1 + depth);
      } else {
        this.set(point, ai);
        value = depth === 0 ? 0 : this.node(ai, depth - 1, breadth, false, bestValue - here, lastMove);
        value += here;
        this.set(point, 0);
      }
      if (this.stopped) return { move: -1, value: 0 };
      if (value > bestValue) {
        bestValue = value;
        best = point;
      }
    }
    return { move: best, value: bestValue };
  }

  /**
   * A node below the root. The maximising side is `ai`; `bound` is the parent's best so far in this
   * node's terms (a floor for a minimising node, a ceiling for a maximising one), as in the report.
   */
  private node(ai: number, depth: number, breadth: number, maximising: boolean, bound: number, lastMove: number): number {
    this.tick();
    if (this.stopped) return 0;
    let max = maximising ? -Infinity : bound;
    let min = maximising ? bound : Infinity;
    const opponent = 3 - ai;
    if (depth === 0) {
      // The last level: no candidate list, just the single best point, scanning rings around the last move.
      const centre = lastMove >= 0 ? lastMove : 7 * SIZE + 7;
      const file = centre % SIZE;
      const rank = (centre - file) / SIZE;
      for (let ring = 1; ring < SIZE; ring++) {
        for (let r = rank - ring; r <= rank + ring; r++) {
          for (let f = file - ring; f <= file + ring; f++) {
            if (r !== rank - ring && r !== rank + ring && f !== file - ring && f !== file + ring) continue;
            if (f < 0 || f >= SIZE || r < 0 || r >= SIZE || this.cells[r * SIZE + f] !== 0) continue;
            const point = r * SIZE + f;
            if (maximising) {
              max = Math.max(max, this.value(point, ai));
              if (min <= max) return max;
            } else {
              min = Math.min(min, -this.value(point, opponent));
              if (min <= max) return min;
            }
          }
        }
      }
      return maximising ? max : min;
    }
    const side = maximising ? ai : opponent;
    for (const point of this.bestPoints(side, breadth)) {
      const here = maximising ? this.value(point, ai) : -this.value(point, opponent);
      let value: number;
      if (this.makesFive(point, side)) {
        value = (maximising ? WIN_VALUE : -WIN_VALUE) * (1 + depth);
      } else {
        this.set(point, side);
        value = this.node(ai, depth - 1, breadth, !maximising, (maximising ? max : min) - here, lastMove) + here;
        this.set(point, 0);
      }
      if (this.stopped) return 0;
      if (maximising && value > max) {
        max = value;
        if (min <= max) return max;
      } else if (!maximising && value < min) {
        min = value;
        if (min <= max) return min;
      }
    }
    return maximising ? max : min;
  }
}

export interface Seed001Result {
  readonly move: number;
  readonly value: number;
  readonly depth: number;
  readonly nodes: number;
}

/**
 * Seed 001's move: deepening from depth 0 (one ply) to `maxDepth`, keeping the move of the last
 * depth finished before `deadline`. `lastMove` is the opponent's last stone, the centre of the
 * last level's ring scan (the middle of the board when unknown).
 */
export function seed001Move(board: GomokuBoard, deadline: number, lastMove: number, maxDepth = SEED001_DEPTH, breadth = SEED001_BREADTH): Seed001Result {
  if (board.stoneCount === 0) return { move: 7 * SIZE + 7, value: 0, depth: 0, nodes: 0 };
  const ai = board.toMove === 'black' ? 1 : 2;
  const search = new Seed001Search(board, board.exactFive, deadline);
  let result: Seed001Result = { move: -1, value: 0, depth: 0, nodes: 0 };
  for (let depth = 0; depth <= maxDepth; depth++) {
    const found = search.root(ai, depth, breadth, lastMove);
    if (search.timedOut && result.move >= 0) break;
    result = { move: found.move, value: found.value, depth, nodes: search.nodeCount };
    if (search.timedOut || Math.abs(found.value) >= WIN_VALUE) break;
  }
  return { ...result, nodes: search.nodeCount };
}
