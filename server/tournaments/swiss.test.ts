import { describe, expect, it } from 'vitest';
import type { Color } from '../../shared/color.js';
import { seededRandom } from '../../shared/random.js';
import { colourWish } from './colours.js';
import { pairSwiss, type SwissPlayer } from './swiss.js';

interface Sim {
  id: string;
  rating: number;
  points: number;
  colours: Color[];
  opponents: Set<string>;
  hadBye: boolean;
}

const field = (n: number): Sim[] => Array.from({ length: n }, (_, i) => ({ id: `p${i + 1}`, rating: 2000 - i * 10, points: 0, colours: [], opponents: new Set(), hadBye: false }));
const asSet = (games: [string, string][]) => games.map((g) => [...g].sort().join('-')).sort();

describe('Swiss pairing', () => {
  it('round one: the top half meets the bottom half by rating (1-5, 2-6, 3-7, 4-8)', () => {
    const round = pairSwiss(field(8), 1)!;
    expect(round.bye).toBeNull();
    expect(asSet(round.games)).toEqual(['p1-p5', 'p2-p6', 'p3-p7', 'p4-p8']);
    // Colours alternate down the tables.
    expect(round.games.map(([black]) => black)).toEqual(['p1', 'p6', 'p3', 'p8']);
  });

  // As the Dutch system does, a transposition in the bottom half gives everyone its colour: 1-4, 2-3 rather than 1-3, 2-4.
  it('round two after the higher-rated all won: each score group is paired within itself, colours before rating order', () => {
    const players = field(8);
    const first = pairSwiss(players, 1)!;
    for (const [black, white] of first.games) {
      const [b, w] = [players.find((p) => p.id === black)!, players.find((p) => p.id === white)!];
      b.colours.push('black');
      w.colours.push('white');
      b.opponents.add(w.id);
      w.opponents.add(b.id);
      (b.rating > w.rating ? b : w).points += 1;
    }
    const second = pairSwiss(players, 2)!;
    expect(asSet(second.games)).toEqual(['p1-p4', 'p2-p3', 'p5-p8', 'p6-p7']);
    for (const [black, white] of second.games) {
      expect(players.find((p) => p.id === black)!.colours).toEqual(['white']);
      expect(players.find((p) => p.id === white)!.colours).toEqual(['black']);
    }
  });

  for (const n of [15, 16]) {
    it(`${n} players over 5 rounds of random results: no rematch, one bye at most each, colours within the rules, scores close`, () => {
      const random = seededRandom(n);
      const players = field(n);
      const byId = new Map(players.map((p) => [p.id, p]));
      for (let r = 1; r <= 5; r++) {
        const round = pairSwiss(players as SwissPlayer[], r)!;
        expect(round).not.toBeNull();
        expect(round.games.length).toBe(Math.floor(n / 2));
        const seen = new Set<string>();
        for (const [black, white] of round.games) {
          const [b, w] = [byId.get(black)!, byId.get(white)!];
          expect(b.opponents.has(white)).toBe(false);
          expect(Math.abs(b.points - w.points)).toBeLessThanOrEqual(1);
          seen.add(black).add(white);
          b.colours.push('black');
          w.colours.push('white');
          b.opponents.add(white);
          w.opponents.add(black);
          const x = random();
          if (x < 0.45) b.points += 1;
          else if (x < 0.9) w.points += 1;
          else (b.points += 0.5), (w.points += 0.5);
        }
        if (n % 2 === 1) {
          const bye = byId.get(round.bye!)!;
          expect(bye.hadBye).toBe(false);
          expect(seen.has(bye.id)).toBe(false);
          bye.hadBye = true;
          bye.points += 1;
        } else expect(round.bye).toBeNull();
      }
      for (const p of players) {
        const blacks = p.colours.filter((c) => c === 'black').length;
        expect(Math.abs(blacks * 2 - p.colours.length)).toBeLessThanOrEqual(2);
        expect(p.colours.join()).not.toMatch(/(black,black,black|white,white,white)/);
        expect(colourWish(p.colours).strength).toBeLessThanOrEqual(3);
      }
    });
  }

  it('answers null when every pairing would be a rematch', () => {
    const [a, b] = field(2);
    a!.opponents.add('p2');
    b!.opponents.add('p1');
    expect(pairSwiss([a!, b!], 2)).toBeNull();
  });
});
