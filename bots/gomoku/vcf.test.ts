import { describe, expect, it } from 'vitest';
import { GomokuBoard, POINTS, SIZE } from '../../shared/gomoku/board.js';
import { formatMove } from '../../shared/gomoku/notation.js';
import { GomokuSearchBoard } from './search-board.js';
import { point, points, positionOf } from './test-positions.js';
import { findVcf, movesThatStop } from './vcf.js';
import { findVct } from './vct.js';

/*
 * An oracle that shares no code with vcf.ts or the pattern tables: stones in a plain array, fives
 * found by counting runs, every empty point tried as the attacker's four. Slow, fine for a few plies.
 */
const STEPS = [
  [1, 0],
  [0, 1],
  [1, 1],
  [1, -1],
] as const;

function makesFive(cells: Uint8Array, p: number, stone: number, exactFive: boolean): boolean {
  const file = p % SIZE;
  const rank = (p - file) / SIZE;
  for (const [df, dr] of STEPS) {
    let length = 1;
    for (const sign of [1, -1]) {
      let f = file + sign * df;
      let r = rank + sign * dr;
      while (f >= 0 && f < SIZE && r >= 0 && r < SIZE && cells[r * SIZE + f] === stone) {
        length++;
        f += sign * df;
        r += sign * dr;
      }
    }
    if (length === 5 || (length > 5 && !exactFive)) return true;
  }
  return false;
}

function fivePoints(cells: Uint8Array, stone: number, exactFive: boolean): number[] {
  const found: number[] = [];
  for (let p = 0; p < POINTS; p++) if (cells[p] === 0 && makesFive(cells, p, stone, exactFive)) found.push(p);
  return found;
}

function oracleHasVcf(cells: Uint8Array, attacker: number, depth: number, exactFive: boolean): boolean {
  const defender = 3 - attacker;
  if (fivePoints(cells, attacker, exactFive).length > 0) return true;
  if (depth === 0) return false;
  const threats = fivePoints(cells, defender, exactFive);
  if (threats.length >= 2) return false;
  const tries = threats.length === 1 ? threats : Array.from({ length: POINTS }, (_, p) => p).filter((p) => cells[p] === 0);
  for (const move of tries) {
    cells[move] = attacker;
    const fives = fivePoints(cells, attacker, exactFive);
    let won = fives.length >= 2;
    if (fives.length === 1) {
      cells[fives[0]!] = defender;
      won = oracleHasVcf(cells, attacker, depth - 1, exactFive);
      cells[fives[0]!] = 0;
    }
    cells[move] = 0;
    if (won) return true;
  }
  return false;
}

function cellsOf(board: GomokuBoard): Uint8Array {
  return Uint8Array.from({ length: POINTS }, (_, p) => {
    const color = board.stoneAt(p);
    return color === null ? 0 : color === 'black' ? 1 : 2;
  });
}

/** Replays a VCF on the rules board: each attacker move but the last threatens five, each defence is the forced block, the last move wins. */
function expectSoundVcf(board: GomokuBoard, sequence: readonly number[]): void {
  const attacker = board.toMove;
  const attackerCell = attacker === 'black' ? 1 : 2;
  for (let i = 0; i < sequence.length; i++) {
    const move = sequence[i]!;
    expect(board.problemWith(move)).toBeUndefined();
    if (i % 2 === 1) {
      // The defender's move stands on a point where the attacker would have made five.
      expect(fivePoints(cellsOf(board), attackerCell, board.exactFive)).toContain(move);
    }
    board.make(move);
    if (i === sequence.length - 1) {
      expect(board.winner).toBe(attacker);
    } else {
      expect(board.isOver).toBe(false);
      if (i % 2 === 0) expect(fivePoints(cellsOf(board), attackerCell, board.exactFive).length).toBeGreaterThan(0);
    }
  }
}

// Positions constructed for these tests (the side to move from the counts: equal means black).
// Whether a VCF exists is checked against the oracle above as well as written down here.
const CASES: readonly { name: string; black: string; white: string; win: boolean; plies?: number; exactFive?: boolean }[] = [
  {
    name: 'a double four: k8 makes fours on rank 8 and file k',
    black: 'h8 i8 j8 k5 k6 k7',
    white: 'g8 k4 a15 o1 a1 o15',
    win: true,
    plies: 3,
  },
  {
    name: 'a four-three: k8 is a four that also opens k8-k10, which becomes an open four after the block',
    black: 'h8 i8 j8 k9 k10',
    white: 'g8 a1 o1 a15 o15',
    win: true,
    plies: 5,
  },
  {
    // Found by a random search over crowded positions, kept because it needs three fours (g10, g11, e11) before the five.
    name: 'a line of three fours: g10 (g7 forced), g11 (g12), then e11 makes a double four',
    black: 'g6 h6 g8 h8 g9 k10 f11 h11',
    white: 'f5 g5 i5 i6 h9 k9 f10 h10',
    win: true,
    plies: 7,
  },
  {
    name: 'the only four leads nowhere',
    black: 'h8 i8 j8 c3',
    white: 'g8 a15 o1 m12',
    win: false,
  },
  {
    name: 'the defender escapes: blocking the four-three at l8 gives white an open four on file l',
    black: 'h8 i8 j8 k9 k10 c3',
    white: 'g8 l9 l10 l11 a1 o1',
    win: false,
  },
  {
    name: 'with exactFive, a four whose completion is a six is no threat',
    black: 'f8 g8 i8 j8 k8',
    white: 'e8 a1 o1 a15 o15',
    win: false,
    exactFive: true,
  },
  {
    name: 'without exactFive the same six wins at once',
    black: 'f8 g8 i8 j8 k8',
    white: 'e8 a1 o1 a15 o15',
    win: true,
    plies: 1,
  },
];

describe('findVcf', () => {
  it.each(CASES)('$name', ({ black, white, win, plies, exactFive }) => {
    const position = positionOf(black, white, exactFive === true);
    const rules = GomokuBoard.fromPosition(position);
    const attacker = rules.toMove === 'black' ? 1 : 2;
    expect(oracleHasVcf(cellsOf(rules), attacker, 3, exactFive === true)).toBe(win);

    const board = GomokuSearchBoard.fromPosition(position);
    const before = [board.hashHi(), board.hashLo()];
    const result = findVcf(board, { nodeLimit: 100_000 });
    expect([board.hashHi(), board.hashLo()]).toEqual(before);
    expect(result.stopped).toBe(false);
    if (!win) {
      expect(result.sequence).toEqual([]);
      return;
    }
    if (plies !== undefined) expect(result.sequence).toHaveLength(plies);
    expectSoundVcf(rules, result.sequence);
  });

  it('gives up within its node limit', () => {
    const board = GomokuSearchBoard.fromPosition(positionOf('h8 i8 j8 k9 k10', 'g8 a1 o1 a15 o15'));
    const result = findVcf(board, { nodeLimit: 1 });
    expect(result.nodes).toBeLessThan(300);
  });

  it('formats its lines readably (for reports)', () => {
    const board = GomokuSearchBoard.fromPosition(positionOf('h8 i8 j8 k5 k6 k7', 'g8 k4 a15 o1 a1 o15'));
    expect(findVcf(board).sequence.map(formatMove)[0]).toBe('k8');
  });
});

describe('movesThatStop', () => {
  const threatWin = (board: GomokuSearchBoard) => {
    const vct = findVct(board, { maxDepth: 3, nodeLimit: 20_000 });
    return { won: vct.move >= 0, stopped: vct.stopped, nodes: vct.nodes };
  };

  it("proves safe only the moves after which the opponent's open three no longer wins", () => {
    // Black's open three h8 i8 j8; white (to move) has two stones far off. A stone one further
    // out (f8, l8) still lets black make an open four, so only the two ends stop it.
    const board = GomokuSearchBoard.fromPosition(positionOf('h8 i8 j8', 'a1 o15'));
    const { proven, unrefuted } = movesThatStop(board, threatWin, Infinity);
    expect(proven.map(formatMove).sort()).toEqual(['g8', 'k8']);
    expect(unrefuted).toEqual([]);
  });

  it('sorts the checked moves into proven and cut short, and drops the refuted', () => {
    const board = GomokuSearchBoard.fromPosition(positionOf('h8 i8', 'a1'));
    const [refuted, cutShort, proven] = points('h9 h7 g8');
    const verdict = (b: GomokuSearchBoard) => ({ won: b.lastMove === refuted, stopped: b.lastMove === cutShort, nodes: 1 });
    const considered = new Set([refuted, cutShort, proven]);
    const result = movesThatStop(board, verdict, Infinity, (move) => considered.has(move));
    expect(result.proven).toEqual([proven]);
    expect(result.unrefuted).toEqual([cutShort]);
  });

  it('checks the urgent moves first, whatever their pattern gain, and even where `consider` would not', () => {
    const board = GomokuSearchBoard.fromPosition(positionOf('h8 i8', 'a1'));
    const urgent = point('f6');
    const checked: number[] = [];
    const verdict = (b: GomokuSearchBoard) => {
      checked.push(b.lastMove);
      return { won: true, stopped: false, nodes: 1 };
    };
    const { sensible } = movesThatStop(board, verdict, Infinity, undefined, (move) => move === urgent);
    expect(board.orderScore(urgent)).toBeLessThan(board.orderScore(sensible[1]!));
    expect(checked[0]).toBe(urgent);
    expect(sensible[0]).toBe(urgent);
    expect(checked).toHaveLength(sensible.length);
    checked.length = 0;
    movesThatStop(board, verdict, Infinity, () => false, (move) => move === urgent);
    expect(checked).toEqual([urgent]);
  });

  it('proves nothing when no single stone stops the threat, and still lists every sensible move', () => {
    // Two open threes far apart (h8 i8 j8 and c3 c4 c5): no single stone blocks both.
    const board = GomokuSearchBoard.fromPosition(positionOf('h8 i8 j8 c3 c4 c5', 'o15 a15 o1 n1 o2'));
    expect(board.sideToMove).toBe(2);
    const { proven, unrefuted, sensible } = movesThatStop(board, threatWin, Infinity);
    expect([...proven, ...unrefuted]).toEqual([]);
    const all = new Int32Array(POINTS);
    expect(sensible.length).toBe(board.allSensibleMoves(all, 0));
    expect(sensible).toEqual(expect.arrayContaining(points('g8 k8 c2 c6')));
  });
});
