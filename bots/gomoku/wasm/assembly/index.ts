// Gomoku's line patterns (`patterns.ts`, `LinePatterns`) as stones come and go: the state of each
// LinePatterns sits in a slot of this module's memory, which the TypeScript side reads in place
// through typed-array views; only `place` and `remove`, which write it, run here.

const POINTS: i32 = 225;
const LINES: i32 = 4;
const PATTERN_KINDS: i32 = 16;
const COMBO_KINDS: i32 = 4;
const BLACK: i32 = 1;
const WHITE: i32 = 2;

// A slot, in bytes from its start (the same figures as `SLOT` in patterns-core.ts, checked there).
const KEYS: usize = 0; // u32 per (point, line): the window's cells, two bits each
const MOVE_VALUES: usize = KEYS + 4 * POINTS * LINES; // i32 per (stone, point)
const TOTALS: usize = MOVE_VALUES + 4 * 3 * POINTS; // i32 per stone
const COUNTS: usize = TOTALS + 4 * 3; // i32 per (stone, pattern)
const COMBOS: usize = COUNTS + 4 * 3 * PATTERN_KINDS; // i32 per (stone, combination)
const CELLS: usize = COMBOS + 4 * 3 * COMBO_KINDS; // u8 per point
const THREATS: usize = CELLS + POINTS; // u8 per (stone, point)
const SLOT_BYTES: usize = (THREATS + 3 * POINTS + 15) & ~15;

// Tables the TypeScript side fills once (`tablePointers`): the pattern codes of both rules, their
// neighbour lists, and the small per-pattern tables.
const FREESTYLE_CODES = new StaticArray<u8>(1 << 16);
const EXACT_FIVE_CODES = new StaticArray<u8>(1 << 20);
const MAX_NEIGHBOURS: i32 = POINTS * LINES * 10;
const FREESTYLE_START = new StaticArray<i32>(POINTS + 1);
const FREESTYLE_SLOT = new StaticArray<i16>(MAX_NEIGHBOURS);
const FREESTYLE_SHIFT = new StaticArray<u8>(MAX_NEIGHBOURS);
const EXACT_FIVE_START = new StaticArray<i32>(POINTS + 1);
const EXACT_FIVE_SLOT = new StaticArray<i16>(MAX_NEIGHBOURS);
const EXACT_FIVE_SHIFT = new StaticArray<u8>(MAX_NEIGHBOURS);
const PATTERN_VALUE = new StaticArray<i32>(PATTERN_KINDS);
const THREAT_UNIT = new StaticArray<u8>(PATTERN_KINDS);
const COMBO_OF = new StaticArray<u8>(256);
const BLACK_MOVE_VALUE = new StaticArray<i32>(256);
const WHITE_MOVE_VALUE = new StaticArray<i32>(256);

export function slotBytes(): i32 {
  return <i32>SLOT_BYTES;
}

/** Where the TypeScript side writes the tables, in the order of `TABLES` in patterns-core.ts. */
export function tablePointers(): usize {
  const out = new StaticArray<u32>(13);
  out[0] = <u32>changetype<usize>(FREESTYLE_CODES);
  out[1] = <u32>changetype<usize>(EXACT_FIVE_CODES);
  out[2] = <u32>changetype<usize>(FREESTYLE_START);
  out[3] = <u32>changetype<usize>(FREESTYLE_SLOT);
  out[4] = <u32>changetype<usize>(FREESTYLE_SHIFT);
  out[5] = <u32>changetype<usize>(EXACT_FIVE_START);
  out[6] = <u32>changetype<usize>(EXACT_FIVE_SLOT);
  out[7] = <u32>changetype<usize>(EXACT_FIVE_SHIFT);
  out[8] = <u32>changetype<usize>(PATTERN_VALUE);
  out[9] = <u32>changetype<usize>(THREAT_UNIT);
  out[10] = <u32>changetype<usize>(COMBO_OF);
  out[11] = <u32>changetype<usize>(BLACK_MOVE_VALUE);
  out[12] = <u32>changetype<usize>(WHITE_MOVE_VALUE);
  return changetype<usize>(out);
}

/** Room for `count` slots, made once before any view of the memory is taken: the first slot's address. */
export function newSlots(count: i32): usize {
  return heap.alloc(SLOT_BYTES * <usize>count);
}

/** Both colours' patterns of a window key (black in the low four bits): freestyle's table drops the outer two cells. */
@inline function pairOf(key: u32, exactFive: bool): u32 {
  return exactFive ? <u32>unchecked(EXACT_FIVE_CODES[key & 0xfffff]) : <u32>unchecked(FREESTYLE_CODES[(key >>> 2) & 0xffff]);
}

@inline function pairAt(base: usize, at: i32, exactFive: bool): u32 {
  return pairOf(load<u32>(base + KEYS + (<usize>at << 2)), exactFive);
}

@inline function addTo(address: usize, delta: i32): void {
  store<i32>(address, load<i32>(address) + delta);
}

/** Adds (sign 1) or takes away (sign -1) an empty point's patterns from the board sums. */
@inline function addToTotals(base: usize, point: i32, sign: i32, exactFive: bool): void {
  for (let line = 0; line < LINES; line++) {
    const pair = pairAt(base, point * LINES + line, exactFive);
    const black = <i32>(pair & 15);
    const white = <i32>(pair >>> 4);
    addTo(base + TOTALS + 4 * BLACK, sign * unchecked(PATTERN_VALUE[black]));
    addTo(base + TOTALS + 4 * WHITE, sign * unchecked(PATTERN_VALUE[white]));
    addTo(base + COUNTS + 4 * (BLACK * PATTERN_KINDS + black), sign);
    addTo(base + COUNTS + 4 * (WHITE * PATTERN_KINDS + white), sign);
  }
  const black = BLACK * COMBO_KINDS + <i32>unchecked(COMBO_OF[load<u8>(base + THREATS + BLACK * POINTS + point)]);
  const white = WHITE * COMBO_KINDS + <i32>unchecked(COMBO_OF[load<u8>(base + THREATS + WHITE * POINTS + point)]);
  addTo(base + COMBOS + 4 * black, sign);
  addTo(base + COMBOS + 4 * white, sign);
}

/** An emptied point's threat summary and move values, from its four windows. */
@inline function summarisePoint(base: usize, point: i32, exactFive: bool): void {
  let black: i32 = 0;
  let white: i32 = 0;
  let blackValue: i32 = 0;
  let whiteValue: i32 = 0;
  for (let line = 0; line < LINES; line++) {
    const pair = pairAt(base, point * LINES + line, exactFive);
    black += unchecked(THREAT_UNIT[pair & 15]);
    white += unchecked(THREAT_UNIT[pair >>> 4]);
    blackValue += unchecked(BLACK_MOVE_VALUE[pair]);
    whiteValue += unchecked(WHITE_MOVE_VALUE[pair]);
  }
  store<u8>(base + THREATS + BLACK * POINTS + point, black);
  store<u8>(base + THREATS + WHITE * POINTS + point, white);
  store<i32>(base + MOVE_VALUES + 4 * (BLACK * POINTS + point), blackValue);
  store<i32>(base + MOVE_VALUES + 4 * (WHITE * POINTS + point), whiteValue);
}

/** One line of the empty `point` goes from pattern `was` to `now` for `stone`: its threat summary and the board sums. */
@inline function shiftPattern(base: usize, point: i32, stone: i32, was: i32, now: i32): void {
  const mine = base + THREATS + stone * POINTS + point;
  const threatsBefore = <i32>load<u8>(mine);
  const threatsAfter = threatsBefore + <i32>unchecked(THREAT_UNIT[now]) - <i32>unchecked(THREAT_UNIT[was]);
  store<u8>(mine, threatsAfter);
  addTo(base + TOTALS + 4 * stone, unchecked(PATTERN_VALUE[now]) - unchecked(PATTERN_VALUE[was]));
  addTo(base + COUNTS + 4 * (stone * PATTERN_KINDS + was), -1);
  addTo(base + COUNTS + 4 * (stone * PATTERN_KINDS + now), 1);
  if (threatsAfter != threatsBefore) {
    addTo(base + COMBOS + 4 * (stone * COMBO_KINDS + <i32>unchecked(COMBO_OF[threatsBefore])), -1);
    addTo(base + COMBOS + 4 * (stone * COMBO_KINDS + <i32>unchecked(COMBO_OF[threatsAfter])), 1);
  }
}

/** Writes `code` for `point` into its line neighbours' windows, and moves the empty ones' patterns in the sums. */
@inline function updateLines(base: usize, point: i32, code: u32, exactFive: bool): void {
  const start = exactFive ? EXACT_FIVE_START : FREESTYLE_START;
  const slots = changetype<usize>(exactFive ? EXACT_FIVE_SLOT : FREESTYLE_SLOT);
  const shifts = changetype<usize>(exactFive ? EXACT_FIVE_SHIFT : FREESTYLE_SHIFT);
  const end = unchecked(start[point + 1]);
  for (let i = unchecked(start[point]); i < end; i++) {
    const at = <i32>load<i16>(slots + (<usize>i << 1));
    const shift = <u32>load<u8>(shifts + <usize>i);
    const keyAddress = base + KEYS + (<usize>at << 2);
    const before = load<u32>(keyAddress);
    const after = (before & ~(<u32>3 << shift)) | (code << shift);
    store<u32>(keyAddress, after);
    const neighbour = at >>> 2;
    if (load<u8>(base + CELLS + neighbour) != 0) continue;
    const pairBefore = pairOf(before, exactFive);
    const pairAfter = pairOf(after, exactFive);
    if (pairBefore == pairAfter) continue;
    addTo(base + MOVE_VALUES + 4 * (BLACK * POINTS + neighbour), unchecked(BLACK_MOVE_VALUE[pairAfter]) - unchecked(BLACK_MOVE_VALUE[pairBefore]));
    addTo(base + MOVE_VALUES + 4 * (WHITE * POINTS + neighbour), unchecked(WHITE_MOVE_VALUE[pairAfter]) - unchecked(WHITE_MOVE_VALUE[pairBefore]));
    const changed = pairBefore ^ pairAfter;
    if ((changed & 15) != 0) shiftPattern(base, neighbour, BLACK, <i32>(pairBefore & 15), <i32>(pairAfter & 15));
    if (changed >>> 4 != 0) shiftPattern(base, neighbour, WHITE, <i32>(pairBefore >>> 4), <i32>(pairAfter >>> 4));
  }
}

// Each rule's code is made apart (the helpers are inlined with `exactFive` a constant), so that
// no test of the rule is left in the loops.
export function place(base: usize, point: i32, stone: i32, exactFive: bool): void {
  if (exactFive) placeUnder(base, point, stone, true);
  else placeUnder(base, point, stone, false);
}

export function remove(base: usize, point: i32, exactFive: bool): void {
  if (exactFive) removeUnder(base, point, true);
  else removeUnder(base, point, false);
}

@inline function placeUnder(base: usize, point: i32, stone: i32, exactFive: bool): void {
  addToTotals(base, point, -1, exactFive);
  store<u8>(base + CELLS + point, stone);
  updateLines(base, point, stone, exactFive);
}

@inline function removeUnder(base: usize, point: i32, exactFive: bool): void {
  store<u8>(base + CELLS + point, 0);
  updateLines(base, point, 0, exactFive);
  summarisePoint(base, point, exactFive);
  addToTotals(base, point, 1, exactFive);
}
