import { describe, expect, it } from 'vitest';
import { formatMove } from '../../shared/gomoku/notation.js';
import { FLEX4 } from './patterns.js';
import { GomokuSearchBoard } from './search-board.js';
import { point, positionOf } from './test-positions.js';
import { findVcf } from './vcf.js';
import { findVct } from './vct.js';

// Positions constructed for these tests (equal counts: black to move). A double three wins when the
// defender has no four to answer with: it blocks one three, the other becomes an open four.
const CASES: readonly { name: string; black: string; white: string; win: boolean; depth: number }[] = [
  { name: 'a double three at j8 (rank 8 and file j)', black: 'h8 i8 j9 j10', white: 'a1 o1 a15 o15', win: true, depth: 1 },
  {
    // Found by a random search over small positions: no VCF, no VCT of one threat, one of two.
    name: 'two threats: one three, then a double threat whatever white blocks',
    black: 'i7 h8 j8 j10',
    white: 'j6 f8 g9 h9',
    win: true,
    depth: 2,
  },
  { name: 'a lone open two has no continuation', black: 'h8 i8', white: 'a1 o1', win: false, depth: 4 },
  {
    name: 'the double three fails when white can answer with fours that end in its own five',
    black: 'h8 i8 j9 j10 a3',
    white: 'c12 d12 e12 f13 c11',
    win: false,
    depth: 2,
  },
];

describe('findVct', () => {
  it.each(CASES)('$name', ({ black, white, win, depth }) => {
    const board = GomokuSearchBoard.fromPosition(positionOf(black, white));
    const before = [board.hashHi(), board.hashLo()];
    expect(findVcf(board).sequence).toEqual([]); // not a win by fours alone
    const result = findVct(board, { maxDepth: depth, nodeLimit: 200_000 });
    expect([board.hashHi(), board.hashLo()]).toEqual(before);
    expect(result.stopped).toBe(false);
    if (!win) {
      expect(result.move).toBe(-1);
      return;
    }
    expect(result.move).toBeGreaterThanOrEqual(0);
    // The first move is a threat: afterwards black can make an open four (or already has a four).
    const attacker = board.sideToMove;
    board.make(result.move);
    expect(board.patterns.count(attacker, FLEX4) + board.fiveMoves(attacker, new Int32Array(225), 0)).toBeGreaterThan(0);
    board.unmake();
    expect(formatMove(result.move)).toMatch(/^[a-o]\d+$/);
  });

  it('finds a short win cheaply even when allowed many threats (it deepens one threat at a time)', () => {
    // From an engine game, black to move: h8 starts a win of two threats.
    const board = GomokuSearchBoard.fromPosition(positionOf('j7 g7 l7 k7 i9 h7', 'j9 k8 i8 i7 k10 k11'));
    const result = findVct(board, { maxDepth: 6, nodeLimit: 2000 });
    expect(result.stopped).toBe(false);
    expect(formatMove(result.move)).toBe('h8');
  });

  it('needs its depth: the two-threat win is not found with one', () => {
    const board = GomokuSearchBoard.fromPosition(positionOf('i7 h8 j8 j10', 'j6 f8 g9 h9'));
    expect(findVct(board, { maxDepth: 1 }).move).toBe(-1);
  });

  it('marks the points it played: the winning first threat as an attacker move, a block of it as a defender move', () => {
    const board = GomokuSearchBoard.fromPosition(positionOf('i7 h8 j8 j10', 'j6 f8 g9 h9'));
    const played = new Uint8Array(225);
    const result = findVct(board, { maxDepth: 2, nodeLimit: 200_000, played });
    expect(result.move).toBeGreaterThanOrEqual(0);
    expect(played[result.move]! & 1).toBe(1);
    expect(played.some((mark) => (mark & 2) !== 0)).toBe(true);
    expect(played[point('a1')]).toBe(0);
  });
});
