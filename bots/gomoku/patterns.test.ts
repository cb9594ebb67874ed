import { describe, expect, it } from 'vitest';
import { POINTS, SIZE } from '../../shared/gomoku/board.js';
import {
  ATTACK_WEIGHT,
  BLACK,
  BLOCK2,
  BLOCK3,
  BLOCK4,
  COMBO_KINDS,
  DEFENCE_WEIGHT,
  DOUBLE_FOUR,
  DOUBLE_THREE,
  EMPTY,
  FIVE,
  FLEX1,
  FLEX2,
  FLEX3,
  FLEX4,
  FOUR_THREE,
  FOUR_UNIT,
  LinePatterns,
  LINES,
  NO_COMBO,
  NONE,
  PATTERN_KINDS,
  PATTERN_NAMES,
  PATTERN_VALUE,
  patternOf,
  patternTable,
  type Stone,
  WHITE,
  windowKeyOf,
} from './patterns.js';
import { CORE_SLOTS, linesCore } from './patterns-core.js';

/**
 * A row on rank 8: `X` black, `O` white, `.` empty, `_` the empty point examined, and a leading
 * `|` for the board's left edge (the row then starts on file a; otherwise on file c).
 */
function patternInRow(row: string, exactFive: boolean): number {
  const patterns = new LinePatterns(exactFive);
  const atEdge = row.startsWith('|');
  const cells = atEdge ? row.slice(1) : row;
  const first = 7 * SIZE + (atEdge ? 0 : 2);
  let examined = -1;
  [...cells].forEach((char, i) => {
    if (char === 'X') patterns.place(first + i, BLACK);
    if (char === 'O') patterns.place(first + i, WHITE);
    if (char === '_') examined = first + i;
  });
  return patterns.pattern(examined, 0, BLACK);
}

// Shape names as in the Renju International Federation's glossary (five, straight/open four, four,
// three) and Gomocup engines' pattern classes (Rapfi: flex = open, block = one side closed); each
// expected class worked out by hand from the definitions in patterns.ts.
const SHAPES: readonly [row: string, freestyle: number, exactFive: number][] = [
  ['_XXXX.', FIVE, FIVE],
  ['XX_XX', FIVE, FIVE],
  ['.XXXX_X', FIVE, NONE], // a six: a five in freestyle only; with exactFive nothing on this line can become a five
  ['..XXX_..', FLEX4, FLEX4],
  ['OXXX_.', BLOCK4, BLOCK4],
  ['|XXX_.', BLOCK4, BLOCK4],
  ['X_X.X', BLOCK4, BLOCK4],
  ['X.X_X.X', FLEX4, FLEX4], // two gaps, each completing a five
  ['XX_.XX', BLOCK4, BLOCK3], // the gap makes six; with exactFive only a stone on the left can lead to a five
  ['...XX_...', FLEX3, FLEX3],
  ['..X.X_..', FLEX3, FLEX3],
  ['OXX_...', BLOCK3, BLOCK3],
  ['|XX_...', BLOCK3, BLOCK3],
  ['...X_...', FLEX2, FLEX2],
  ['OX_....', BLOCK2, BLOCK2],
  ['...._....', FLEX1, FLEX1],
  ['O_...O', NONE, NONE], // no five fits between the white stones
  ['OXX_.O', NONE, NONE],
];

describe('pattern tables', () => {
  it.each(SHAPES)('%s is %s in freestyle and %s with exactFive', (row, freestyle, exactFive) => {
    expect(PATTERN_NAMES[patternInRow(row, false)]).toBe(PATTERN_NAMES[freestyle]);
    expect(PATTERN_NAMES[patternInRow(row, true)]).toBe(PATTERN_NAMES[exactFive]);
  });

  it('sees the same shapes for white as for black', () => {
    const table = patternTable(false);
    const swap = [0, 2, 1, 3];
    for (let key = 0; key < 1 << 20; key += 997) {
      let swapped = 0;
      for (let shift = 0; shift < 20; shift += 2) swapped |= swap[(key >>> shift) & 3]! << shift;
      expect(patternOf(table, swapped, WHITE)).toBe(patternOf(table, key, BLACK));
    }
  });
});

/** Every sum `LinePatterns` keeps, counted again from the stones alone. */
function recount(cells: Uint8Array, exactFive: boolean) {
  const table = patternTable(exactFive);
  const totals = [0, 0, 0];
  const counts = new Array<number>(3 * PATTERN_KINDS).fill(0);
  const moveValues = new Array<number>(3 * POINTS).fill(0);
  const threats = new Array<number>(3 * POINTS).fill(0);
  for (let point = 0; point < POINTS; point++) {
    if (cells[point] !== EMPTY) continue;
    for (let line = 0; line < LINES; line++) {
      const key = windowKeyOf(cells, point, line);
      for (const stone of [BLACK, WHITE] as const) {
        const pattern = patternOf(table, key, stone);
        totals[stone]! += PATTERN_VALUE[pattern]!;
        counts[stone * PATTERN_KINDS + pattern]!++;
        moveValues[stone * POINTS + point]! += ATTACK_WEIGHT[pattern]!;
        moveValues[(3 - stone) * POINTS + point]! += DEFENCE_WEIGHT[pattern]!;
        threats[stone * POINTS + point]! += (pattern >= FLEX3 ? 1 : 0) + (pattern >= BLOCK4 ? FOUR_UNIT : 0);
      }
    }
  }
  const combos = new Array<number>(3 * COMBO_KINDS).fill(0);
  for (let point = 0; point < POINTS; point++) {
    if (cells[point] !== EMPTY) continue;
    for (const stone of [BLACK, WHITE] as const) {
      const t = threats[stone * POINTS + point]!;
      const fours = t >>> 4;
      const threes = t & 15;
      combos[stone * COMBO_KINDS + (fours >= 2 ? DOUBLE_FOUR : threes >= 2 ? (fours === 1 ? FOUR_THREE : DOUBLE_THREE) : NO_COMBO)]!++;
    }
  }
  return { totals, counts, moveValues, threats, combos };
}

/** A small seeded generator: `random(n)` is in 0..n-1. */
function seeded(seed: number): (n: number) => number {
  return (n) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
}

function snapshot(patterns: LinePatterns) {
  const empty = (i: number) => patterns.cells[i % POINTS] === EMPTY;
  const stones = [BLACK, WHITE] as const;
  return {
    totals: [0, ...stones.map((s: Stone) => patterns.value(s))],
    counts: Array.from({ length: 3 * PATTERN_KINDS }, (_, i) =>
      i < PATTERN_KINDS ? 0 : patterns.count(Math.floor(i / PATTERN_KINDS) as Stone, i % PATTERN_KINDS),
    ),
    moveValues: Array.from({ length: 3 * POINTS }, (_, i) => (i >= POINTS && empty(i) ? patterns.moveValue(i % POINTS, Math.floor(i / POINTS) as Stone) : 0)),
    threats: Array.from(patterns.threats, (v, i) => (i >= POINTS && empty(i) ? v : 0)),
    combos: Array.from({ length: 3 * COMBO_KINDS }, (_, i) =>
      i < COMBO_KINDS ? 0 : patterns.comboCount(Math.floor(i / COMBO_KINDS) as Stone, i % COMBO_KINDS),
    ),
  };
}

describe('LinePatterns', () => {
  it.each([false, true])('keeps its sums equal to a recount through random place/remove sequences (exactFive %s)', (exactFive) => {
    const random = seeded(exactFive ? 7 : 3);
    const patterns = new LinePatterns(exactFive);
    const placed: number[] = [];
    for (let step = 0; step < 600; step++) {
      if (placed.length > 0 && (random(3) === 0 || placed.length > 120)) {
        patterns.remove(placed.splice(random(placed.length), 1)[0]!);
      } else {
        // Cluster stones near the centre so that real shapes (fours, threes) appear.
        const point = (3 + random(9)) * SIZE + 3 + random(9);
        if (patterns.cells[point] !== EMPTY) continue;
        patterns.place(point, random(2) === 0 ? BLACK : WHITE);
        placed.push(point);
      }
      if (step % 25 === 0) {
        const expected = recount(patterns.cells, exactFive);
        const actual = snapshot(patterns);
        const emptyOnly = (values: number[]) => values.map((v, i) => (i >= POINTS && patterns.cells[i % POINTS] === EMPTY ? v : 0));
        expect(actual.totals).toEqual(expected.totals);
        expect(actual.counts).toEqual(expected.counts);
        expect(actual.moveValues).toEqual(emptyOnly(expected.moveValues));
        expect(actual.threats).toEqual(emptyOnly(expected.threats));
        expect(actual.combos).toEqual(expected.combos);
      }
    }
    while (placed.length > 0) patterns.remove(placed.pop()!);
    expect(snapshot(patterns)).toEqual(snapshot(new LinePatterns(exactFive)));
  });

  it.each([false, true])('in WebAssembly, keeps every pattern, sum and summary the TypeScript updates keep, over 10,000 positions (exactFive %s)', (exactFive) => {
    const random = seeded(exactFive ? 11 : 5);
    const core = new LinePatterns(exactFive);
    const typescript = new LinePatterns(exactFive, false);
    expect([core.inCore, typescript.inCore]).toEqual([true, false]);
    const placed: number[] = [];
    let positions = 0;
    while (positions < 10_000) {
      // Games' worth of stones anywhere on the board, edges included, taken back now and then.
      if (placed.length > 0 && (random(4) === 0 || placed.length > 150)) {
        const point = placed.splice(random(placed.length), 1)[0]!;
        core.remove(point);
        typescript.remove(point);
      } else {
        const point = random(POINTS);
        if (typescript.cells[point] !== EMPTY) continue;
        const stone = random(2) === 0 ? BLACK : WHITE;
        core.place(point, stone);
        typescript.place(point, stone);
        placed.push(point);
      }
      positions++;
      for (const stone of [BLACK, WHITE] as const) {
        if (core.value(stone) !== typescript.value(stone)) expect(core.value(stone), `value at position ${positions}`).toBe(typescript.value(stone));
      }
      if (positions % 50 === 0) {
        expect(snapshot(core), `position ${positions}`).toEqual(snapshot(typescript));
        expect(Array.from(core.cells)).toEqual(Array.from(typescript.cells));
        for (let point = 0; point < POINTS; point += 7) {
          for (let line = 0; line < LINES; line++) expect(core.pattern(point, line, BLACK) | (core.pattern(point, line, WHITE) << 4)).toBe(typescript.pattern(point, line, BLACK) | (typescript.pattern(point, line, WHITE) << 4));
        }
      }
    }
  });

  it('keeps its state in JavaScript when every WebAssembly slot is taken, and both play alike', () => {
    const held: LinePatterns[] = [];
    for (let i = 0; i <= CORE_SLOTS; i++) held.push(new LinePatterns(false));
    const inCore = held.filter((p) => p.inCore).length;
    expect(inCore).toBeLessThanOrEqual(CORE_SLOTS);
    expect(held.at(-1)!.inCore).toBe(false);
    const [first, last] = [held.find((p) => p.inCore)!, held.at(-1)!];
    for (const [point, stone] of [[112, BLACK], [113, WHITE], [127, BLACK], [142, BLACK], [128, WHITE]] as const) {
      first.place(point, stone);
      last.place(point, stone);
    }
    expect(snapshot(first)).toEqual(snapshot(last));
    // A slot given back is taken by the next one; the board that gave it keeps its state in JavaScript.
    first.release();
    expect(first.inCore).toBe(false);
    const next = new LinePatterns(false);
    expect(next.inCore).toBe(true);
    next.place(112, WHITE);
    for (const patterns of [first, last]) {
      patterns.remove(128);
      patterns.place(143, BLACK);
    }
    expect(snapshot(first)).toEqual(snapshot(last));
    expect(next.cells[112]).toBe(WHITE);
    expect(first.cells[112]).toBe(BLACK);
    const [free, taken] = [linesCore()!.freeSlots(), held.filter((p) => p.inCore).length + 1];
    held.forEach((p) => p.release());
    next.release();
    expect(linesCore()!.freeSlots()).toBe(free + taken);
  });
});
