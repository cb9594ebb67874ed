import { describe, expect, it } from 'vitest';
import { popcount } from './bitboard.js';
import { countFlips, flip, flipped } from './flip.js';
import { mulberry32 } from '../random.js';

/** The rule as written: walk each of the 8 directions square by square. */
function flipsByWalking(pHi: number, pLo: number, oHi: number, oLo: number, square: number, out: Int32Array): void {
  const has = (hi: number, lo: number, s: number): boolean => ((s < 32 ? lo >>> s : hi >>> (s - 32)) & 1) === 1;
  let hi = 0;
  let lo = 0;
  for (const [dr, dc] of [[0, 1], [1, 1], [1, 0], [1, -1], [0, -1], [-1, -1], [-1, 0], [-1, 1]] as const) {
    const run: number[] = [];
    let r = (square >> 3) + dr;
    let c = (square & 7) + dc;
    while (r >= 0 && r < 8 && c >= 0 && c < 8 && has(oHi, oLo, r * 8 + c)) {
      run.push(r * 8 + c);
      r += dr;
      c += dc;
    }
    if (run.length > 0 && r >= 0 && r < 8 && c >= 0 && c < 8 && has(pHi, pLo, r * 8 + c)) {
      for (const s of run) {
        if (s < 32) lo |= 1 << s;
        else hi |= 1 << (s - 32);
      }
    }
  }
  out[0] = hi;
  out[1] = lo;
}

describe('line flips', () => {
  it('agree with a square-by-square walk on every empty square of random boards', () => {
    const random = mulberry32(40);
    const reference = new Int32Array(2);
    let legal = 0;
    const mismatches: string[] = [];
    for (let i = 0; i < 1000; i++) {
      // Dense boards (each square a disc with probability 3/4) so most rays are long.
      const filledHi = random() | random();
      const filledLo = random() | random();
      const split = i % 2 ? random() : random() & random();
      const pHi = filledHi & split;
      const pLo = filledLo & split;
      const oHi = filledHi & ~split;
      const oLo = filledLo & ~split;
      for (let square = 0; square < 64; square++) {
        const occupied = square < 32 ? (filledLo >>> square) & 1 : (filledHi >>> (square - 32)) & 1;
        if (occupied) continue;
        flipsByWalking(pHi, pLo, oHi, oLo, square, reference);
        flip(pHi, pLo, oHi, oLo, square);
        const count = countFlips(pHi, pLo, oHi, oLo, square);
        if (flipped[0] !== reference[0] || flipped[1] !== reference[1] || count !== popcount(reference[0]!) + popcount(reference[1]!)) {
          mismatches.push(`board ${i} square ${square}`);
        }
        if (reference[0]! | reference[1]!) legal++;
      }
    }
    expect(mismatches).toEqual([]);
    expect(legal).toBeGreaterThan(1000);
  });

  it.each([
    // [description, P squares, O squares, square played, squares flipped]
    ['a row to the east', [3], [1, 2], 0, [1, 2]],
    ['a column across the halves', [48], [40, 32, 24], 16, [24, 32, 40]],
    ['the long diagonal', [63], [9, 18, 27, 36, 45, 54], 0, [9, 18, 27, 36, 45, 54]],
    ['the other diagonal', [56], [14, 21, 28, 35, 42, 49], 7, [14, 21, 28, 35, 42, 49]],
    ['nothing when the run reaches the edge', [], [1, 2, 3, 4, 5, 6, 7], 0, []],
  ])('%s', (_name, p, o, square, expected) => {
    const bits = (squares: number[]): [number, number] => {
      let hi = 0;
      let lo = 0;
      for (const s of squares) {
        if (s < 32) lo |= 1 << s;
        else hi |= 1 << (s - 32);
      }
      return [hi, lo];
    };
    const [pHi, pLo] = bits(p);
    const [oHi, oLo] = bits(o);
    flip(pHi, pLo, oHi, oLo, square);
    expect([flipped[0], flipped[1]]).toEqual(bits(expected));
  });
});
