import { describe, expect, it } from 'vitest';
import { popcount } from '../../../shared/othello/bitboard.js';
import { OthelloBoard } from '../../../shared/othello/board.js';
import { seededRandom } from '../../../shared/random.js';
import { solve } from '../endgame.js';
import { stageOf } from '../learned-eval.js';
import { FIT, fitWeights } from './fit.js';
import { RECORD_INTS, SELF_PLAY, trainingGame } from './selfplay.js';

function games(n: number, seed: number): Int32Array {
  const random = seededRandom(seed);
  const parts = Array.from({ length: n }, () => trainingGame(random));
  const all = new Int32Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}

/** The root mean square of a stage's labels: the error of guessing 0. */
function rms(data: Int32Array, stage: number): number {
  const labels: number[] = [];
  for (let r = 0; r < data.length; r += RECORD_INTS) {
    const discs = popcount(data[r]! | data[r + 2]!) + popcount(data[r + 1]! | data[r + 3]!);
    if (stageOf(discs) === stage) labels.push(data[r + 4]!);
  }
  return Math.sqrt(labels.reduce((s, l) => s + l * l, 0) / labels.length);
}

describe('training the Othello evaluation (a tiny run)', () => {
  const train = games(40, 1);
  const test = games(10, 2);

  it('labels each position with its final margin, which is exact once the solver took over', () => {
    let exact = 0;
    for (let r = 0; r < test.length; r += RECORD_INTS) {
      const [pHi, pLo, oHi, oLo, label] = Array.from(test.subarray(r, r + RECORD_INTS)) as [number, number, number, number, number];
      expect(pHi & oHi).toBe(0);
      expect(pLo & oLo).toBe(0);
      expect(Math.abs(label)).toBeLessThanOrEqual(64);
      const empties = 64 - popcount(pHi | oHi) - popcount(pLo | oLo);
      if (empties > SELF_PLAY.exactEmpties || exact >= 12) continue;
      const board = OthelloBoard.fromDiscs(pHi, pLo, oHi, oLo, 'black');
      expect(solve(board)!.score).toBe(label);
      exact++;
    }
    expect(exact).toBe(12);
  });

  it('fits weights whose error is below that of guessing 0, on the positions fitted and on others', () => {
    const { weights, fits } = fitWeights(train, test, { ...FIT, iterations: 15, backupDepth: 0 });
    expect(weights.some((w) => w !== 0)).toBe(true);
    for (const fit of fits) {
      expect(fit.trainRmse).toBeLessThan(rms(train, fit.stage));
    }
    // Late stages, where labels are exact and close to the position, generalise to unseen games.
    for (const fit of fits.filter((f) => f.stage >= 12)) expect(fit.testRmse).toBeLessThan(rms(test, fit.stage));
  });

  it('backs labels up from the last stage: each stage fitted after the one behind it, exact stages keeping their margins', () => {
    const { fits } = fitWeights(train, test, { ...FIT, iterations: 10, backupPositions: 300 });
    expect(fits.map((f) => f.stage)).toEqual(Array.from({ length: 15 }, (_, i) => 14 - i));
    for (const fit of fits) {
      expect(fit.trainPositions).toBeGreaterThan(0);
      expect(fit.trainPositions).toBeLessThanOrEqual(300);
      expect(Number.isFinite(fit.trainRmse)).toBe(true);
    }
    // Stages 12–14 (12 empties or fewer) keep the exact margins, which the fit approaches.
    for (const fit of fits.filter((f) => f.stage >= 12)) expect(fit.trainRmse).toBeLessThan(rms(train, fit.stage));
  });
});
