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

  // South-east and north-west (±9).
  {
    let fl = mLo & (pLo << 9);
    let fh = mHi & ((pHi << 9) | (pLo >>> 23));
    let rl = mLo & ((pLo >>> 9) | (pHi << 23));
    let rh = mHi & (pHi >>> 9);
    fh |= mHi & ((fh << 9) | (fl >>> 23));
    fl |= mLo & (fl << 9);
    rl |= mLo & ((rl >>> 9) | (rh << 23));
    rh |= mHi & (rh >>> 9);
    const preL = mLo & (mLo << 9);
    const preH = mHi & ((mHi << 9) | (mLo >>> 23));
    const preRL = (preL >>> 9) | (preH << 23);
    const preRH = preH >>> 9;
    fh |= preH & ((fh << 18) | (fl >>> 14));
    fl |= preL & (fl << 18);
    rl |= preRL & ((rl >>> 18) | (rh << 14));
    rh |= preRH & (rh >>> 18);
    fh |= preH & ((fh << 18) | (fl >>> 14));
    fl |= preL & (fl << 18);
    rl |= preRL & ((rl >>> 18) | (rh << 14));
    rh |= preRH & (rh >>> 18);
    lo |= (fl << 9) | (rl >>> 9) | (rh << 23);
    hi |= (fh << 9) | (fl >>> 23) | (rh >>> 9);
  }

  // South-west and north-east (±7).
  {
    let fl = mLo & (pLo << 7);
    let fh = mHi & ((pHi << 7) | (pLo >>> 25));
    let rl = mLo & ((pLo >>> 7) | (pHi << 25));
    let rh = mHi & (pHi >>> 7);
    fh |= mHi & ((fh << 7) | (fl >>> 25));
    fl |= mLo & (fl << 7);
    rl |= mLo & ((rl >>> 7) | (rh << 25));
    rh |= mHi & (rh >>> 7);
    const preL = mLo & (mLo << 7);
    const preH = mHi & ((mHi << 7) | (mLo >>> 25));
    const preRL = (preL >>> 7) | (preH << 25);
    const preRH = preH >>> 7;
    fh |= preH & ((fh << 14) | (fl >>> 18));
    fl |= preL & (fl << 14);
    rl |= preRL & ((rl >>> 14) | (rh << 18));
    rh |= preRH & (rh >>> 14);
    fh |= preH & ((fh << 14) | (fl >>> 18));
    fl |= preL & (fl << 14);
    rl |= preRL & ((rl >>> 14) | (rh << 18));
    rh |= preRH & (rh >>> 14);
    lo |= (fl << 7) | (rl >>> 7) | (rh << 25);
    hi |= (fh << 7) | (fl >>> 25) | (rh >>> 7);
  }

  out[0] = hi & emptyHi;
  out[1] = lo & emptyLo;
}

export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/** The lowest square of a set that is not empty (two 32-bit halves). */
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
