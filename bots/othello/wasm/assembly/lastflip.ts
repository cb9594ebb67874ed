/**
 * The number of discs the last move flips, on a board full but for its square: every other
 * square is the mover's or the opponent's, so the mover's discs alone decide. Each of the four
 * lines through the square is gathered into 8 bits (one per column, or per row for the column)
 * and a table gives its flips; squares off a short diagonal read as 0, ends without a mover's
 * disc, so they flip nothing.
 */

/** `LINE_FLIPS[x * 256 + line]`: the discs a mover placing at `x` flips, `line` its discs on the line. */
const LINE_FLIPS = new StaticArray<u8>(8 * 256);
for (let x = 0; x < 8; x++) {
  for (let line = 0; line < 256; line++) {
    let count = 0;
    for (let step = -1; step <= 1; step += 2) {
      let i = x + step;
      while (i >= 0 && i < 8 && !(line & (1 << i))) i += step;
      if (i >= 0 && i < 8) count += (i - x) * step - 1;
    }
    LINE_FLIPS[(x << 8) | line] = <u8>count;
  }
}

/** `DIAGONALS_THROUGH[square * 2]`: the down-right diagonal through the square, then the down-left one. */
const DIAGONALS_THROUGH = new StaticArray<u64>(128);
for (let square = 0; square < 64; square++) {
  for (let d = 0; d < 2; d++) {
    const colStep = d == 0 ? 1 : -1;
    let line: u64 = 0;
    for (let k = -7; k <= 7; k++) {
      const r = (square >> 3) + k;
      const c = (square & 7) + k * colStep;
      if (r >= 0 && r < 8 && c >= 0 && c < 8) line |= (<u64>1) << <u64>(r * 8 + c);
    }
    DIAGONALS_THROUGH[square * 2 + d] = line;
  }
}

/** Discs `mover` flips by playing the board's only empty square, `square`. */
// @ts-ignore: decorator
@inline
export function lastFlipCount(mover: u64, square: i32): i32 {
  const table = changetype<usize>(LINE_FLIPS);
  const diagonals = changetype<usize>(DIAGONALS_THROUGH) + (<usize>square << 4);
  const col = <u64>(square & 7);
  const row = <u64>(square >> 3);
  const atCol = table + (<usize>col << 8);
  const rowLine = (mover >> (row << 3)) & 0xff;
  const colLine = (((mover >> col) & 0x0101010101010101) * 0x0102040810204080) >> 56;
  const d9Line = ((mover & load<u64>(diagonals)) * 0x0101010101010101) >> 56;
  const d7Line = ((mover & load<u64>(diagonals, 8)) * 0x0101010101010101) >> 56;
  return (
    <i32>load<u8>(atCol + <usize>rowLine) +
    <i32>load<u8>(table + (<usize>row << 8) + <usize>colLine) +
    <i32>load<u8>(atCol + <usize>d9Line) +
    <i32>load<u8>(atCol + <usize>d7Line)
  );
}
