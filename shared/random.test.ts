import { describe, expect, it } from 'vitest';
import { mulberry32, seededBelow, seededRandom } from './random.js';

describe('seeded random', () => {
  it('repeats its sequence for a seed and differs between seeds', () => {
    const take = (next: () => number): number[] => Array.from({ length: 8 }, next);
    expect(take(mulberry32(7))).toEqual(take(mulberry32(7)));
    expect(take(mulberry32(7))).not.toEqual(take(mulberry32(8)));
  });

  it('keeps fractions in [0, 1) and integers in [0, below)', () => {
    const fraction = seededRandom(1);
    const below = seededBelow(1);
    for (let i = 0; i < 1000; i++) {
      const x = fraction();
      expect(x >= 0 && x < 1).toBe(true);
      expect(below(10)).toBeGreaterThanOrEqual(0);
      expect(below(10)).toBeLessThan(10);
    }
  });
});
