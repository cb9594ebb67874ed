import { describe, expect, it } from 'vitest';
import { bergerRounds } from './berger.js';

// FIDE Handbook C.05, Annex 1: the Berger tables, first-named player has the first move's colour.
const FIDE_6 = ['1-6 2-5 3-4', '6-4 5-3 1-2', '2-6 3-1 4-5', '6-5 1-4 2-3', '3-6 4-2 5-1'];
const FIDE_8 = ['1-8 2-7 3-6 4-5', '8-5 6-4 7-3 1-2', '2-8 3-1 4-7 5-6', '8-6 7-5 1-4 2-3', '3-8 4-2 5-1 6-7', '8-7 1-6 2-5 3-4', '4-8 5-3 6-2 7-1'];
const shown = (rounds: [number, number | null][][]) => rounds.map((r) => r.map(([a, b]) => `${a}-${b}`).join(' '));

describe('Berger tables', () => {
  it('match the published tables for 6 and 8 players', () => {
    expect(shown(bergerRounds(6, 1))).toEqual(FIDE_6);
    expect(shown(bergerRounds(8, 1))).toEqual(FIDE_8);
  });

  it('give the bye to whoever meets the missing player when the count is odd', () => {
    const rounds = bergerRounds(5, 1);
    expect(rounds).toHaveLength(5);
    expect(shown(rounds)[0]).toBe('1-null 2-5 3-4');
    for (const round of rounds) expect(round.filter(([, b]) => b === null)).toHaveLength(1);
  });

  it('a double round robin plays the second cycle with colours reversed, and colours balance', () => {
    const rounds = bergerRounds(6, 2);
    expect(rounds).toHaveLength(10);
    expect(shown(rounds)[5]).toBe('6-1 5-2 4-3');
    const firsts = new Map<number, number>();
    for (const round of rounds) for (const [a] of round) firsts.set(a, (firsts.get(a) ?? 0) + 1);
    for (let p = 1; p <= 6; p++) expect(firsts.get(p)).toBe(5);
    const met = new Map<string, number>();
    for (const round of rounds) for (const [a, b] of round) met.set([a, b].sort().join(), (met.get([a, b].sort().join()) ?? 0) + 1);
    expect(met.size).toBe(15);
    expect([...met.values()].every((n) => n === 2)).toBe(true);
  });
});
