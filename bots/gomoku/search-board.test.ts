import { describe, expect, it } from 'vitest';
import { GomokuBoard, POINTS, SIZE } from '../../shared/gomoku/board.js';
import { formatMove } from '../../shared/gomoku/notation.js';
import { search } from '../engine/search.js';
import { ENGINE_BREADTH, ENGINE_SEARCH_OPTIONS } from './bots.js';
import { BLACK, WHITE } from './patterns.js';
import { CENTER, GomokuSearchBoard } from './search-board.js';
import { point, points, positionOf } from './test-positions.js';

function movesOf(board: GomokuSearchBoard): number[] {
  const out = new Int32Array(POINTS);
  return Array.from(out.subarray(0, board.generateMoves(out, 0)));
}

function names(moves: number[]): string[] {
  return moves.map(formatMove).sort();
}

function chebyshev(a: number, b: number): number {
  return Math.max(Math.abs((a % SIZE) - (b % SIZE)), Math.abs(Math.floor(a / SIZE) - Math.floor(b / SIZE)));
}

// Forced replies from the freestyle rule of docs/rules.md §Gomoku (five or more wins) and the usual order of
// threats in Gomoku: a five now, else block the opponent's five, else an open four (two points
// make five, so it cannot be stopped), else answer an open three (or counter with a four).
// Positions constructed for these tests; the side to move follows from the stone counts.
const FORCED: readonly { name: string; black: string; white: string; expected: string[]; oneOf?: boolean }[] = [
  { name: 'black makes five', black: 'h8 i8 j8 k8', white: 'h10 j10 l10 n12', expected: ['g8', 'l8'], oneOf: true },
  { name: 'white blocks the only five', black: 'h8 i8 j8 k8 c3', white: 'g8 h10 j10 n12', expected: ['l8'] },
  { name: 'white blocks a five even with its own open three', black: 'h8 i8 j8 k8 c3', white: 'g8 e12 f12 g12', expected: ['l8'] },
  { name: 'black makes an open four from an open three', black: 'h8 i8 j8', white: 'c3 m3 c13', expected: ['g8', 'k8'], oneOf: true },
  { name: 'black plays a double four', black: 'h8 i8 j8 k5 k6 k7', white: 'g8 k4 a15 o1 a1 o15', expected: ['k8'] },
];

describe('GomokuSearchBoard.generateMoves', () => {
  it('opens on h8', () => {
    expect(movesOf(GomokuSearchBoard.empty())).toEqual([CENTER]);
  });

  it.each(FORCED)('$name', ({ black, white, expected, oneOf }) => {
    const moves = names(movesOf(GomokuSearchBoard.fromPosition(positionOf(black, white))));
    if (oneOf) {
      expect(moves).toHaveLength(1);
      expect(expected).toContain(moves[0]);
    } else {
      expect(moves).toEqual(expected);
    }
  });

  it('answers an open three with its blocks and its own fours only', () => {
    // White to move; black's h8 i8 j8 is open. White's e5 f5 g5, closed by d5, becomes a four at h5 or i5.
    const board = GomokuSearchBoard.fromPosition(positionOf('h8 i8 j8 d5 m13', 'c3 e5 f5 g5'));
    const moves = names(movesOf(board));
    expect(moves).toEqual(expect.arrayContaining(['g8', 'k8', 'h5', 'i5']));
    for (const move of moves) expect(['f8', 'g8', 'k8', 'l8', 'h5', 'i5']).toContain(move);
  });

  it('writes only empty points within two of a stone, and at most `breadth` of them when nothing is forced', () => {
    const stones = points('h8 i9 g7 j9 h10 f8');
    const board = GomokuSearchBoard.fromPosition(positionOf('h8 g7 h10', 'i9 j9 f8'));
    const all = movesOf(board);
    for (const move of all) {
      expect(board.stoneAt(move)).toBe(0);
      expect(Math.min(...stones.map((s) => chebyshev(s, move)))).toBeLessThanOrEqual(2);
    }
    const expectedCount = Array.from({ length: POINTS }, (_, p) => p).filter(
      (p) => !stones.includes(p) && stones.some((s) => chebyshev(s, p) <= 2),
    ).length;
    expect(all).toHaveLength(expectedCount);
    const trimmed = GomokuSearchBoard.fromPosition(positionOf('h8 g7 h10', 'i9 j9 f8'), { breadth: 8 });
    const best = movesOf(trimmed);
    expect(best).toHaveLength(8);
    const scores = best.map((m) => trimmed.orderScore(m));
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const cutOff = Math.min(...scores);
    for (const move of all) if (!best.includes(move)) expect(trimmed.orderScore(move)).toBeLessThanOrEqual(cutOff);
  });

  it('returns 0 once the game is over', () => {
    const board = GomokuSearchBoard.fromPosition(positionOf('h8 i8 j8 k8', 'h10 j10 l10 n12'));
    board.make(point('l8'));
    expect(board.winner).toBe(1);
    expect(movesOf(board)).toEqual([]);
    expect(board.result()).toBe(-1);
  });
});

function randomGame(seed: number, exactFive: boolean, visit: (search: GomokuSearchBoard, rules: GomokuBoard) => void): void {
  let state = seed;
  const random = (n: number) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % n;
  };
  const search = GomokuSearchBoard.empty({ exactFive });
  const rules = GomokuBoard.empty({ exactFive });
  while (!rules.isOver) {
    // Mostly in a small square so that fives (and sixes) happen.
    const move = random(4) === 0 ? random(POINTS) : (5 + random(5)) * SIZE + 5 + random(5);
    if (rules.problemWith(move) !== undefined) continue;
    rules.make(move);
    search.make(move);
    visit(search, rules);
  }
}

describe('GomokuSearchBoard make/unmake', () => {
  it.each([false, true])('agrees with GomokuBoard on every five in random games (exactFive %s)', (exactFive) => {
    let finished = 0;
    for (let seed = 1; seed <= 40; seed++) {
      randomGame(seed, exactFive, (search, rules) => {
        expect(search.isOver).toBe(rules.isOver);
        expect(search.winner).toBe(rules.winner === null ? 0 : rules.winner === 'black' ? 1 : 2);
        if (rules.isOver) finished++;
      });
    }
    expect(finished).toBe(40);
  });

  it('gives transpositions the same hash, and unmake restores it', () => {
    const a = GomokuSearchBoard.empty();
    const b = GomokuSearchBoard.empty();
    const start = [a.hashHi(), a.hashLo()];
    for (const move of points('h8 h9 i8 i9 j10')) a.make(move);
    for (const move of points('i8 i9 j10 h9 h8')) b.make(move);
    expect([a.hashHi(), a.hashLo()]).toEqual([b.hashHi(), b.hashLo()]);
    // Loaded with black to move, so searched for black as `a` and `b` are.
    const loaded = GomokuSearchBoard.fromPosition(positionOf('h8 i8 j10', 'h9 i9 k11'));
    a.make(point('k11'));
    expect([loaded.hashHi(), loaded.hashLo()]).toEqual([a.hashHi(), a.hashLo()]);
    a.unmake();
    b.make(point('a1'));
    expect([b.hashHi(), b.hashLo()]).not.toEqual([a.hashHi(), a.hashLo()]);
    for (let i = 0; i < 6; i++) b.unmake();
    expect([b.hashHi(), b.hashLo()]).toEqual(start);
  });

  it('keys the player too: the same stones searched for white and for black hash apart, as they score apart', () => {
    // One bot's table serves every game its thread plays, as black in one and white in the next.
    const forWhite = GomokuSearchBoard.fromPosition(positionOf('h8 i8', 'h9'));
    forWhite.make(point('i9'));
    const forBlack = GomokuSearchBoard.fromPosition(positionOf('h8 i8', 'h9 i9'));
    expect(forWhite.sideToMove).toBe(forBlack.sideToMove);
    expect(forWhite.evaluate()).not.toBe(forBlack.evaluate());
    expect([forWhite.hashHi(), forWhite.hashLo()]).not.toEqual([forBlack.hashHi(), forBlack.hashLo()]);
    forWhite.unmake();
    const again = GomokuSearchBoard.fromPosition(positionOf('h8 i8', 'h9'));
    expect([forWhite.hashHi(), forWhite.hashLo()]).toEqual([again.hashHi(), again.hashLo()]);
  });

  it('gives different positions different hashes over random games', () => {
    const seen = new Map<string, string>();
    for (let seed = 1; seed <= 10; seed++) {
      randomGame(seed, false, (search, rules) => {
        const key = `${search.hashHi()}:${search.hashLo()}`;
        const board = rules.toPosition().board;
        expect(seen.get(key) ?? board).toBe(board);
        seen.set(key, board);
      });
    }
  });
});

describe('GomokuSearchBoard.evaluate', () => {
  it('scores a position for the side to move: the same stones are better with the move', () => {
    // h8 i8 j8 is an open three for black: black to move makes an open four; white to move must block.
    const blackToMove = GomokuSearchBoard.fromPosition(positionOf('h8 i8 j8 c3', 'e12 m3 c13 m13'));
    const whiteToMove = GomokuSearchBoard.fromPosition(positionOf('h8 i8 j8 c3', 'e12 m3 c13'));
    expect(blackToMove.evaluate()).toBeGreaterThan(10_000);
    expect(whiteToMove.evaluate()).toBeLessThan(0);
  });

  it("leans to defence: the opponent's shapes outweigh the same shapes of our own, tempo included", () => {
    // Black h6 i6 and white h10 i10: mirror images across the middle row; black to move.
    const board = GomokuSearchBoard.fromPosition(positionOf('h6 i6', 'h10 i10'));
    expect(board.patterns.value(BLACK)).toBe(board.patterns.value(WHITE));
    expect(board.evaluate()).toBeLessThan(0);
  });

  it('weighs the shapes by the player the search is for, so both sides to move see one score but for the tempo', () => {
    const board = GomokuSearchBoard.fromPosition(positionOf('h6 i6 j7', 'h10 i10'));
    expect(board.sideToMove).toBe(WHITE);
    const forWhite = board.evaluate();
    board.pass();
    const forBlack = board.evaluate();
    board.unpass();
    const tempo = (board.patterns.value(BLACK) >> 3) + (board.patterns.value(WHITE) >> 3);
    expect(forWhite + forBlack).toBe(tempo);
  });
});

describe('GomokuSearchBoard in the search', () => {
  it('going straight to quiescence at the horizon, as the engine does, finds the same moves and scores', () => {
    const cases = [
      ['h8 i9 i7', 'h9 g7'],
      ['h8 i9 j7 g9', 'h9 i8 j8'],
      ['h8 j10 g6 i9', 'i8 h9 g9 k11'],
      ['h8 i8 j8 h9 k10', 'g8 h10 i9 j7 g6'],
    ] as const;
    expect(ENGINE_SEARCH_OPTIONS.quiescenceAtHorizon).toBe(true);
    for (const [black, white] of cases) {
      const run = (quiescenceAtHorizon: boolean) =>
        search(GomokuSearchBoard.fromPosition(positionOf(black, white), { breadth: ENGINE_BREADTH }), { maxDepth: 4, quiescenceAtHorizon });
      const [plain, straight] = [run(false), run(true)];
      expect([straight.move, straight.score, straight.depth]).toEqual([plain.move, plain.score, 4]);
      // Each horizon node counts once instead of twice (its own node and its quiescence node).
      expect(straight.nodes).toBeLessThan(plain.nodes);
    }
  });
});
