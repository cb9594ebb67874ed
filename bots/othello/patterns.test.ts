import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { moves, popcount } from '../../shared/othello/bitboard.js';
import { mulberry32 } from '../../shared/random.js';
import { decodeWeights, encodeWeights, evaluateLearned, STAGE_WEIGHTS, STAGES, useWeights } from './learned-eval.js';
import { canonicalIndices, INSTANCE_COUNT, PATTERN_FAMILIES, PATTERN_WEIGHTS, patternIndices } from './patterns.js';

type Discs = { p: bigint; o: bigint };


const halves = (x: bigint): [number, number] => [Number(x >> 32n) | 0, Number(x & 0xffffffffn) | 0];

/** One of the board's eight symmetries applied to a bitboard. */
function transform(x: bigint, symmetry: number): bigint {
  let out = 0n;
  for (let sq = 0; sq < 64; sq++) {
    if (!((x >> BigInt(sq)) & 1n)) continue;
    const r = sq >> 3;
    const c = sq & 7;
    const [tr, tc] = [
      [r, c], [c, 7 - r], [7 - r, 7 - c], [7 - c, r], [r, 7 - c], [c, r], [7 - r, c], [7 - c, 7 - r],
    ][symmetry]!;
    out |= 1n << BigInt(tr! * 8 + tc!);
  }
  return out;
}

function randomPosition(random: () => number): Discs {
  let p = 0n;
  let o = 0n;
  for (let sq = 0; sq < 64; sq++) {
    const x = random();
    if (x < 0.35) p |= 1n << BigInt(sq);
    else if (x < 0.7) o |= 1n << BigInt(sq);
  }
  return { p, o };
}

function evaluateDiscs({ p, o }: Discs): number {
  const [pHi, pLo] = halves(p);
  const [oHi, oLo] = halves(o);
  const m = new Int32Array(2);
  moves(pHi, pLo, oHi, oLo, m);
  return evaluateLearned(pHi, pLo, oHi, oLo, popcount(m[0]!) + popcount(m[1]!));
}

afterEach(() => useWeights(undefined));

describe('the learned evaluation\'s patterns', () => {
  it('has the families and instances of the design', () => {
    expect(PATTERN_FAMILIES.map((f) => `${f.name}:${f.instances.length}`)).toEqual([
      'edge+2x:4', 'corner3x3:4', 'corner2x5:8', 'row2:4', 'row3:4', 'row4:4', 'diag8:2', 'diag7:4', 'diag6:4', 'diag5:4', 'diag4:4',
    ]);
    expect(INSTANCE_COUNT).toBe(46);
    for (const f of PATTERN_FAMILIES) {
      for (const instance of f.instances) expect(new Set(instance).size).toBe(f.squares.length);
      const canonical = canonicalIndices(f);
      for (let i = 0; i < f.size; i++) expect(canonical[canonical[i]!]).toBe(canonical[i]);
    }
  });

  it('indexes squares in base 3: empty 0, the side to move 1, the other side 2', () => {
    const out = new Int32Array(INSTANCE_COUNT);
    // a1 to move's, b1 the other side's: the top edge (first edge+2x instance) reads 1 + 2·3.
    patternIndices(0, 0b01, 0, 0b10, out);
    expect(out[0]).toBe(PATTERN_FAMILIES[0]!.offset + 1 + 2 * 3);
    patternIndices(0, 0, 0, 0, out);
    expect(out[0]).toBe(PATTERN_FAMILIES[0]!.offset);
  });

  it('gives the same value under the board\'s eight symmetries, whatever the weights', () => {
    const random = mulberry32(42);
    // Random weights on canonical configurations, expanded as training does.
    const weights = new Int16Array(STAGES * STAGE_WEIGHTS);
    for (let s = 0; s < STAGES; s++) {
      const base = s * STAGE_WEIGHTS;
      for (const f of PATTERN_FAMILIES) {
        const canonical = canonicalIndices(f);
        for (let i = 0; i < f.size; i++) if (canonical[i] === i) weights[base + f.offset + i] = Math.floor((random() - 0.5) * 2000);
        for (let i = 0; i < f.size; i++) weights[base + f.offset + i] = weights[base + f.offset + canonical[i]!]!;
      }
      for (let t = PATTERN_WEIGHTS; t < STAGE_WEIGHTS; t++) weights[base + t] = Math.floor((random() - 0.5) * 200);
    }
    useWeights(decodeWeights(encodeWeights(weights)));
    for (let n = 0; n < 30; n++) {
      const position = randomPosition(random);
      const values = Array.from({ length: 8 }, (_, s) => evaluateDiscs({ p: transform(position.p, s), o: transform(position.o, s) }));
      expect(new Set(values).size).toBe(1);
      expect(values[0]).not.toBe(0);
    }
  });

  it('round-trips the weights file and refuses one made for other patterns', () => {
    const weights = Int16Array.from({ length: STAGES * STAGE_WEIGHTS }, (_, i) => (i * 7919) % 3001 - 1500);
    const back = decodeWeights(encodeWeights(weights));
    expect(back.length).toBe(weights.length);
    expect(Buffer.compare(Buffer.from(back.buffer, back.byteOffset, back.byteLength), Buffer.from(weights.buffer))).toBe(0);
    expect(() => decodeWeights(gzipSync(Buffer.alloc(64)))).toThrow(/does not match these patterns/);
  });
});


