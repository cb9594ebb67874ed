import { describe, expect, it } from 'vitest';
import type { Color } from '../color.js';
import { perft } from '../perft.js';
import type { GameOptions } from '../rules.js';
import { GomokuBoard, type GomokuPosition, POINTS, SIZE } from './board.js';
import { parseMove } from './notation.js';
import { gomokuRules } from './rules.js';

const FREESTYLE: GameOptions = {};
const EXACT_FIVE: GameOptions = { exactFive: true };
const MODES = [
  ['freestyle', FREESTYLE],
  ['exactFive', EXACT_FIVE],
] as const;

function point(text: string): number {
  const parsed = parseMove(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

function points(list: string): number[] {
  return list.split(' ').map(point);
}

function chebyshev(a: number, b: number): number {
  return Math.max(Math.abs((a % SIZE) - (b % SIZE)), Math.abs(Math.floor(a / SIZE) - Math.floor(b / SIZE)));
}

/**
 * Plays `stones` for `color` in order, the other side answering on points two apart from each
 * other (so they never line up) and away from `stones` (so they never fill a gap or block a line).
 * Returns the board just before the last of `stones` is played.
 */
function setUp(stones: number[], color: Color, options: GameOptions): GomokuBoard {
  const fillers: number[] = [];
  for (let p = 0; p < POINTS; p++) {
    const evenFileAndRank = (p % SIZE) % 2 === 0 && Math.floor(p / SIZE) % 2 === 0;
    if (evenFileAndRank && stones.every((s) => chebyshev(s, p) > 1)) fillers.push(p);
  }
  const board = GomokuBoard.empty(options);
  if (color === 'white') board.make(fillers.pop()!);
  stones.forEach((stone, i) => {
    if (i === stones.length - 1) return;
    board.make(stone);
    board.make(fillers.pop()!);
  });
  expect(board.toMove).toBe(color);
  expect(board.outcome()).toBeNull();
  return board;
}

/** The outcome after the last stone, read both ways: the incremental check in `make` and a reload. */
function outcomesAfter(board: GomokuBoard, last: number) {
  board.make(last);
  return { incremental: board.outcome(), reloaded: gomokuRules.outcome(board.toPosition()) };
}

// docs/rules.md §Gomoku: five in an unbroken horizontal, vertical or diagonal line wins for its maker.
const FIVES = [
  ['horizontal, centre', 'f8 g8 h8 i8 j8'],
  ['horizontal, a1 corner', 'a1 b1 c1 d1 e1'],
  ['horizontal, o15 corner', 'k15 l15 m15 n15 o15'],
  ['horizontal, top edge', 'f15 g15 h15 i15 j15'],
  ['vertical, centre', 'h6 h7 h8 h9 h10'],
  ['vertical, a1 corner', 'a1 a2 a3 a4 a5'],
  ['vertical, o15 corner', 'o11 o12 o13 o14 o15'],
  ['vertical, right edge', 'o4 o5 o6 o7 o8'],
  ['diagonal ↗, centre', 'f6 g7 h8 i9 j10'],
  ['diagonal ↗, a1 corner', 'a1 b2 c3 d4 e5'],
  ['diagonal ↗, o15 corner', 'k11 l12 m13 n14 o15'],
  ['diagonal ↗, bottom edge to right edge', 'k1 l2 m3 n4 o5'],
  ['diagonal ↖, centre', 'j6 i7 h8 g9 f10'],
  ['diagonal ↖, o1 corner', 'o1 n2 m3 l4 k5'],
  ['diagonal ↖, a15 corner', 'e11 d12 c13 b14 a15'],
  ['diagonal ↖, left edge to bottom edge', 'a6 b5 c4 d3 e2'],
] as const;

describe('GomokuBoard fives', () => {
  it.each(FIVES)('%s wins for its maker, whichever stone completes it, in both modes', (_name, line) => {
    const stones = points(line);
    for (const [, options] of MODES) {
      for (const color of ['black', 'white'] as const) {
        for (const last of stones) {
          const board = setUp([...stones.filter((s) => s !== last), last], color, options);
          const expected = { winner: color, reason: 'five' };
          expect(outcomesAfter(board, last)).toEqual({ incremental: expected, reloaded: expected });
          expect(board.winner).toBe(color);
          expect(new Set(board.winningLine(last))).toEqual(new Set(stones));
          expect(board.isOver).toBe(true);
          expect(board.countMoves()).toBe(0);
          expect(board.generateMoves(new Int32Array(POINTS), 0)).toBe(0);
        }
      }
    }
  });

  // docs/rules.md §Gomoku: five or more wins in freestyle; with exactFive (Gomocup rule 1) only exactly five.
  const OVERLINES = [
    ['six, completed next to its end', 'a8 c8 d8 e8 f8', 'b8'],
    ['six, completed inside', 'a8 b8 c8 e8 f8', 'd8'],
    ['seven', 'a8 b8 c8 d8 f8 g8', 'e8'],
    ['nine along the edge', 'a1 b1 c1 d1 f1 g1 h1 i1', 'e1'],
    ['six on a diagonal ↗', 'c3 d4 e5 g7 h8', 'f6'],
    ['six on a diagonal ↖', 'o1 n2 m3 l4 j6', 'k5'],
    ['six in a column', 'h1 h2 h4 h5 h6', 'h3'],
  ] as const;

  it.each(OVERLINES)('%s wins in freestyle but not with exactFive', (_name, before, last) => {
    for (const color of ['black', 'white'] as const) {
      const freestyle = setUp([...points(before), point(last)], color, FREESTYLE);
      expect(outcomesAfter(freestyle, point(last)).reloaded).toEqual({ winner: color, reason: 'five' });

      const line = freestyle.winningLine(point(last))!;
      expect(line.sort((a, b) => a - b)).toEqual([...points(before), point(last)].sort((a, b) => a - b));

      const exact = setUp([...points(before), point(last)], color, EXACT_FIVE);
      expect(outcomesAfter(exact, point(last))).toEqual({ incremental: null, reloaded: null });
      expect(exact.winningLine(point(last))).toBeNull();
      expect(exact.countMoves()).toBe(POINTS - exact.stoneCount);
    }
  });

  it.each(MODES)('an exact five made by the same stone as a six wins (%s)', (_mode, options) => {
    // e8 makes a8–f8 (six) and e4–e8 (exactly five).
    const board = setUp([...points('a8 b8 c8 d8 f8 e4 e5 e6 e7'), point('e8')], 'black', options);
    expect(outcomesAfter(board, point('e8')).reloaded).toEqual({ winner: 'black', reason: 'five' });
    // The line given is one that wins in this mode: the six in freestyle, which is looked at first, else the column.
    expect(board.winningLine(point('e8'))).toEqual(points(options.exactFive ? 'e4 e5 e6 e7 e8' : 'a8 b8 c8 d8 e8 f8'));
  });

  // docs/rules.md §Gomoku: only an unbroken line of five counts; lines do not continue across an edge.
  const NOT_FIVES = [
    ['four, a gap, one', 'a8 b8 c8 d8 f8'],
    ['one, a gap, four, in a column', 'h3 h5 h6 h7 h8'],
    ['two, a gap, three, on a diagonal', 'd4 e5 g7 h8 i9'],
    ['three, a gap, two, on a diagonal ↖', 'o1 n2 m3 k5 j6'],
    ['four', 'd8 e8 f8 g8'],
    ['a row wrapping from o1 to a2', 'l1 m1 n1 o1 a2'],
    ['a diagonal ↗ wrapping past the right edge', 'm1 n2 o3 a5 b6'],
    ['a diagonal ↖ wrapping past the left edge', 'c1 b2 a3 o3 n4'],
    ['a zigzag', 'a1 b2 a3 b4 a5'],
  ] as const;

  it.each(NOT_FIVES)('%s does not win', (_name, line) => {
    const stones = points(line);
    for (const [, options] of MODES) {
      const board = setUp(stones, 'black', options);
      expect(outcomesAfter(board, stones.at(-1)!)).toEqual({ incremental: null, reloaded: null });
      expect(stones.map((s) => board.winningLine(s))).toEqual(stones.map(() => null));
    }
  });
});

/** (file + 2 × rank) mod 4 < 2: runs of at most two in every direction, 113 black and 112 white. */
function noFivePattern(file: number, rank: number): Color {
  return (file + 2 * rank) % 4 < 2 ? 'black' : 'white';
}

describe('GomokuBoard full board', () => {
  // docs/rules.md §Gomoku: a full board with no five is a draw.
  it.each(MODES)('is a draw when no five was made (%s)', (_mode, options) => {
    const black: number[] = [];
    const white: number[] = [];
    for (let p = 0; p < POINTS; p++) (noFivePattern(p % SIZE, Math.floor(p / SIZE)) === 'black' ? black : white).push(p);
    expect([black.length, white.length]).toEqual([113, 112]);

    const board = GomokuBoard.empty(options);
    for (let i = 0; i < POINTS; i++) {
      board.make(i % 2 === 0 ? black[i / 2]! : white[(i - 1) / 2]!);
      if (i < POINTS - 1) expect(board.outcome()).toBeNull();
    }
    const draw = { winner: null, reason: 'board-full' };
    expect(board.outcome()).toEqual(draw);
    expect(board.countMoves()).toBe(0);
    expect(board.generateMoves(new Int32Array(POINTS), 0)).toBe(0);

    const position = board.toPosition();
    expect(gomokuRules.outcome(position)).toEqual(draw);
    expect(gomokuRules.legalMoves(position)).toEqual([]);
    expect(gomokuRules.check(position, 0)?.code).toBe('move/game_over');
    expect(gomokuRules.check(position, 300)?.code).toBe('move/game_over');
  });
});

describe('GomokuBoard.load', () => {
  const empty = '.'.repeat(POINTS);
  function withStones(stones: Record<string, 'X' | 'O'>): string {
    const chars = [...empty];
    for (const [name, stone] of Object.entries(stones)) {
      const p = point(name);
      chars[(SIZE - 1 - Math.floor(p / SIZE)) * SIZE + (p % SIZE)] = stone;
    }
    return chars.join('');
  }
  const line = (names: string, stone: 'X' | 'O') => Object.fromEntries(names.split(' ').map((n) => [n, stone]));
  const position = (board: string, exactFive = false): GomokuPosition => ({ game: 'gomoku', board, exactFive });

  it('places rank 15 first and file a first, so h8 is character 112 and a1 character 210', () => {
    const board = GomokuBoard.fromPosition(position(withStones({ h8: 'X', a1: 'O' })));
    expect(board.toPosition().board.indexOf('X')).toBe(112);
    expect(board.toPosition().board.indexOf('O')).toBe(210);
    expect([board.stoneAt(point('h8')), board.stoneAt(point('a1')), board.stoneAt(point('o15'))]).toEqual(['black', 'white', null]);
    expect(board.toMove).toBe('black');
  });

  // The brief: counts decide the side to move; both fives, or a five by the side to move, are invalid.
  const REJECTED = [
    ['white has more stones', position(withStones({ h8: 'O' })), 'position/invalid'],
    ['black has two more stones', position(withStones({ h8: 'X', h9: 'X' })), 'position/invalid'],
    ['both have a five', position(withStones({ ...line('a1 b1 c1 d1 e1', 'X'), ...line('a2 b2 c2 d2 e2', 'O') })), 'position/invalid'],
    ['black to move with a five', position(withStones({ ...line('a1 b1 c1 d1 e1', 'X'), ...line('a3 b3 c3 d3 e5', 'O') })), 'position/invalid'],
    ['white to move with a five', position(withStones({ ...line('a1 b1 c1 d1 f1 h1', 'X'), ...line('a2 b2 c2 d2 e2', 'O') })), 'position/invalid'],
    ['a board 224 long', position(empty.slice(1)), 'position/syntax'],
    ['a board with a stray character', position(`x${empty.slice(1)}`), 'position/syntax'],
    ['another game', { ...position(empty), game: 'othello' } as unknown as GomokuPosition, 'position/syntax'],
    ['no board string', { ...position(empty), board: 7 } as unknown as GomokuPosition, 'position/syntax'],
  ] as const;

  it.each(REJECTED)('refuses %s', (_name, input, code) => {
    const loaded = GomokuBoard.load(input);
    expect(loaded.ok ? 'ok' : loaded.error.code).toBe(code);
    expect(() => GomokuBoard.fromPosition(input)).toThrow();
  });

  it('accepts a five by the side that just moved and reports its win', () => {
    const black = GomokuBoard.fromPosition(position(withStones({ ...line('a1 b1 c1 d1 e1', 'X'), ...line('a3 b3 c3 d3', 'O') })));
    expect(black.outcome()).toEqual({ winner: 'black', reason: 'five' });
    const white = GomokuBoard.fromPosition(position(withStones({ ...line('a1 b1 c1 d1 f1', 'X'), ...line('a3 b3 c3 d3 e3', 'O') })));
    expect(white.outcome()).toEqual({ winner: 'white', reason: 'five' });
  });

  it('lets the side to move hold an overline with exactFive, where it is no win', () => {
    const board = position(withStones({ ...line('a1 b1 c1 d1 e1 f1', 'X'), ...line('a5 c5 e5 g5 i5 k5', 'O') }), true);
    expect(GomokuBoard.fromPosition(board).outcome()).toBeNull();
    expect(GomokuBoard.load({ ...board, exactFive: false }).ok).toBe(false);
  });
});

describe('GomokuBoard make, unmake, generateMoves', () => {
  it('lists every empty point in ascending order and takes moves back exactly', () => {
    const board = GomokuBoard.empty();
    const start = board.toPosition();
    const moves = new Int32Array(POINTS * 2);
    expect(board.generateMoves(moves, 5)).toBe(POINTS);
    expect(moves[5]).toBe(0);
    expect(moves[5 + POINTS - 1]).toBe(POINTS - 1);

    board.make(point('h8'));
    board.make(point('a1'));
    expect(board.toMove).toBe('black');
    expect([board.stoneCount, board.movesMade, board.lastMove]).toEqual([2, 2, point('a1')]);
    const n = board.generateMoves(moves, 0);
    expect(n).toBe(POINTS - 2);
    expect(board.countMoves()).toBe(n);
    expect(Array.from(moves.subarray(0, 3))).toEqual([1, 2, 3]);
    expect(Array.from(moves.subarray(0, n)).includes(point('h8'))).toBe(false);

    board.unmake();
    board.unmake();
    expect(board.toPosition()).toEqual(start);
    expect(board.lastMove).toBe(-1);
  });

  it('takes back a winning move and the win with it', () => {
    const board = setUp(points('a1 b1 c1 d1 e1'), 'black', FREESTYLE);
    const before = board.toPosition();
    board.make(point('e1'));
    expect(board.winner).toBe('black');
    board.unmake();
    expect(board.winner).toBeNull();
    expect(board.toPosition()).toEqual(before);
  });

  it('throws on a bug: an illegal make, or an unmake with nothing to take back', () => {
    const board = GomokuBoard.empty();
    expect(() => board.unmake()).toThrow();
    board.make(point('h8'));
    for (const bad of [point('h8'), -1, POINTS, 1.5, Number.NaN]) expect(() => board.make(bad)).toThrow();
    const won = setUp(points('a1 b1 c1 d1 e1'), 'black', FREESTYLE);
    won.make(point('e1'));
    expect(() => won.make(point('h8'))).toThrow();
  });

  // No game ends before ply 9, so perft is 225 × 224 × … (shared/perft.ts).
  it.each([
    [1, 225],
    [2, 225 * 224],
    [3, 225 * 224 * 223],
  ])('perft(%i) from the start is %i', (depth, leaves) => {
    expect(perft(GomokuBoard.empty(), depth)).toBe(leaves);
  });
});
