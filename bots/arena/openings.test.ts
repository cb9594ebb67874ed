import { describe, expect, it } from 'vitest';
import { GAMES } from '../../shared/games.js';
import { GAME_IDS } from '../../shared/rules.js';
import { BOOK_PLIES, readBook } from './openings.js';

describe('the opening books', () => {
  it.each(GAME_IDS)('%s: a few hundred distinct openings of the book\'s length, none of them over', (id) => {
    const game = GAMES[id];
    const book = readBook(game);
    expect(book.length).toBeGreaterThanOrEqual(200);
    const [low, high] = BOOK_PLIES[id];
    const positions = new Set<string>();
    for (const moves of book) {
      expect(moves.length).toBeGreaterThanOrEqual(low);
      expect(moves.length).toBeLessThanOrEqual(high);
      let position = game.rules.start();
      for (const m of moves) position = game.rules.play(position, m);
      expect(game.rules.outcome(position)).toBeNull();
      positions.add(game.rules.formatPosition(position));
    }
    expect(positions.size).toBe(book.length);
  });
});
