import { describe, expect, it } from 'vitest';
import { OthelloBoard, PASS } from '../../shared/othello/board.js';
import { parseOthelloMove } from '../../shared/othello/notation.js';
import { othelloBoardOf, othelloPositionOf, othelloRules } from '../../shared/othello/rules.js';
import { WIN_THRESHOLD } from '../engine/game.js';
import { search } from '../engine/search.js';
import { solve } from './endgame.js';
import { ffoPositions } from './ffo.js';
import { exactScore, marginOf, OthelloSearchBoard } from './search-board.js';
import { positionsAlongRandomGames } from './test-positions.js';
import { seededBelow } from '../../shared/random.js';
import { moves, popcount } from '../../shared/othello/bitboard.js';
import { evaluateLearned } from './learned-eval.js';

function square(text: string): number {
  const parsed = parseOthelloMove(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

function played(moves: string): OthelloSearchBoard {
  const board = OthelloSearchBoard.from(OthelloBoard.start());
  for (const move of moves.split(' ')) board.make(square(move));
  return board;
}

function withDiscs(discs: { black: string[]; white: string[] }, toMove: 'black' | 'white'): OthelloSearchBoard {
  const cells = Array.from({ length: 64 }, () => '-');
  for (const s of discs.black) cells[square(s)] = 'X';
  for (const s of discs.white) cells[square(s)] = 'O';
  return fromObf(`${cells.join('')} ${toMove === 'black' ? 'X' : 'O'}`);
}

function fromObf(obf: string): OthelloSearchBoard {
  const parsed = othelloRules.parsePosition(obf);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return OthelloSearchBoard.from(othelloBoardOf(parsed.value));
}

/** Positions along random games, every few plies. */
function randomPositions(seed: number, games: number): OthelloSearchBoard[] {
  return positionsAlongRandomGames(seed, games, (ply) => ply % 7 === 3);
}

/** The eight symmetries of the square, as maps of (row, col). */
const SYMMETRIES: readonly ((r: number, c: number) => [number, number])[] = [
  (r, c) => [r, c],
  (r, c) => [r, 7 - c],
  (r, c) => [7 - r, c],
  (r, c) => [7 - r, 7 - c],
  (r, c) => [c, r],
  (r, c) => [c, 7 - r],
  (r, c) => [7 - c, r],
  (r, c) => [7 - c, 7 - r],
];

function transformed(board: OthelloSearchBoard, symmetry: (r: number, c: number) => [number, number]): OthelloSearchBoard {
  const p = othelloPositionOf(board);
  const cells = new Array<string>(64);
  for (let s = 0; s < 64; s++) {
    const [r, c] = symmetry(s >> 3, s & 7);
    cells[r * 8 + c] = p.board[s]!;
  }
  return OthelloSearchBoard.from(othelloBoardOf({ ...p, board: cells.join('') }));
}

/** The learned evaluation read from the board's discs, as if the position were new. */
function learnedFromDiscs(board: OthelloBoard): number {
  const m = new Int32Array(2);
  moves(board.pHi, board.pLo, board.oHi, board.oLo, m);
  return evaluateLearned(board.pHi, board.pLo, board.oHi, board.oLo, popcount(m[0]!) + popcount(m[1]!));
}

describe('moves on the search board', () => {
  it('agree with OthelloBoard along random games, and unmake restores every position', () => {
    const random = seededBelow(17);
    const buffer = new Int32Array(33);
    const reference = new Int32Array(33);
    for (let game = 0; game < 30; game++) {
      const board = OthelloSearchBoard.from(OthelloBoard.start());
      const plain = OthelloBoard.start();
      const seen: string[] = [];
      for (;;) {
        const n = board.generateMoves(buffer, 0);
        expect(Array.from(buffer.subarray(0, n))).toEqual(Array.from(reference.subarray(0, plain.generateMoves(reference, 0))));
        expect(board.countMoves()).toBe(n);
        if (n === 0) break;
        seen.push(JSON.stringify(othelloPositionOf(board)));
        const move = buffer[random(n)]!;
        board.make(move);
        plain.make(move);
        expect(othelloPositionOf(board)).toEqual(othelloPositionOf(plain));
        // The evaluation reuses the mobility found for this position and the pattern indices kept
        // move by move: it must be this position's, read from the discs alone.
        expect(board.evaluate()).toBe(learnedFromDiscs(board));
      }
      for (let i = seen.length - 1; i >= 0; i--) {
        board.unmake();
        expect(JSON.stringify(othelloPositionOf(board))).toBe(seen[i]);
        expect(board.evaluate()).toBe(learnedFromDiscs(board));
      }
    }
  });
});

describe('Zobrist keys', () => {
  it('are equal for a position reached by different move orders', () => {
    // Found by enumerating four-ply games from the start: both reach the same discs, white to move.
    const a = played('d3 c3 c4 e3');
    const b = played('c4 c3 d3 e3');
    expect(othelloPositionOf(a)).toEqual(othelloPositionOf(b));
    expect([a.hashHi(), a.hashLo()]).toEqual([b.hashHi(), b.hashLo()]);
    expect([a.hashHi(), a.hashLo()]).not.toEqual([played('d3 c3 c4 c5').hashHi(), played('d3 c3 c4 c5').hashLo()]);
  });

  it('change with a pass, and come back when it is taken back', () => {
    // The pass example of docs/rules.md §Othello: a1 black, b1 white, white to move has no placement.
    const board = fromObf('XO' + '-'.repeat(62) + ' O');
    const before = [board.hashHi(), board.hashLo()];
    board.make(PASS);
    expect([board.hashHi(), board.hashLo()]).not.toEqual(before);
    board.unmake();
    expect([board.hashHi(), board.hashLo()]).toEqual(before);
  });

  it('follow make and unmake along random games, and rarely collide', () => {
    const keys = new Map<string, string>();
    for (const board of randomPositions(11, 60)) {
      const key = `${board.hashHi()}:${board.hashLo()}`;
      const discs = JSON.stringify(othelloPositionOf(board));
      expect(keys.get(key) ?? discs).toBe(discs);
      keys.set(key, discs);
    }
    expect(keys.size).toBeGreaterThan(400);
  });
});

describe('evaluation', () => {
  it('is the same under the eight symmetries of the board', () => {
    for (const board of randomPositions(3, 40)) {
      const score = board.evaluate();
      for (const symmetry of SYMMETRIES) expect(transformed(board, symmetry).evaluate()).toBe(score);
    }
  });

  it('scores the four first moves alike (they are symmetric), stays inside the win threshold, and likes corners', () => {
    const afterFirstMove = ['f5', 'e6', 'd3', 'c4'].map((m) => {
      const board = OthelloSearchBoard.from(OthelloBoard.start());
      board.make(square(m));
      return board.evaluate();
    });
    expect(new Set(afterFirstMove).size).toBe(1);
    for (const board of randomPositions(5, 40)) expect(Math.abs(board.evaluate())).toBeLessThan(WIN_THRESHOLD);
    // The same discs but black holds a1 instead of having an empty corner: better for black.
    const without = fromObf('-XXXXXX-' + '-'.repeat(24) + '---XO---' + '-'.repeat(24) + ' X');
    const withCorner = fromObf('XXXXXXX-' + '-'.repeat(24) + '---XO---' + '-'.repeat(24) + ' X');
    expect(withCorner.evaluate()).toBeGreaterThan(without.evaluate());
  });

  it('is the same with the colours swapped, the side to move\'s discs kept', () => {
    for (const board of randomPositions(8, 20)) {
      // The side to move's discs become the other colour's, and that colour is to move.
      const pColour = board.blackToMove ? 'white' : 'black';
      const swapped = OthelloSearchBoard.from(pColour === 'black'
        ? OthelloBoard.fromDiscs(board.pHi, board.pLo, board.oHi, board.oLo, pColour)
        : OthelloBoard.fromDiscs(board.oHi, board.oLo, board.pHi, board.pLo, pColour));
      expect(swapped.toMove).toBe(pColour);
      expect([swapped.pHi, swapped.pLo, swapped.oHi, swapped.oLo]).toEqual([board.pHi, board.pLo, board.oHi, board.oLo]);
      expect(swapped.evaluate()).toBe(board.evaluate());
    }
  });
});

describe('search board', () => {
  it('orders a corner before an X-square', () => {
    // Black to move may take a1 (over b1 to c1) or g7, an X-square beside the empty h8 (over f6 to e5).
    const board = withDiscs({ black: ['c1', 'e5'], white: ['b1', 'f6'] }, 'black');
    const corner = square('a1');
    const xSquare = square('g7');
    expect(board.canPlace(corner)).toBe(true);
    expect(board.canPlace(xSquare)).toBe(true);
    expect(board.orderScore(corner)).toBeGreaterThan(board.orderScore(xSquare));
    expect(board.orderScore(PASS)).toBe(0);
  });

  it('reports results by disc count', () => {
    expect(fromObf('X'.repeat(33) + 'O'.repeat(31) + ' X').result()).toBe(1);
    expect(fromObf('X'.repeat(32) + 'O'.repeat(32) + ' O').result()).toBe(0);
    expect(fromObf('X'.repeat(33) + 'O'.repeat(31) + ' O').result()).toBe(-1);
  });

  it('maps exact margins to scores beyond every evaluation, and back', () => {
    for (const margin of [-64, -2, 2, 38, 64]) {
      expect(Math.abs(exactScore(margin))).toBeGreaterThanOrEqual(WIN_THRESHOLD);
      expect(marginOf(exactScore(margin))).toBe(margin);
    }
    expect(exactScore(0)).toBe(0);
    expect(exactScore(4)).toBeGreaterThan(exactScore(2));
    expect(exactScore(-4)).toBeLessThan(exactScore(-2));
  });

  it('hands a small endgame to the solver through the search', () => {
    // FFO #40 after a2 and white's first reply: 18 empties, well within a 20-second deadline.
    const board = OthelloSearchBoard.from(ffoPositions()[0]!.board);
    board.make(square('a2'));
    const buffer = new Int32Array(33);
    board.generateMoves(buffer, 0);
    board.make(buffer[0]!);
    expect(board.empties()).toBe(18);
    const expected = solve(board)!.score;
    const report = search(board, { deadline: performance.now() + 20_000 });
    expect(marginOf(report.score)).toBe(expected || undefined);
    expect(report.move).toBe(solve(board)!.move);
  });

  it('plays a legal move in the midgame under a short deadline', () => {
    for (const board of randomPositions(21, 3).slice(0, 6)) {
      const legal = othelloRules.legalMoves(othelloPositionOf(board));
      const report = search(OthelloSearchBoard.from(board), { deadline: performance.now() + 50 });
      expect(legal).toContain(report.move);
    }
  });
});
