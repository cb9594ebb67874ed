import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../shared/random.js';
import { pairSlot, scoreOfElo, sprtState, type Pentanomial, type SprtBounds } from './sprt.js';

const BOUNDS: SprtBounds = { elo0: 0, elo1: 20, alpha: 0.05, beta: 0.05 };
const DRAWS = 0.3;

/** One game's points for A when A is `elo` stronger, with a draw rate of 30%. */
function gamePoints(random: () => number, elo: number): number {
  const win = scoreOfElo(elo) - DRAWS / 2;
  const x = random();
  return x < win ? 1 : x < win + DRAWS ? 0.5 : 0;
}

/** Runs one test to its verdict on simulated pairs, looking every 8 pairs as a match would between batches. */
function simulate(random: () => number, elo: number, bounds = BOUNDS): 'H0' | 'H1' {
  const counts = [0, 0, 0, 0, 0];
  for (let pairs = 1; pairs <= 200_000; pairs++) {
    counts[pairSlot(gamePoints(random, elo), gamePoints(random, elo))]!++;
    if (pairs % 8 !== 0) continue;
    const { verdict } = sprtState(counts as unknown as Pentanomial, bounds);
    if (verdict) return verdict;
  }
  throw new Error('the test never stopped');
}

function h1Rate(elo: number, runs: number, seed: number): number {
  const random = seededRandom(seed);
  let h1 = 0;
  for (let i = 0; i < runs; i++) if (simulate(random, elo) === 'H1') h1++;
  return h1 / runs;
}

describe('SPRT on game pairs', () => {
  it('accepts H1 for a bot no stronger than elo0 at most about α of the time', () => {
    // α = 5%; 400 runs put the rate within ±2.2 points of its true value 95% of the time.
    expect(h1Rate(0, 400, 7)).toBeLessThan(0.08);
  });

  it('accepts H1 for a bot as strong as elo1 at least about 1 − β of the time', () => {
    expect(h1Rate(20, 400, 8)).toBeGreaterThan(0.92);
  });

  it('a clearly weaker bot ends in H0 and a clearly stronger one in H1, every time', () => {
    expect(h1Rate(-60, 100, 9)).toBe(0);
    expect(h1Rate(80, 100, 10)).toBe(1);
  });

  it('matches the normal approximation of the LLR on many pairs', () => {
    const counts: Pentanomial = [300, 1800, 4000, 2100, 400];
    const n = counts.reduce((a, b) => a + b, 0);
    const scores = [0, 0.25, 0.5, 0.75, 1];
    const mean = counts.reduce((s, c, i) => s + c * scores[i]!, 0) / n;
    const variance = counts.reduce((s, c, i) => s + c * (scores[i]! - mean) ** 2, 0) / n;
    const s0 = scoreOfElo(BOUNDS.elo0);
    const s1 = scoreOfElo(BOUNDS.elo1);
    const approx = (n * (s1 - s0) * (2 * mean - s0 - s1)) / (2 * variance);
    const { llr, elo, elo95 } = sprtState(counts, BOUNDS);
    expect(llr).toBeCloseTo(approx, 0);
    expect(elo95[0]).toBeLessThan(elo);
    expect(elo95[1]).toBeGreaterThan(elo);
    expect(elo).toBeCloseTo(400 * Math.log10(mean / (1 - mean)), 1);
  });

  it('bounds come from α and β', () => {
    const { lower, upper, verdict, pairs } = sprtState([0, 0, 0, 0, 0], BOUNDS);
    expect(lower).toBeCloseTo(Math.log(0.05 / 0.95));
    expect(upper).toBeCloseTo(Math.log(0.95 / 0.05));
    expect(verdict).toBeUndefined();
    expect(pairs).toBe(0);
  });
});
