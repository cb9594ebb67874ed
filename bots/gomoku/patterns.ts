import { LINE_STEPS, POINTS, SIZE } from '../../shared/gomoku/board.js';
import { linesCore, SLOT, type LinesCore } from './patterns-core.js';

/*
 * Seed 001's idea: the value of a point along one line depends only on the cells up to five away
 * on either side, so every such window is classified once into a table (4 codes per cell, 10 cells:
 * a 4^10 = 2^20 entry table), and a stone changes only the windows of the 40 points on its four
 * lines. We keep one window key per (point, line) and update it with a bit operation.
 */

export const EMPTY = 0;
export const BLACK = 1;
export const WHITE = 2;
export const WALL = 3;
export type Stone = typeof BLACK | typeof WHITE;

/**
 * What a stone of one colour placed on an empty point makes along one line, weakest first.
 * FLEX is "open": FLEX4 has two points that complete a five, FLEX3 can become a FLEX4 in one move.
 */
export const NONE = 0;
export const BLOCK1 = 1;
export const FLEX1 = 2;
export const BLOCK2 = 3;
export const FLEX2 = 4;
export const BLOCK3 = 5;
export const FLEX3 = 6;
export const BLOCK4 = 7;
export const FLEX4 = 8;
export const FIVE = 9;
export const PATTERN_NAMES = ['none', 'block1', 'flex1', 'block2', 'flex2', 'block3', 'flex3', 'block4', 'flex4', 'five'] as const;
export const PATTERN_KINDS = 16; // stride of per-colour count arrays

export const LINES = 4;
export const WINDOW_REACH = 5;
const WINDOW_CELLS = 2 * WINDOW_REACH;
const UNKNOWN = 0xff;

/** Bit position of the cell `offset` steps along the line (offset ±1..±5) inside a window key. */
function shiftOf(offset: number): number {
  return 2 * (offset < 0 ? offset + WINDOW_REACH : offset + WINDOW_REACH - 1);
}
function codeAt(key: number, offset: number): number {
  return (key >>> shiftOf(offset)) & 3;
}

/**
 * Per line value of a pattern, for the evaluation's totals: what a side could make there next.
 * Steep from the threes up, as seed 001's own values are: with flatter ones the many small shapes
 * of stones spread apart outweighed one real three, and white spent its first moves on them.
 */
export const PATTERN_VALUE = Int32Array.from([0, 1, 2, 3, 8, 12, 64, 80, 400, 1000]);

/**
 * Both colours' patterns of every window, one byte each (black in the low four bits, white in the
 * high four), read at `(key >>> shift) & mask`. Freestyle needs only four cells each side (a six is
 * a five too), so its table drops the outer two and has 2^16 entries, small enough to stay in
 * cache; exactly-five needs the fifth cell each side to see a six, so its table has all 2^20.
 */
export interface PatternTable {
  readonly codes: Uint8Array;
  readonly shift: number;
  readonly mask: number;
}

/**
 * Memoised recursion over windows: a window's pattern is read from the windows with one more own
 * stone, so each entry costs one five test and at most eight lookups.
 */
function buildTable(exactFive: boolean): PatternTable {
  const memo = new Uint8Array(2 << 20).fill(UNKNOWN);
  const classify = (key: number, stone: number, base: number): number => {
    const known = memo[base | key]!;
    if (known !== UNKNOWN) return known;
    let run = 1;
    for (let offset = -1; offset >= -WINDOW_REACH && codeAt(key, offset) === stone; offset--) run++;
    for (let offset = 1; offset <= WINDOW_REACH && codeAt(key, offset) === stone; offset++) run++;
    let result: number = NONE;
    if (run === 5 || (run > 5 && !exactFive)) {
      result = FIVE;
    } else {
      let fives = 0;
      let best: number = NONE;
      for (let offset = -4; offset <= 4; offset++) {
        if (offset === 0 || codeAt(key, offset) !== EMPTY) continue;
        const next = classify(key | (stone << shiftOf(offset)), stone, base);
        if (next === FIVE) fives++;
        else if (next > best) best = next;
      }
      if (fives >= 2) result = FLEX4;
      else if (fives === 1) result = BLOCK4;
      else if (best === FLEX4) result = FLEX3;
      else if (best === BLOCK4) result = BLOCK3;
      else if (best === FLEX3) result = FLEX2;
      else if (best === BLOCK3) result = BLOCK2;
      else if (best === FLEX2) result = FLEX1;
      else if (best === BLOCK2) result = BLOCK1;
    }
    memo[base | key] = result;
    return result;
  };
  // The outer cells sit in the lowest two and the highest two bits of a key.
  const shift = exactFive ? 0 : 2;
  const mask = exactFive ? (1 << 20) - 1 : (1 << 16) - 1;
  const codes = new Uint8Array(mask + 1);
  for (let index = 0; index <= mask; index++) {
    const key = index << shift;
    codes[index] = classify(key, BLACK, 0) | (classify(key, WHITE, 1 << 20) << 4);
  }
  return { codes, shift, mask };
}

const tables: (PatternTable | undefined)[] = [undefined, undefined];
/** The pattern table of a rule (freestyle or exactly five), built on first use and shared. */
export function patternTable(exactFive: boolean): PatternTable {
  const index = exactFive ? 1 : 0;
  return (tables[index] ??= buildTable(exactFive));
}

/** The pattern `stone` makes at the centre of the window `key`. */
export function patternOf(table: PatternTable, key: number, stone: Stone): number {
  return (table.codes[(key >>> table.shift) & table.mask]! >>> (stone === BLACK ? 0 : 4)) & 15;
}

/** The window key of `point` on `line` for the cells of a board: for tests and one-off checks. */
export function windowKeyOf(cells: ArrayLike<number>, point: number, line: number): number {
  const [df, dr] = LINE_STEPS[line]!;
  const file = point % SIZE;
  const rank = (point - file) / SIZE;
  let key = 0;
  for (let offset = -WINDOW_REACH; offset <= WINDOW_REACH; offset++) {
    if (offset === 0) continue;
    const f = file + offset * df;
    const r = rank + offset * dr;
    const code = f < 0 || f >= SIZE || r < 0 || r >= SIZE ? WALL : cells[r * SIZE + f]!;
    key |= code << shiftOf(offset);
  }
  return key;
}

/**
 * For each point, the (neighbour, line) windows a stone there changes, as compact lists: the
 * neighbour's window slot (`neighbour * LINES + line`) and the bit position of this point in that
 * window. Freestyle lists reach four points each way (its tables ignore the fifth), exactly-five
 * lists five.
 */
interface NeighbourLists {
  readonly start: Int32Array;
  readonly slot: Int16Array;
  readonly shift: Uint8Array;
}
function neighbourLists(reach: number): NeighbourLists {
  const start = new Int32Array(POINTS + 1);
  const slots: number[] = [];
  const shifts: number[] = [];
  for (let point = 0; point < POINTS; point++) {
    start[point] = slots.length;
    const file = point % SIZE;
    const rank = (point - file) / SIZE;
    for (let line = 0; line < LINES; line++) {
      const [df, dr] = LINE_STEPS[line]!;
      for (let offset = -reach; offset <= reach; offset++) {
        const f = file + offset * df;
        const r = rank + offset * dr;
        if (offset === 0 || f < 0 || f >= SIZE || r < 0 || r >= SIZE) continue;
        slots.push((r * SIZE + f) * LINES + line);
        // The neighbour `offset` away sees this point `-offset` away.
        shifts.push(shiftOf(-offset));
      }
    }
  }
  start[POINTS] = slots.length;
  return { start, slot: Int16Array.from(slots), shift: Uint8Array.from(shifts) };
}
const FREESTYLE_NEIGHBOURS = neighbourLists(WINDOW_REACH - 1);
const EXACT_FIVE_NEIGHBOURS = neighbourLists(WINDOW_REACH);
const EMPTY_BOARD_KEYS = new Uint32Array(POINTS * LINES);
{
  const nothing = new Uint8Array(POINTS);
  for (let point = 0; point < POINTS; point++) {
    for (let line = 0; line < LINES; line++) EMPTY_BOARD_KEYS[point * LINES + line] = windowKeyOf(nothing, point, line);
  }
}

/** Move-ordering weights of a pattern: for the colour that makes it (attack) and for the colour that takes the point from it (defence). */
export const ATTACK_WEIGHT = Int32Array.from([0, 1, 3, 4, 14, 14, 70, 80, 600, 20_000]);
export const DEFENCE_WEIGHT = Int32Array.from([0, 1, 2, 3, 10, 10, 50, 45, 400, 10_000]);
/** `moveValue` of one line for each colour, by the window's pattern pair (black low four bits, white high four). */
const BLACK_MOVE_VALUE = Int32Array.from({ length: 256 }, (_, pair) => ATTACK_WEIGHT[pair & 15]! + DEFENCE_WEIGHT[pair >>> 4]!);
const WHITE_MOVE_VALUE = Int32Array.from({ length: 256 }, (_, pair) => ATTACK_WEIGHT[pair >>> 4]! + DEFENCE_WEIGHT[pair & 15]!);
/** Per-point threat summary: `FOUR_UNIT` for each line with a four or better, 1 for each with an open three or better. */
export const FOUR_UNIT = 16;
export const THREE_MASK = FOUR_UNIT - 1;
const THREAT_UNIT = Uint8Array.from([0, 0, 0, 0, 0, 0, 1, 1 + FOUR_UNIT, 1 + FOUR_UNIT, 1 + FOUR_UNIT]);

/** Points where one stone makes two threats at once, by the strongest pair. */
export const NO_COMBO = 0;
export const DOUBLE_THREE = 1;
export const FOUR_THREE = 2;
export const DOUBLE_FOUR = 3;
export const COMBO_KINDS = 4;
/** `COMBO_OF[threats]`: the combination a point's threat summary stands for. */
const COMBO_OF = Uint8Array.from({ length: 256 }, (_, threats) => {
  const fours = threats >>> 4;
  const threes = threats & (FOUR_UNIT - 1); // open threes and better, fours included
  if (fours >= 2) return DOUBLE_FOUR;
  if (threes >= 2) return fours === 1 ? FOUR_THREE : DOUBLE_THREE;
  return NO_COMBO;
});

let tablesWritten = false;
const codesWritten = [false, false];
/** The WebAssembly core with the tables of a rule written in, or null when it is not built. */
function filledCore(exactFive: boolean): LinesCore | null {
  const core = linesCore();
  if (!core) return null;
  const memory = core.buffer;
  const { tables } = core;
  if (!tablesWritten) {
    tablesWritten = true;
    for (const [lists, start, slot, shift] of [
      [FREESTYLE_NEIGHBOURS, tables.freestyleStart, tables.freestyleSlot, tables.freestyleShift],
      [EXACT_FIVE_NEIGHBOURS, tables.exactFiveStart, tables.exactFiveSlot, tables.exactFiveShift],
    ] as const) {
      new Int32Array(memory, start, lists.start.length).set(lists.start);
      new Int16Array(memory, slot, lists.slot.length).set(lists.slot);
      new Uint8Array(memory, shift, lists.shift.length).set(lists.shift);
    }
    new Int32Array(memory, tables.patternValue, PATTERN_VALUE.length).set(PATTERN_VALUE);
    new Uint8Array(memory, tables.threatUnit, THREAT_UNIT.length).set(THREAT_UNIT);
    new Uint8Array(memory, tables.comboOf, COMBO_OF.length).set(COMBO_OF);
    new Int32Array(memory, tables.blackMoveValue, 256).set(BLACK_MOVE_VALUE);
    new Int32Array(memory, tables.whiteMoveValue, 256).set(WHITE_MOVE_VALUE);
  }
  const rule = exactFive ? 1 : 0;
  if (!codesWritten[rule]) {
    const { codes } = patternTable(exactFive);
    new Uint8Array(memory, exactFive ? tables.exactFiveCodes : tables.freestyleCodes, codes.length).set(codes);
    codesWritten[rule] = true;
  }
  return core;
}

/** A `LinePatterns`' arrays, laid out from `offset` of `buffer` as a slot of the module lays them out. */
function stateIn(buffer: ArrayBuffer, offset: number): [Uint8Array, Uint8Array, Int32Array, Uint32Array, Int32Array, Int32Array, Int32Array] {
  return [
    new Uint8Array(buffer, offset + SLOT.cells, POINTS),
    new Uint8Array(buffer, offset + SLOT.threats, 3 * POINTS),
    new Int32Array(buffer, offset + SLOT.moveValues, 3 * POINTS),
    new Uint32Array(buffer, offset + SLOT.keys, POINTS * LINES),
    new Int32Array(buffer, offset + SLOT.totals, 3),
    new Int32Array(buffer, offset + SLOT.counts, 3 * PATTERN_KINDS),
    new Int32Array(buffer, offset + SLOT.combos, 3 * COMBO_KINDS),
  ];
}

/**
 * The stones of a board with, for every point, line and colour, the pattern that colour would
 * make by playing there, and running sums kept as stones come and go:
 * - over the board: `value(stone)` (`PATTERN_VALUE` summed over empty points and lines),
 *   `count(stone, pattern)` (how many (empty point, line) pairs have that pattern) and
 *   `comboCount(stone, combo)` (how many empty points make two threats at once);
 * - per point: `threats` (`FOUR_UNIT` × fours + open threes and better, over the four lines).
 * `place` and `remove` touch the windows on the four lines through the point, never the whole board.
 */
export class LinePatterns {
  readonly exactFive: boolean;
  private stones: Uint8Array;
  /** `[stone * POINTS + point]`, kept for empty points (a point being emptied gets them rebuilt). */
  private threatSums: Uint8Array;
  /** `[own * POINTS + point]`: `moveValue(point, own)`, kept the same way. */
  private moveValues: Int32Array;
  private keys: Uint32Array;
  private readonly codes: Uint8Array;
  private readonly shift: number;
  private readonly mask: number;
  private readonly neighbours: NeighbourLists;
  private totals: Int32Array;
  private counts: Int32Array;
  private combos: Int32Array;
  /** The state's slot in the WebAssembly module, which then runs `place` and `remove`; -1 when kept in JavaScript. */
  private base: number;
  private core: LinesCore | undefined;

  /** `inCore`: keep the state in the WebAssembly module when it is built and has a slot free. */
  constructor(exactFive: boolean, inCore = true) {
    this.exactFive = exactFive;
    const table = patternTable(exactFive);
    this.codes = table.codes;
    this.shift = table.shift;
    this.mask = table.mask;
    this.neighbours = exactFive ? EXACT_FIVE_NEIGHBOURS : FREESTYLE_NEIGHBOURS;
    const core = inCore ? filledCore(exactFive) : null;
    const base = core?.take(this);
    this.core = base === undefined ? undefined : core!;
    this.base = base ?? -1;
    // The state has one layout wherever it is: a slot of the module's memory, or a buffer of its own.
    const [buffer, offset] = base === undefined ? [new ArrayBuffer(SLOT.bytes), 0] : [core!.buffer, base];
    new Uint8Array(buffer, offset, SLOT.bytes).fill(0); // a slot given back holds its last owner's state
    [this.stones, this.threatSums, this.moveValues, this.keys, this.totals, this.counts, this.combos] = stateIn(buffer, offset);
    this.keys.set(EMPTY_BOARD_KEYS);
    for (let point = 0; point < POINTS; point++) {
      this.summarisePoint(point);
      this.addToTotals(point, 1);
    }
  }

  /** Whether the state is in the WebAssembly module. */
  get inCore(): boolean {
    return this.core !== undefined;
  }

  /** The stone on each point (`EMPTY`, `BLACK`, `WHITE`). */
  get cells(): Uint8Array {
    return this.stones;
  }

  /** `[stone * POINTS + point]`: `FOUR_UNIT` × the lines with a four or better plus those with an open three or better, for empty points. */
  get threats(): Uint8Array {
    return this.threatSums;
  }

  /**
   * Gives the WebAssembly slot back, for the next board: a search's board when the search ends.
   * The state moves to JavaScript arrays, so a later use is still right, only slower.
   */
  release(): void {
    const core = this.core;
    if (!core) return;
    [this.stones, this.threatSums, this.moveValues, this.keys, this.totals, this.counts, this.combos] = stateIn(core.buffer.slice(this.base, this.base + SLOT.bytes), 0);
    this.core = undefined;
    core.give(this, this.base);
    this.base = -1;
  }

  /** The pattern `stone` makes on `line` by playing the empty `point`. */
  pattern(point: number, line: number, stone: Stone): number {
    return (this.pairAt(point * LINES + line) >>> (stone === BLACK ? 0 : 4)) & 15;
  }

  /** The strongest pattern over the four lines. */
  bestPattern(point: number, stone: Stone): number {
    let best = 0;
    for (let line = 0; line < LINES; line++) {
      const p = this.pattern(point, line, stone);
      if (p > best) best = p;
    }
    return best;
  }

  /** Move-ordering value of the empty `point` for `own`: `ATTACK_WEIGHT` of its patterns plus `DEFENCE_WEIGHT` of the opponent's. */
  moveValue(point: number, own: Stone): number {
    return this.moveValues[own * POINTS + point]!;
  }

  /** Both colours' patterns of a window: black in the low four bits, white in the high four. */
  private pairAt(at: number): number {
    return this.codes[(this.keys[at]! >>> this.shift) & this.mask]!;
  }

  value(stone: Stone): number {
    return this.totals[stone]!;
  }

  count(stone: Stone, pattern: number): number {
    return this.counts[stone * PATTERN_KINDS + pattern]!;
  }

  comboCount(stone: Stone, combo: number): number {
    return this.combos[stone * COMBO_KINDS + combo]!;
  }

  /** The combination `stone` makes by playing the empty `point`. */
  comboAt(point: number, stone: Stone): number {
    return COMBO_OF[this.threatSums[stone * POINTS + point]!]!;
  }

  place(point: number, stone: Stone): void {
    if (this.core) return this.core.exports.place(this.base, point, stone, this.exactFive ? 1 : 0);
    this.addToTotals(point, -1);
    this.stones[point] = stone;
    this.updateLines(point, stone);
  }

  remove(point: number): void {
    if (this.core) return this.core.exports.remove(this.base, point, this.exactFive ? 1 : 0);
    this.stones[point] = EMPTY;
    this.updateLines(point, EMPTY);
    this.summarisePoint(point);
    this.addToTotals(point, 1);
  }

  /**
   * Builds an empty point's threat summary and move values from its four windows: on a new board,
   * and when a point is emptied (while a stone stands on it, `updateLines` leaves them be, since
   * nothing reads them for occupied points).
   */
  private summarisePoint(point: number): void {
    let black = 0;
    let white = 0;
    let blackValue = 0;
    let whiteValue = 0;
    for (let line = 0; line < LINES; line++) {
      const pair = this.pairAt(point * LINES + line);
      black += THREAT_UNIT[pair & 15]!;
      white += THREAT_UNIT[pair >>> 4]!;
      blackValue += BLACK_MOVE_VALUE[pair]!;
      whiteValue += WHITE_MOVE_VALUE[pair]!;
    }
    this.threatSums[BLACK * POINTS + point] = black;
    this.threatSums[WHITE * POINTS + point] = white;
    this.moveValues[BLACK * POINTS + point] = blackValue;
    this.moveValues[WHITE * POINTS + point] = whiteValue;
  }

  /** Adds (sign 1) or takes away (sign -1) an empty point's patterns from the board sums. */
  private addToTotals(point: number, sign: number): void {
    const totals = this.totals;
    const counts = this.counts;
    for (let line = 0; line < LINES; line++) {
      const pair = this.pairAt(point * LINES + line);
      const black = pair & 15;
      const white = pair >>> 4;
      totals[BLACK] = totals[BLACK]! + sign * PATTERN_VALUE[black]!;
      totals[WHITE] = totals[WHITE]! + sign * PATTERN_VALUE[white]!;
      counts[BLACK * PATTERN_KINDS + black] = counts[BLACK * PATTERN_KINDS + black]! + sign;
      counts[WHITE * PATTERN_KINDS + white] = counts[WHITE * PATTERN_KINDS + white]! + sign;
    }
    const combos = this.combos;
    const black = BLACK * COMBO_KINDS + COMBO_OF[this.threatSums[BLACK * POINTS + point]!]!;
    const white = WHITE * COMBO_KINDS + COMBO_OF[this.threatSums[WHITE * POINTS + point]!]!;
    combos[black] = combos[black]! + sign;
    combos[white] = combos[white]! + sign;
  }

  /**
   * Writes `code` for `point` into the windows of its line neighbours, and moves the patterns of
   * the empty ones in the per-point summaries and the board sums (occupied ones wait for `remove`).
   */
  private updateLines(point: number, code: number): void {
    const codes = this.codes;
    const tableShift = this.shift;
    const mask = this.mask;
    const keys = this.keys;
    const cells = this.stones;
    const moveValues = this.moveValues;
    const { start, slot: slots, shift: shifts } = this.neighbours;
    const end = start[point + 1]!;
    for (let i = start[point]!; i < end; i++) {
      const at = slots[i]!;
      const shift = shifts[i]!;
      const before = keys[at]!;
      const after = (before & ~(3 << shift)) | (code << shift);
      keys[at] = after;
      const neighbour = at >>> 2; // at = neighbour * LINES + line
      if (cells[neighbour] !== EMPTY) continue;
      const pairBefore = codes[(before >>> tableShift) & mask]!;
      const pairAfter = codes[(after >>> tableShift) & mask]!;
      if (pairBefore === pairAfter) continue;
      // Both colours' move values depend on both patterns (attack and defence): one step each.
      const black = BLACK * POINTS + neighbour;
      const white = WHITE * POINTS + neighbour;
      moveValues[black] = moveValues[black]! + BLACK_MOVE_VALUE[pairAfter]! - BLACK_MOVE_VALUE[pairBefore]!;
      moveValues[white] = moveValues[white]! + WHITE_MOVE_VALUE[pairAfter]! - WHITE_MOVE_VALUE[pairBefore]!;
      const changed = pairBefore ^ pairAfter;
      if ((changed & 15) !== 0) this.shiftPattern(neighbour, BLACK, pairBefore & 15, pairAfter & 15);
      if (changed >>> 4 !== 0) this.shiftPattern(neighbour, WHITE, pairBefore >>> 4, pairAfter >>> 4);
    }
  }

  /** One line of the empty `point` goes from pattern `was` to `now` for `stone`: its threat summary and the board sums. */
  private shiftPattern(point: number, stone: Stone, was: number, now: number): void {
    const threats = this.threatSums;
    const mine = stone * POINTS + point;
    const threatsBefore = threats[mine]!;
    const threatsAfter = threatsBefore + THREAT_UNIT[now]! - THREAT_UNIT[was]!;
    threats[mine] = threatsAfter;
    const totals = this.totals;
    const counts = this.counts;
    totals[stone] = totals[stone]! + PATTERN_VALUE[now]! - PATTERN_VALUE[was]!;
    counts[stone * PATTERN_KINDS + was] = counts[stone * PATTERN_KINDS + was]! - 1;
    counts[stone * PATTERN_KINDS + now] = counts[stone * PATTERN_KINDS + now]! + 1;
    if (threatsAfter !== threatsBefore) {
      const combos = this.combos;
      const comboBefore = stone * COMBO_KINDS + COMBO_OF[threatsBefore]!;
      const comboAfter = stone * COMBO_KINDS + COMBO_OF[threatsAfter]!;
      combos[comboBefore] = combos[comboBefore]! - 1;
      combos[comboAfter] = combos[comboAfter]! + 1;
    }
  }
}
