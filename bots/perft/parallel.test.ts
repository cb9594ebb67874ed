import { describe, expect, it } from 'vitest';
import { GAMES } from '../../shared/games.js';
import { parallelPerft } from './parallel.js';
import { splitTree } from './subtrees.js';

describe('parallel perft', () => {
  // docs/rules.md §Perft tables: the split across worker threads must count exactly what one thread does.
  it.each([
    ['othello', 9, 3005288],
    ['minichess', 7, 0],
  ] as const)('%s perft(%i) on two threads equals one thread', async (id, depth, expected) => {
    const game = GAMES[id];
    const one = await parallelPerft(game, game.rules.start(), depth, 1);
    const two = await parallelPerft(game, game.rules.start(), depth, 2);
    if (expected) expect(one.leaves).toBe(expected);
    expect(two).toMatchObject({ leaves: one.leaves, threads: 2 });
  });

  it('counts games that end before the split as leaves of their own', () => {
    // Maruo's 9-move wipeout ends at ply 9: from ply 7 the split at ply 3 meets the end.
    const game = GAMES.othello;
    let position = game.rules.start();
    for (const m of 'e6 f4 e3 f6 g5 d6 e7'.split(' ')) {
      const parsed = game.rules.parseMove(m);
      if (parsed.ok) position = game.rules.play(position, parsed.value);
    }
    const { lines, counted } = splitTree(game.board(position), 5, 3);
    expect(counted).toBeGreaterThan(0);
    expect(lines.every((l) => l.length === 3)).toBe(true);
  });
});
