import { describe, expect, it } from 'vitest';
import { arenaScore } from './arena-score.js';

describe('arena scoring', () => {
  it('follows a hand-worked sequence: W W W D W W L D W W W', () => {
    // 2, 2, then on fire: 4; the draw on fire is 2 and ends it; 2, 2, on fire: the loss 0;
    // the draw 1; 2, 2, on fire: 4.
    const score = arenaScore(['win', 'win', 'win', 'draw', 'win', 'win', 'loss', 'draw', 'win', 'win', 'win']);
    expect(score.perGame).toEqual([2, 2, 4, 2, 2, 2, 0, 1, 2, 2, 4]);
    expect(score.points).toBe(23);
    expect(score.streak).toBe(3);
  });

  it('gives nothing for losses and ends a streak on one', () => {
    expect(arenaScore(['loss', 'loss']).points).toBe(0);
    expect(arenaScore(['win', 'win', 'loss']).streak).toBe(0);
  });
});
