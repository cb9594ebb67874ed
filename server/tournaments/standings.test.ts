import { describe, expect, it } from 'vitest';
import type { Entrant, Pairing } from './model.js';
import { standings } from './standings.js';

const entrant = (name: string, rating: number): Entrant => ({ id: `person:${name}`, kind: 'person', name, rating, withdrawn: false, joinedAt: 0, instance: null });
const game = (round: number, black: string, white: string | null, winner: Pairing['winner']): Pairing => ({ round, table: 1, black: `person:${black}`, white: white && `person:${white}`, gameId: white ? `g${round}${black}${white}` : null, winner, reason: null });

describe('standings', () => {
  // Four players, three rounds worked by hand:
  // r1: a beats b, c draws d; r2: a draws c, b beats d; r3: a beats d, b beats c.
  // Points: a 2.5, b 2, c 1, d 0.5.
  // Buchholz: a = b+c+d = 3.5; b = a+d+c = 4; c = d+a+b = 5; d = c+b+a = 5.5.
  // Sonneborn-Berger: a = b(2) + c/2(0.5) + d(0.5) = 3; b = d + c = 1.5; c = d/2 + a/2 = 1.5; d = c/2 = 0.5.
  const entrants = [entrant('a', 1600), entrant('b', 1500), entrant('c', 1400), entrant('d', 1300)];
  const pairings = [game(1, 'a', 'b', 'black'), game(1, 'c', 'd', 'draw'), game(2, 'c', 'a', 'draw'), game(2, 'b', 'd', 'black'), game(3, 'd', 'a', 'white'), game(3, 'b', 'c', 'black')];

  it('counts points, Buchholz, Sonneborn-Berger and performance as worked by hand', () => {
    const rows = standings({ format: 'swiss', entrants, pairings });
    expect(rows.map((r) => [r.name, r.points, r.buchholz, r.sonnebornBerger])).toEqual([
      ['a', 2.5, 3.5, 3],
      ['b', 2, 4, 1.5],
      ['c', 1, 5, 1.5],
      ['d', 0.5, 5.5, 0.5],
    ]);
    // a: opponents 1500, 1400, 1300 (average 1400), +2 −0 over 3: 1400 + 267.
    expect(rows[0]!.performance).toBe(1667);
  });

  it('breaks a tie in points by Buchholz, and counts a bye a point with no opponent', () => {
    const rows = standings({ format: 'swiss', entrants: entrants.slice(0, 3), pairings: [game(1, 'a', 'b', 'black'), game(1, 'c', null, 'black')] });
    expect(rows.map((r) => [r.name, r.points, r.games, r.wins])).toEqual([
      ['a', 1, 1, 1],
      ['c', 1, 0, 0],
      ['b', 0, 1, 0],
    ]);
  });

  it('scores an arena with streaks', () => {
    const arena = [game(1, 'a', 'b', 'black'), game(2, 'a', 'c', 'black'), game(3, 'd', 'a', 'white'), game(4, 'a', 'b', 'draw')];
    const rows = standings({ format: 'arena', entrants, pairings: arena });
    expect(rows[0]).toMatchObject({ name: 'a', points: 2 + 2 + 4 + 2, streak: 0 });
  });
});
