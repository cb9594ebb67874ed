/**
 * Stable discs, counted as `bots/othello/stability.ts` counts them (its port to u64 boards): the
 * edge discs the edge table calls stable, the discs whose four lines are all full, then,
 * repeatedly, any disc that on each of its four lines has a full line, the board's edge, or a
 * stable disc of its own colour beside it.
 */

const WEST_EDGE: u64 = 0x0101010101010101;
const NOT_WEST: u64 = 0xfefefefefefefefe;
const NOT_EAST: u64 = 0x7f7f7f7f7f7f7f7f;
const BORDER: u64 = 0xff818181818181ff;

/** `EDGE_STABLE[p * 256 + o]`: the discs of an 8-square edge that no placement on it could ever flip. */
const EDGE_STABLE = new StaticArray<u8>(256 * 256);

/** The discs of `o` that `p` placing on `x` flips along an 8-square line. */
function lineFlips(p: i32, o: i32, x: i32): i32 {
  let flipped = 0;
  for (let step = -1; step <= 1; step += 2) {
    let run = 0;
    let i = x + step;
    while (i >= 0 && i < 8 && o & (1 << i)) {
      run |= 1 << i;
      i += step;
    }
    if (i >= 0 && i < 8 && p & (1 << i)) flipped |= run;
  }
  return flipped;
}

// Fullest edges first: every placement leads to a fuller edge, which is already done.
for (let empties = 0; empties <= 8; empties++) {
  for (let p = 0; p < 256; p++) {
    for (let o = 0; o < 256; o++) {
      if (p & o || 8 - <i32>popcnt(p | o) != empties) continue;
      let stable = p | o;
      for (let x = 0; x < 8 && stable != 0; x++) {
        if ((p | o) & (1 << x)) continue;
        const byP = lineFlips(p, o, x);
        stable &= ~byP & EDGE_STABLE[((p | byP | (1 << x)) << 8) | (o & ~byP)];
        const byO = lineFlips(o, p, x);
        stable &= ~byO & EDGE_STABLE[((p & ~byO) << 8) | (o | byO | (1 << x))];
      }
      EDGE_STABLE[(p << 8) | o] = <u8>stable;
    }
  }
}

/** Each 8-bit column (bit k for row k) spread back onto column a. */
const COLUMN_A = new StaticArray<u64>(256);
for (let bits = 0; bits < 256; bits++) {
  let column: u64 = 0;
  for (let row = 0; row < 8; row++) if (bits & (1 << row)) column |= (<u64>1) << <u64>(row * 8);
  COLUMN_A[bits] = column;
}

/** Column `col` (0–7) as 8 bits, bit k for row k. */
// @ts-ignore: decorator
@inline
function column(discs: u64, col: i32): i32 {
  return <i32>((((discs >> <u64>col) & WEST_EDGE) * 0x0102040810204080) >> 56);
}

/** The full rows of `occupied`, as squares. */
// @ts-ignore: decorator
@inline
function fullRows(occupied: u64): u64 {
  let x = occupied;
  x &= x >> 1;
  x &= x >> 2;
  x &= x >> 4;
  return (x & WEST_EDGE) * 0xff;
}

/**
 * The squares on full diagonals of step `step`: the empty squares spread both ways along them
 * (Kogge-Stone, 1, 2 then 4 steps at a time), and what they do not reach. `toHigher` keeps a
 * step toward higher bits from wrapping round an edge, `toLower` one toward lower bits.
 */
// @ts-ignore: decorator
@inline
function fullDiagonals(occupied: u64, step: u64, toHigher: u64, toLower: u64): u64 {
  let up = ~occupied;
  let down = up;
  const higher2 = toHigher & (toHigher << step);
  const lower2 = toLower & (toLower >> step);
  up |= toHigher & (up << step);
  down |= toLower & (down >> step);
  up |= higher2 & (up << (step << 1));
  down |= lower2 & (down >> (step << 1));
  up |= higher2 & (higher2 << (step << 1)) & (up << (step << 2));
  down |= lower2 & (lower2 >> (step << 1)) & (down >> (step << 2));
  return ~(up | down);
}

/** The number of stable discs of `player`. */
export function stableCount(player: u64, opponent: u64): i32 {
  const occupied = player | opponent;
  const rowFull = fullRows(occupied);
  let cols = occupied;
  cols &= cols >> 32;
  cols &= cols >> 16;
  cols &= cols >> 8;
  const colFull = (cols & 0xff) * WEST_EDGE;
  const d9Full = fullDiagonals(occupied, 9, NOT_WEST, NOT_EAST);
  const d7Full = fullDiagonals(occupied, 7, NOT_EAST, NOT_WEST);

  const top = <u64>unchecked(EDGE_STABLE[(<i32>(player & 0xff) << 8) | <i32>(opponent & 0xff)]);
  const bottom = <u64>unchecked(EDGE_STABLE[(<i32>(player >> 56) << 8) | <i32>(opponent >> 56)]);
  const left = unchecked(EDGE_STABLE[(column(player, 0) << 8) | column(opponent, 0)]);
  const right = unchecked(EDGE_STABLE[(column(player, 7) << 8) | column(opponent, 7)]);
  let stable = (top | (bottom << 56) | unchecked(COLUMN_A[left]) | (unchecked(COLUMN_A[right]) << 7)) & player;
  stable |= player & rowFull & colFull & d9Full & d7Full;

  // Spread: safe along an axis where the line is full, at the board's edge, or beside a stable disc.
  const safeRow = rowFull | 0x8181818181818181;
  const safeCol = colFull | 0xff000000000000ff;
  const safeD9 = d9Full | BORDER;
  const safeD7 = d7Full | BORDER;
  const candidates = player & ~stable;
  if (candidates != 0 && stable != 0) {
    for (;;) {
      const h = ((stable << 1) & NOT_WEST) | ((stable >> 1) & NOT_EAST) | safeRow;
      const v = (stable << 8) | (stable >> 8) | safeCol;
      const a = ((stable << 9) & NOT_WEST) | ((stable >> 9) & NOT_EAST) | safeD9;
      const b = ((stable << 7) & NOT_EAST) | ((stable >> 7) & NOT_WEST) | safeD7;
      const added = candidates & h & v & a & b & ~stable;
      if (added == 0) break;
      stable |= added;
    }
  }
  return <i32>popcnt(stable);
}
