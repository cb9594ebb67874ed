/**
 * The sequential probability ratio test on game pairs, as fishtest and OpenBench decide engine
 * changes. Each opening is played twice with colours swapped, and the pair's score from A's view
 * (0, ½, 1, 1½ or 2 points) is one draw from a five-valued ("pentanomial") distribution, which
 * keeps the correlation between the two games of a pair and so needs fewer games than counting
 * wins, draws and losses. The log-likelihood ratio compares the most likely distribution whose
 * mean score is that of Elo `elo1` with the one for `elo0` (the generalised SPRT of Michel Van
 * den Bergh, which fishtest uses); the test stops when it leaves `[ln(β/(1−α)), ln((1−β)/α)]`.
 * Elo here is logistic: a score `s` is `400·log10(s/(1−s))`.
 */

/** Counts of pairs scoring 0, ½, 1, 1½ and 2 points for A. */
export type Pentanomial = readonly [number, number, number, number, number];

export interface SprtBounds {
  readonly elo0: number;
  readonly elo1: number;
  readonly alpha: number;
  readonly beta: number;
}

export interface SprtState {
  readonly llr: number;
  /** The stopping bounds: H0 accepted at or below `lower`, H1 at or above `upper`. */
  readonly lower: number;
  readonly upper: number;
  readonly verdict: 'H0' | 'H1' | undefined;
  readonly pairs: number;
  /** Elo of A over B from the pairs so far, with its 95% interval. */
  readonly elo: number;
  readonly elo95: readonly [number, number];
}

const PAIR_SCORES = [0, 0.25, 0.5, 0.75, 1] as const;
/** Added to every count, so that a value not seen yet is unlikely rather than impossible (as fishtest does). */
const PRIOR = 1e-3;

export function scoreOfElo(elo: number): number {
  return 1 / (1 + 10 ** (-elo / 400));
}

export function eloOfScore(score: number): number {
  const s = Math.min(Math.max(score, 1e-6), 1 - 1e-6);
  return 400 * Math.log10(s / (1 - s));
}

/**
 * The distribution over the five pair scores that is most likely to have produced `observed`
 * (frequencies) among those whose mean is `mean`: `q_i = p_i / (1 + λ (a_i − mean))`, with λ
 * found by bisection where the mean constraint holds.
 */
function closestWithMean(observed: readonly number[], mean: number): number[] {
  const d = PAIR_SCORES.map((a) => a - mean);
  const f = (lambda: number): number => observed.reduce((sum, p, i) => sum + (p * d[i]!) / (1 + lambda * d[i]!), 0);
  // 1 + λ d_i must stay positive for every i.
  const top = Math.max(...d);
  const bottom = Math.min(...d);
  let low = top > 0 ? -1 / top : -1e9;
  let high = bottom < 0 ? -1 / bottom : 1e9;
  const margin = (high - low) * 1e-12;
  low += margin;
  high -= margin;
  // f decreases with λ.
  for (let i = 0; i < 200; i++) {
    const mid = (low + high) / 2;
    if (f(mid) > 0) low = mid;
    else high = mid;
  }
  const lambda = (low + high) / 2;
  return observed.map((p, i) => p / (1 + lambda * d[i]!));
}

export function sprtState(counts: Pentanomial, bounds: SprtBounds): SprtState {
  const pairs = counts.reduce((a, b) => a + b, 0);
  const lower = Math.log(bounds.beta / (1 - bounds.alpha));
  const upper = Math.log((1 - bounds.beta) / bounds.alpha);
  const total = pairs + PRIOR * counts.length;
  const observed = counts.map((n) => (n + PRIOR) / total);
  const mean = observed.reduce((sum, p, i) => sum + p * PAIR_SCORES[i]!, 0);
  const variance = observed.reduce((sum, p, i) => sum + p * (PAIR_SCORES[i]! - mean) ** 2, 0);
  let llr = 0;
  if (pairs > 0) {
    const q0 = closestWithMean(observed, scoreOfElo(bounds.elo0));
    const q1 = closestWithMean(observed, scoreOfElo(bounds.elo1));
    llr = pairs * observed.reduce((sum, p, i) => sum + p * Math.log(q1[i]! / q0[i]!), 0);
  }
  const spread = 1.959964 * Math.sqrt(variance / Math.max(pairs, 1));
  const verdict = llr >= upper ? 'H1' : llr <= lower ? 'H0' : undefined;
  return { llr, lower, upper, verdict, pairs, elo: eloOfScore(mean), elo95: [eloOfScore(mean - spread), eloOfScore(mean + spread)] };
}

/** The pair's slot in a `Pentanomial`, from A's points in its two games (each 0, ½ or 1). */
export function pairSlot(first: number, second: number): number {
  return Math.round((first + second) * 2);
}
