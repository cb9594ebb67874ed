/**
 * What a move flips, by lines ("kindergarten" flips, after Edax's flip_kindergarten.c): the row,
 * column and two diagonals through a square are each gathered into 8 bits, two small tables say
 * which of them flip, and the result is scattered back. No loop over directions and no branch on
 * the data: about 1.5 times faster than walking the eight rays. The one flip rule of the
 * project: the board, perft and the endgame solver all call it.
 */

/**
 * `OUTFLANK[x * 64 + inner]`: for a disc placed at `x` (0–7) on a line whose opponent discs are
 * `inner << 1`, the squares just past each run of opponent discs next to `x`; one of them holding
 * a disc of the mover means that run flips.
 */
const OUTFLANK = new Uint8Array(8 * 64);
/** `FLIPPED[x * 256 + outflank]`: the squares between `x` and the outflanking discs. */
const FLIPPED = new Uint8Array(8 * 256);
/** `FLIP_COUNT[x * 256 + outflank]`: how many squares `FLIPPED` holds. */
const FLIP_COUNT = new Uint8Array(8 * 256);
/** Four bits of a column, one per row of a half, spread to bits 0, 8, 16, 24. */
const SPREAD = new Int32Array(16);
/** The two diagonals through each square, as masks of each half. */
const DIAG9_HI = new Int32Array(64); // a1–h8 direction (+9)
const DIAG9_LO = new Int32Array(64);
const DIAG7_HI = new Int32Array(64); // h1–a8 direction (+7)
const DIAG7_LO = new Int32Array(64);

for (let x = 0; x < 8; x++) {
  for (let inner = 0; inner < 64; inner++) {
    const o = inner << 1;
    let outflank = 0;
    let i = x + 1;
    while (i < 8 && o & (1 << i)) i++;
    if (i < 8 && i > x + 1) outflank |= 1 << i;
    i = x - 1;
    while (i >= 0 && o & (1 << i)) i--;
    if (i >= 0 && i < x - 1) outflank |= 1 << i;
    OUTFLANK[x * 64 + inner] = outflank;
  }
  for (let outflank = 0; outflank < 256; outflank++) {
    let flipped = 0;
    for (let i = x + 1; i < 8; i++) {
      if (outflank & (1 << i)) {
        for (let j = x + 1; j < i; j++) flipped |= 1 << j;
        break;
      }
    }
    for (let i = x - 1; i >= 0; i--) {
      if (outflank & (1 << i)) {
        for (let j = i + 1; j < x; j++) flipped |= 1 << j;
        break;
      }
    }
    FLIPPED[x * 256 + outflank] = flipped;
    let n = 0;
    for (let b = flipped; b !== 0; b &= b - 1) n++;
    FLIP_COUNT[x * 256 + outflank] = n;
  }
}
for (let bits = 0; bits < 16; bits++) {
  for (let k = 0; k < 4; k++) if (bits & (1 << k)) SPREAD[bits]! |= 1 << (8 * k);
}
for (let square = 0; square < 64; square++) {
  const row = square >> 3;
  const col = square & 7;
  for (let r = 0; r < 8; r++) {
    const c9 = col + (r - row);
    const c7 = col - (r - row);
    if (c9 >= 0 && c9 < 8) {
      const s = r * 8 + c9;
      if (s < 32) DIAG9_LO[square]! |= 1 << s;
      else DIAG9_HI[square]! |= 1 << (s - 32);
    }
    if (c7 >= 0 && c7 < 8) {
      const s = r * 8 + c7;
      if (s < 32) DIAG7_LO[square]! |= 1 << s;
      else DIAG7_HI[square]! |= 1 << (s - 32);
    }
  }
}

/**
 * At most one bit per column (a diagonal has one square in each): the columns gathered into one
 * byte, since the product adds the four bytes without a carry.
 */
function byColumn(x: number): number {
  return Math.imul(x, 0x01010101) >>> 24;
}

/** Written by `flip`: the discs that flip, hi half in [0], lo half in [1]. */
export const flipped = new Int32Array(2);

/** The discs that a `P` disc on the empty `square` flips, written to `flipped` (none: not a legal move). */
export function flip(pHi: number, pLo: number, oHi: number, oLo: number, square: number): void {
  const row = square >> 3;
  const col = square & 7;
  let hi = 0;
  let lo = 0;

  const rowShift = (row & 3) << 3;
  const rowP = row < 4 ? pLo >>> rowShift : pHi >>> rowShift;
  const rowO = row < 4 ? oLo >>> rowShift : oHi >>> rowShift;
  const rowFlips = FLIPPED[(col << 8) | (OUTFLANK[(col << 6) | ((rowO >>> 1) & 63)]! & rowP)]! << rowShift;
  if (row < 4) lo = rowFlips;
  else hi = rowFlips;

  // P's column bits at 0, 8, 16, 24 and O's at 4, 12, 20, 28: one product gathers both.
  const colLo = Math.imul(((pLo >>> col) & 0x01010101) | (((oLo >>> col) & 0x01010101) << 4), 0x01020408) >>> 24;
  const colHi = Math.imul(((pHi >>> col) & 0x01010101) | (((oHi >>> col) & 0x01010101) << 4), 0x01020408) >>> 24;
  const colP = (colLo & 15) | ((colHi & 15) << 4);
  const colO = (colLo >>> 4) | (colHi & 0xf0);
  const colFlips = FLIPPED[(row << 8) | (OUTFLANK[(row << 6) | ((colO >>> 1) & 63)]! & colP)]!;
  lo |= SPREAD[colFlips & 15]! << col;
  hi |= SPREAD[colFlips >>> 4]! << col;

  const d9Hi = DIAG9_HI[square]!;
  const d9Lo = DIAG9_LO[square]!;
  const d9P = byColumn((pLo & d9Lo) | (pHi & d9Hi));
  const d9O = byColumn((oLo & d9Lo) | (oHi & d9Hi));
  const d9Flips = Math.imul(FLIPPED[(col << 8) | (OUTFLANK[(col << 6) | ((d9O >>> 1) & 63)]! & d9P)]!, 0x01010101);
  lo |= d9Flips & d9Lo;
  hi |= d9Flips & d9Hi;

  const d7Hi = DIAG7_HI[square]!;
  const d7Lo = DIAG7_LO[square]!;
  const d7P = byColumn((pLo & d7Lo) | (pHi & d7Hi));
  const d7O = byColumn((oLo & d7Lo) | (oHi & d7Hi));
  const d7Flips = Math.imul(FLIPPED[(col << 8) | (OUTFLANK[(col << 6) | ((d7O >>> 1) & 63)]! & d7P)]!, 0x01010101);
  lo |= d7Flips & d7Lo;
  hi |= d7Flips & d7Hi;

  flipped[0] = hi;
  flipped[1] = lo;
}

/** How many discs a `P` disc on the empty `square` flips, without saying which (the last move of a game). */
export function countFlips(pHi: number, pLo: number, oHi: number, oLo: number, square: number): number {
  const row = square >> 3;
  const col = square & 7;
  const rowShift = (row & 3) << 3;
  const rowP = row < 4 ? pLo >>> rowShift : pHi >>> rowShift;
  const rowO = row < 4 ? oLo >>> rowShift : oHi >>> rowShift;
  let n = FLIP_COUNT[(col << 8) | (OUTFLANK[(col << 6) | ((rowO >>> 1) & 63)]! & rowP)]!;

  // P's column bits at 0, 8, 16, 24 and O's at 4, 12, 20, 28: one product gathers both.
  const colLo = Math.imul(((pLo >>> col) & 0x01010101) | (((oLo >>> col) & 0x01010101) << 4), 0x01020408) >>> 24;
  const colHi = Math.imul(((pHi >>> col) & 0x01010101) | (((oHi >>> col) & 0x01010101) << 4), 0x01020408) >>> 24;
  const colP = (colLo & 15) | ((colHi & 15) << 4);
  const colO = (colLo >>> 4) | (colHi & 0xf0);
  n += FLIP_COUNT[(row << 8) | (OUTFLANK[(row << 6) | ((colO >>> 1) & 63)]! & colP)]!;

  const d9Hi = DIAG9_HI[square]!;
  const d9Lo = DIAG9_LO[square]!;
  const d9P = byColumn((pLo & d9Lo) | (pHi & d9Hi));
  const d9O = byColumn((oLo & d9Lo) | (oHi & d9Hi));
  n += FLIP_COUNT[(col << 8) | (OUTFLANK[(col << 6) | ((d9O >>> 1) & 63)]! & d9P)]!;

  const d7Hi = DIAG7_HI[square]!;
  const d7Lo = DIAG7_LO[square]!;
  const d7P = byColumn((pLo & d7Lo) | (pHi & d7Hi));
  const d7O = byColumn((oLo & d7Lo) | (oHi & d7Hi));
  n += FLIP_COUNT[(col << 8) | (OUTFLANK[(col << 6) | ((d7O >>> 1) & 63)]! & d7P)]!;
  return n;
}
