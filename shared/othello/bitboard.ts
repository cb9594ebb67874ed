/**
 * Othello bitboards as two 32-bit halves: bit `row * 8 + col` (a1 = bit 0, the top-left corner),
 * `lo` holds rows 0–3 and `hi` rows 4–7. JavaScript's bitwise operators work on 32-bit integers,
 * and BigInt is far slower, so every 64-bit operation is written out on the two halves.
 */

/** Columns b–g: a run of discs that wraps from one row's edge to the next must stop here. */
const INNER = 0x7e7e7e7e;

/**
 * The squares where `P` (the side to move) may place a disc against `O`, written to
 * `out[0]` (hi) and `out[1]` (lo). Each direction is a parallel-prefix fill of opponent runs.
 */
export function moves(pHi: number, pLo: number, oHi: number, oLo: number, out: Int32Array): void {
  const emptyHi = ~(pHi | oHi);
  const emptyLo = ~(pLo | oLo);
  const mHi = oHi & INNER;
  const mLo = oLo & INNER;
  let hi = 0;
  let lo = 0;

  // East and west (±1) never carry between the halves: the inner mask cuts row wraps.
  {
    let fl = mLo & (pLo << 1);
    let fh = mHi & (pHi << 1);
    let rl = mLo & (pLo >>> 1);
    let rh = mHi & (pHi >>> 1);
    fl |= mLo & (fl << 1);
    fh |= mHi & (fh << 1);
    rl |= mLo & (rl >>> 1);
    rh |= mHi & (rh >>> 1);
    const preL = mLo & (mLo << 1);
    const preH = mHi & (mHi << 1);
    const preRL = preL >>> 1;
    const preRH = preH >>> 1;
    fl |= preL & (fl << 2);
    fh |= preH & (fh << 2);
    rl |= preRL & (rl >>> 2);
    rh |= preRH & (rh >>> 2);
    fl |= preL & (fl << 2);
    fh |= preH & (fh << 2);
    rl |= preRL & (rl >>> 2);
    rh |= preRH & (rh >>> 2);
    lo |= (fl << 1) | (rl >>> 1);
    hi |= (fh << 1) | (rh >>> 1);
  }

  // South and north (±8): full opponent mask.
  {
    let fl = oLo & (pLo << 8);
    let fh = oHi & ((pHi << 8) | (pLo >>> 24));
    let rl = oLo & ((pLo >>> 8) | (pHi << 24));
    let rh = oHi & (pHi >>> 8);
    fl |= oLo & (fl << 8);
    fh |= oHi & ((fh << 8) | (fl >>> 24));
    rh |= oHi & (rh >>> 8);
    rl |= oLo & ((rl >>> 8) | (rh << 24));
    const preL = oLo & (oLo << 8);
    const preH = oHi & ((oHi << 8) | (oLo >>> 24));
    const preRL = (preL >>> 8) | (preH << 24);
    const preRH = preH >>> 8;
    fh |= preH & ((fh << 16) | (fl >>> 16));
    fl |= preL & (fl << 16);
    rl |= preRL & ((rl >>> 16) | (rh << 16));
    rh |= preRH & (rh >>> 16);
    fh |= preH & ((fh << 16) | (fl >>> 16));
    fl |= preL & (fl << 16);
    rl |= preRL & ((rl >>> 16) | (rh << 16));
    rh |= preRH & (rh >>> 16);
    lo |= (fl << 8) | (rl >>> 8) | (rh << 24);
    hi |= (fh << 8) | (fl >>> 24) | (rh >>> 8);
  }

  // The diagonals, south-east and north-west (±9), south-west and north-east (±7).
  diagonalMoves(pHi, pLo, mHi, mLo, 9);
  hi |= diagonal[0]!;
  lo |= diagonal[1]!;
  diagonalMoves(pHi, pLo, mHi, mLo, 7);
  hi |= diagonal[0]!;
  lo |= diagonal[1]!;

  out[0] = hi & emptyHi;
  out[1] = lo & emptyLo;
}

/** Written by `diagonalMoves`: hi half in [0], lo half in [1]. */
const diagonal = new Int32Array(2);

/**
 * The squares past a run of `m` (the opponent's inner discs) from `P` along ±`step` (7 or 9,
 * the diagonals, which carry between the halves), not yet masked by the empties.
 */
function diagonalMoves(pHi: number, pLo: number, mHi: number, mLo: number, step: number): void {
  const carry = 32 - step;
  const step2 = 2 * step;
  const carry2 = 32 - step2;
  let fl = mLo & (pLo << step);
  let fh = mHi & ((pHi << step) | (pLo >>> carry));
  let rl = mLo & ((pLo >>> step) | (pHi << carry));
  let rh = mHi & (pHi >>> step);
  fh |= mHi & ((fh << step) | (fl >>> carry));
  fl |= mLo & (fl << step);
  rl |= mLo & ((rl >>> step) | (rh << carry));
  rh |= mHi & (rh >>> step);
  const preL = mLo & (mLo << step);
  const preH = mHi & ((mHi << step) | (mLo >>> carry));
  const preRL = (preL >>> step) | (preH << carry);
  const preRH = preH >>> step;
  fh |= preH & ((fh << step2) | (fl >>> carry2));
  fl |= preL & (fl << step2);
  rl |= preRL & ((rl >>> step2) | (rh << carry2));
  rh |= preRH & (rh >>> step2);
  fh |= preH & ((fh << step2) | (fl >>> carry2));
  fl |= preL & (fl << step2);
  rl |= preRL & ((rl >>> step2) | (rh << carry2));
  rh |= preRH & (rh >>> step2);
  diagonal[0] = (fh << step) | (fl >>> carry) | (rh >>> step);
  diagonal[1] = (fl << step) | (rl >>> step) | (rh << carry);
}

export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** The lowest square of a set that is not empty (two 32-bit halves): the lo half's first, else the hi half's. */
export function lowestSquare(hi: number, lo: number): number {
  return lo !== 0 ? 31 - Math.clz32(lo & -lo) : 63 - Math.clz32(hi & -hi);
}

/** Writes the squares of a set (two 32-bit halves), low squares first, from `out[offset]`; returns how many. */
export function writeSquares(hi: number, lo: number, out: Int32Array, offset: number): number {
  let n = offset;
  while (lo !== 0) {
    const bit = lo & -lo;
    out[n++] = 31 - Math.clz32(bit);
    lo ^= bit;
  }
  while (hi !== 0) {
    const bit = hi & -hi;
    out[n++] = 63 - Math.clz32(bit);
    hi ^= bit;
  }
  return n - offset;
}
