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

/** The 15 diagonals running down-right (step 9), then the 15 running down-left (step 7). */
const DIAGONALS = new StaticArray<u64>(30);
{
  let n = 0;
  for (let down = 0; down < 2; down++) {
    const colStep = down == 0 ? 1 : -1;
    for (let start = 0; start < 64; start++) {
      const row = start >> 3;
      const col = start & 7;
      if (row != 0 && col != (down == 0 ? 0 : 7)) continue;
      let line: u64 = 0;
      for (let r = row, c = col; r < 8 && c >= 0 && c < 8; r++, c += colStep) line |= (<u64>1) << <u64>(r * 8 + c);
      DIAGONALS[n++] = line;
    }
  }
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

/** The number of stable discs of `player`. */
export function stableCount(player: u64, opponent: u64): i32 {
  const occupied = player | opponent;
  const rowFull = fullRows(occupied);
  let cols = occupied;
  cols &= cols >> 32;
  cols &= cols >> 16;
  cols &= cols >> 8;
  const colFull = (cols & 0xff) * WEST_EDGE;
  let d9Full: u64 = 0;
  let d7Full: u64 = 0;
  for (let i = 0; i < 15; i++) {
    const d9 = unchecked(DIAGONALS[i]);
    if ((occupied & d9) == d9) d9Full |= d9;
    const d7 = unchecked(DIAGONALS[15 + i]);
    if ((occupied & d7) == d7) d7Full |= d7;
  }

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
