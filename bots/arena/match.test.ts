import { describe, expect, it } from 'vitest';
import { runMatch } from './match.js';

describe('runMatch', () => {
  it('plays every game and counts them from A\'s side', async () => {
    const result = await runMatch({ game: 'othello', a: 'random', b: 'random', games: 4, seed: 3, threads: 2 });
    expect(result.played).toHaveLength(4);
    expect(result.wins + result.draws + result.losses).toBe(4);
    expect(result.played.map((g) => g.aFirst)).toEqual([true, false, true, false]);
  });

  it('names the game that failed, with its opening, instead of dying without a word', async () => {
    const match = runMatch({ game: 'gomoku', a: 'random', b: 'no-such-bot', games: 2, seed: 1, threads: 1 });
    await expect(match).rejects.toThrow(/^arena game 1 \(random first, no-such-bot second, opening (?:[a-o]\d+ ?){3,5}\) failed: .*unknown bot/s);
  });
});
