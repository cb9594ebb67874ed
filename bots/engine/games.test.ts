import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MutableBoard } from '../../shared/board.js';
import type { Color } from '../../shared/color.js';
import { GAMES, type Position } from '../../shared/games.js';
import { GAME_IDS, type GameId, type Outcome } from '../../shared/rules.js';
import { searchBoardOf } from '../search-boards.js';
import { engineWithBudget } from '../roster.js';
import { WIN, type SearchGame } from './game.js';
import { randomPosition } from './random-position.js';
import { search } from './search.js';

type Judged = MutableBoard & { outcome(): Outcome | null };
const sideToMove = (board: MutableBoard): Color =>
  (board as { toMove?: Color }).toMove ?? (board as unknown as { sideToMove: Color }).sideToMove;

/** Does `me` (by default the side to move) force a win within `plies` plies? On the rules' own boards. */
function forcesWin(game: GameId, position: Position, plies: number, me?: Color): boolean {
  const board = GAMES[game].board(position) as Judged;
  const winner = me ?? sideToMove(board);
  const buffers = Array.from({ length: plies + 1 }, () => new Int32Array(board.maxMoves));
  const wins = (left: number): boolean => {
    const outcome = board.outcome();
    if (outcome) return outcome.winner === winner;
    if (left === 0) return false;
    const moves = buffers[left]!;
    const n = board.generateMoves(moves, 0);
    const mine = sideToMove(board) === winner;
    for (let i = 0; i < n; i++) {
      board.make(moves[i]!);
      const won = wins(left - 1);
      board.unmake();
      if (won === mine) return mine;
    }
    return !mine;
  };
  return wins(plies);
}

/** Plies from the side to move's first move to its win in `n` moves: MiniChess wins on its own turn. */
const span = (game: GameId, n: number): number => (game === 'minichess' ? 2 * n : 2 * n - 1);

/** Positions where the side to move wins in `n` moves but not in fewer, and has a move that does not win. */
function winningPositions(game: GameId, n: number, count: number, plies: readonly number[]): Position[] {
  const found: Position[] = [];
  const { rules } = GAMES[game];
  for (let seed = 1; found.length < count && seed < 3000; seed++) {
    const p = randomPosition(game, seed, plies[seed % plies.length]!);
    if (rules.outcome(p) || rules.legalMoves(p).length < 2) continue;
    if (forcesWin(game, p, span(game, n)) && (n === 1 || !forcesWin(game, p, span(game, n - 1)))) {
      const me = rules.toMove(p);
      const losing = rules.legalMoves(p).some((m) => !forcesWin(game, rules.play(p, m), span(game, n) - 1, me));
      if (losing) found.push(p);
    }
  }
  return found;
}

// Gomoku's random games rarely make fours, so its positions are drawn by hand (docs/rules.md
// §Gomoku: five in a row wins). Black to move in each.
const GOMOKU_WIN_IN_ONE = ['h8 a1 i8 a3 j8 a5 k8 a7', 'h8 h9 h7 i9 h6 j9 h5 o15'];
const GOMOKU_WIN_IN_TWO = ['h8 a1 i8 a3 j8 a5', 'd4 o1 e5 o3 f6 o5'];

function gomokuPositions(records: string[]): Position[] {
  const { rules } = GAMES.gomoku;
  return records.map((r) => {
    const parsed = rules.parsePosition(r);
    if (!parsed.ok) throw new Error(parsed.error.message);
    return parsed.value;
  });
}

const PLIES: Record<GameId, readonly number[]> = { othello: [55, 56, 57, 58], gomoku: [], minichess: [6, 8, 10, 12, 14, 16] };

describe.each(GAME_IDS)('the %s engine', (game) => {
  const { rules } = GAMES[game];
  const wins = (n: number): Position[] =>
    game === 'gomoku' ? gomokuPositions(n === 1 ? GOMOKU_WIN_IN_ONE : GOMOKU_WIN_IN_TWO) : winningPositions(game, n, 3, PLIES[game]);

  // Othello's engine plays for the largest disc margin, so it may take a longer win; the
  // others must take the quickest.
  it.each([1, 2])('finds a win in %i', (n) => {
    const positions = wins(n);
    expect(positions.length).toBeGreaterThan(0);
    for (const p of positions) {
      const me = rules.toMove(p);
      expect(forcesWin(game, p, span(game, n))).toBe(true);
      const found = search(searchBoardOf(game, p), { maxDepth: span(game, n) + 1 });
      const after = rules.play(p, found.move);
      const horizon = game === 'othello' ? 60 : span(game, n) - 1;
      expect(forcesWin(game, after, horizon, me), `${rules.formatPosition(p)}: ${rules.formatMove(found.move)}`).toBe(true);
    }
  });

  it('never answers an illegal move, from random positions', () => {
    const engine = engineWithBudget(game, 20);
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 0, max: game === 'gomoku' ? 40 : 50 }), (seed, plies) => {
        const p = randomPosition(game, seed, plies);
        if (rules.outcome(p)) return;
        const answer = engine.think(p, { deadline: performance.now() + 20 });
        expect(rules.check(p, answer.move)).toBeUndefined();
      }),
      { numRuns: 25 },
    );
  });

  // The tree search against plain minimax over the same moves and evaluation; quiescence and
  // the exact solver are left out of both, as an unpruned quiescence would never finish.
  it('agrees with plain minimax at small depths', () => {
    const treeOnly = (g: SearchGame): SearchGame => ({
      maxMoves: g.maxMoves,
      generateMoves: (out, offset) => g.generateMoves(out, offset),
      countMoves: () => g.countMoves(),
      make: (m) => g.make(m),
      unmake: () => g.unmake(),
      hashHi: () => g.hashHi(),
      hashLo: () => g.hashLo(),
      evaluate: () => g.evaluate(),
      result: () => g.result(),
      ...(g.orderScore ? { orderScore: (m: number) => g.orderScore!(m) } : {}),
    });
    const minimax = (g: SearchGame, depth: number, ply: number): number => {
      const moves = new Int32Array(g.maxMoves);
      const n = g.generateMoves(moves, 0);
      if (n === 0) return g.result() * (WIN - ply);
      if (depth === 0) return g.evaluate();
      let best = -Infinity;
      for (let i = 0; i < n; i++) {
        g.make(moves[i]!);
        best = Math.max(best, -minimax(g, depth - 1, ply + 1));
        g.unmake();
      }
      return best;
    };
    for (let seed = 1; seed <= 6; seed++) {
      const p = randomPosition(game, seed, game === 'gomoku' ? 2 + (seed % 3) : 8 + seed);
      if (rules.outcome(p)) continue;
      for (const depth of [1, 2, 3]) {
        const exact = minimax(treeOnly(searchBoardOf(game, p)), depth, 0) + 0;
        const found = search(treeOnly(searchBoardOf(game, p)), { maxDepth: depth, useTable: false, aspiration: 0 });
        if (found.depth === depth) expect(found.score, `${rules.formatPosition(p)} depth ${depth}`).toBe(exact);
      }
    }
  });
});
