import glicko2 from 'glicko2';
import { describe, expect, it } from 'vitest';
import { freshRecord, isProvisional, rateGame, type RatingRecord } from './rating.js';

/** Glickman's Glicko-2 steps for one game (glicko2.pdf, steps 2–8), written out as an independent check. */
function byHand(me: { rating: number; rd: number; vol: number }, them: { rating: number; rd: number }, score: number, tau = 0.5) {
  const SCALE = 173.7178;
  const mu = (me.rating - 1500) / SCALE;
  const phi = me.rd / SCALE;
  const muJ = (them.rating - 1500) / SCALE;
  const phiJ = them.rd / SCALE;
  const g = 1 / Math.sqrt(1 + (3 * phiJ * phiJ) / (Math.PI * Math.PI));
  const e = 1 / (1 + Math.exp(-g * (mu - muJ)));
  const v = 1 / (g * g * e * (1 - e));
  const delta = v * g * (score - e);
  const a = Math.log(me.vol * me.vol);
  const f = (x: number) => (Math.exp(x) * (delta * delta - phi * phi - v - Math.exp(x))) / (2 * (phi * phi + v + Math.exp(x)) ** 2) - (x - a) / (tau * tau);
  let A = a;
  let B: number;
  if (delta * delta > phi * phi + v) B = Math.log(delta * delta - phi * phi - v);
  else {
    let k = 1;
    while (f(a - k * tau) < 0) k++;
    B = a - k * tau;
  }
  let fA = f(A);
  let fB = f(B);
  while (Math.abs(B - A) > 1e-6) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else fA /= 2;
    B = C;
    fB = fC;
  }
  const vol = Math.exp(A / 2);
  const phiStar = Math.sqrt(phi * phi + vol * vol);
  const phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const muNew = mu + phiNew * phiNew * g * (score - e);
  return { rating: 1500 + SCALE * muNew, rd: SCALE * phiNew, vol };
}

describe('Glicko-2 ratings', () => {
  it("the library reproduces Glickman's worked example", () => {
    const system = new glicko2.Glicko2({ tau: 0.5, rating: 1500, rd: 200, vol: 0.06 });
    const player = system.makePlayer(1500, 200, 0.06);
    const matches: [typeof player, typeof player, number][] = [
      [player, system.makePlayer(1400, 30, 0.06), 1],
      [player, system.makePlayer(1550, 100, 0.06), 0],
      [player, system.makePlayer(1700, 300, 0.06), 0],
    ];
    system.updateRatings(matches);
    expect(player.getRating()).toBeCloseTo(1464.06, 1);
    expect(player.getRd()).toBeCloseTo(151.52, 1);
    expect(player.getVol()).toBeCloseTo(0.05999, 4);
  });

  it.each([
    ['black', 'a win'],
    ['white', 'a loss'],
    [null, 'a draw'],
  ] as const)('one game is one rating period for both sides (%s wins: %s for black)', (winner, _what) => {
    const black: RatingRecord = { ...freshRecord('othello', { kind: 'person', name: 'ada' }), rating: 1620, rd: 80, vol: 0.059, games: 12, version: 12 };
    const white = freshRecord('othello', { kind: 'bot', name: 'engine-1' });
    const rated = rateGame(black, white, winner, 99);
    const blackScore = winner === 'black' ? 1 : winner === null ? 0.5 : 0;
    const expectBlack = byHand(black, white, blackScore);
    const expectWhite = byHand(white, black, 1 - blackScore);
    expect(rated.black.rating).toBeCloseTo(expectBlack.rating, 2);
    expect(rated.black.rd).toBeCloseTo(expectBlack.rd, 2);
    expect(rated.white.rating).toBeCloseTo(expectWhite.rating, 2);
    expect(rated.white.vol).toBeCloseTo(expectWhite.vol, 5);
    expect(rated.black).toMatchObject({ games: 13, version: 13, updatedAt: 99, wins: blackScore === 1 ? 1 : 0, draws: blackScore === 0.5 ? 1 : 0, losses: blackScore === 0 ? 1 : 0 });
    expect(rated.white.version).toBe(1);
  });

  it('marks a rating provisional while its deviation is above 110', () => {
    expect(isProvisional(freshRecord('gomoku', { kind: 'agent', name: 'x' }))).toBe(true);
    expect(isProvisional({ rd: 90 })).toBe(false);
  });
});
