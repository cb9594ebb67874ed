import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { perft } from '../perft.js';
import { OthelloBoard, PASS } from './board.js';
import { formatOthelloMove, parseOthelloMove } from './notation.js';
import { othelloPerft } from './perft.js';
import { othelloBoardOf, othelloPositionOf, othelloRules, type OthelloPosition } from './rules.js';

const rules = othelloRules;
const square = (name: string): number => {
  const parsed = parseOthelloMove(name);
  if (!parsed.ok) throw new Error(name);
  return parsed.value;
};
const position = (obf: string): OthelloPosition => {
  const parsed = rules.parsePosition(obf);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
};
const playAll = (moves: string): OthelloPosition =>
  moves.split(' ').reduce((p, m) => rules.play(p, square(m)), rules.start());

// docs/rules.md §Perft, Othello: Aart Bik's table, reproduced by Edax 4.6 and Egaroucid 7.8.
const PERFT: [number, number][] = [
  [1, 4],
  [2, 12],
  [3, 56],
  [4, 244],
  [5, 1396],
  [6, 8200],
  [7, 55092],
  [8, 390216],
  [9, 3005288],
];

describe('othello perft from the start', () => {
  it.each(PERFT)('depth %i has %i leaves (bitboard perft)', (depth, leaves) => {
    expect(othelloPerft(OthelloBoard.start(), depth)).toBe(leaves);
  });

  it.each(PERFT.slice(0, 7))('depth %i has %i leaves (make/unmake through MutableBoard)', (depth, leaves) => {
    expect(perft(OthelloBoard.start(), depth)).toBe(leaves);
  });
});

describe('othello rules', () => {
  it('starts with d4 e5 white, d5 e4 black, black to move, four moves d3 c4 f5 e6', () => {
    const start = rules.start();
    expect(rules.formatPosition(start)).toBe('---------------------------OX------XO--------------------------- X');
    expect(rules.legalMoves(start).map(formatOthelloMove).sort()).toEqual(['c4', 'd3', 'e6', 'f5']);
  });

  it('flips every bracketed line and only those', () => {
    // a1 brackets b1 c1 (to d1), a2 (to a3) and b2 (to c3); e1 f1 are white but not bracketed.
    const rows = ['-OOX-OO-', 'OO------', 'X-X-----'];
    const p = position(rows.join('') + '-'.repeat(40) + ' X');
    const after = rules.play(p, square('a1'));
    expect(after.board.slice(0, 24)).toBe(['XXXX-OO-', 'XX------', 'X-X-----'].join(''));
    expect(after.toMove).toBe('white');
  });

  it('passes only when there is no placement, and the pass is a ply', () => {
    // a1 black, b1 white: white cannot bracket the corner; black can play c1.
    const p = position('XO' + '-'.repeat(62) + ' O');
    expect(rules.legalMoves(p)).toEqual([PASS]);
    expect(rules.check(p, PASS)).toBeUndefined();
    expect(rules.check(p, square('d1'))?.code).toBe('move/must_pass');
    const after = rules.play(p, PASS);
    expect(after).toEqual({ ...p, toMove: 'black' });
    expect(rules.legalMoves(after)).toEqual([square('c1')]);
    expect(rules.outcome(after)).toBeNull();
  });

  it('ends early when neither side can move, and counts the discs', () => {
    // docs/rules.md §Othello: the game ends when neither side can move, board full or not.
    const p = position('XXXX' + '-'.repeat(59) + 'O X');
    expect(rules.legalMoves(p)).toEqual([]);
    expect(rules.outcome(p)).toEqual({ winner: 'black', reason: 'no-moves' });
    // Maruo's 9-move wipeout (peat/reversi README; test/fixtures/records/othello.json): 13–0.
    const wipe = playAll('e6 f4 e3 f6 g5 d6 e7 f5 c5');
    expect(rules.outcome(wipe)).toEqual({ winner: 'black', reason: 'no-moves' });
    expect(othelloBoardOf(wipe).discCount('black')).toBe(13);
    expect(othelloBoardOf(wipe).discCount('white')).toBe(0);
  });

  it('ends on a full board with the count deciding, equal being a draw', () => {
    const draw = position('X'.repeat(32) + 'O'.repeat(32) + ' X');
    expect(rules.outcome(draw)).toEqual({ winner: null, reason: 'board-full' });
    const white = position('X'.repeat(31) + 'O'.repeat(33) + ' O');
    expect(rules.outcome(white)).toEqual({ winner: 'white', reason: 'board-full' });
  });
});

describe('othello rejections, each with its code', () => {
  const start = rules.start();
  it.each([
    ['game over', position('X'.repeat(64) + ' O'), square('a1'), undefined, 'move/game_over'],
    ['not your turn', start, square('f5'), 'white', 'move/not_your_turn'],
    ['pass with moves', start, PASS, undefined, 'move/pass_not_allowed'],
    ['off the board', start, 99, undefined, 'move/off_board'],
    ['occupied', start, square('d4'), undefined, 'move/occupied'],
    ['no flip', start, square('a1'), undefined, 'move/no_flip'],
  ] as const)('%s → %s', (_name, p, move, by, code) => {
    const error = rules.check(p, move, by);
    expect(error?.code).toBe(code);
    expect(error?.message.length).toBeGreaterThan(10);
    if (by === undefined) expect(() => rules.play(p, move)).toThrow();
  });

  it('unparsable moves are move/syntax', () => {
    for (const text of ['', 'f555', 'passs', '5f', 'f-5']) {
      const parsed = parseOthelloMove(text);
      expect(parsed.ok ? 'ok' : parsed.error.code).toBe('move/syntax');
    }
  });

  it('squares beyond a–h and 1–8 are move/off_board, as in Gomoku and MiniChess', () => {
    for (const text of ['i1', 'a9', 'a0', 'f55', 'z9']) {
      const parsed = parseOthelloMove(text);
      expect(parsed.ok ? 'ok' : parsed.error.code).toBe('move/off_board');
    }
  });
});

describe('othello notation', () => {
  it('round-trips every square and the pass', () => {
    for (let s = 0; s < 64; s++) expect(parseOthelloMove(formatOthelloMove(s))).toEqual({ ok: true, value: s });
    expect(parseOthelloMove('pass')).toEqual({ ok: true, value: PASS });
    expect(parseOthelloMove('F5')).toEqual({ ok: true, value: square('f5') });
    expect(formatOthelloMove(square('a1'))).toBe('a1');
    expect(square('a1')).toBe(0);
    expect(square('h8')).toBe(63);
  });

  it('reads OBF lines with comments and lower case, and writes them back', () => {
    const line = 'O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C7:+36';
    const p = position(line);
    expect(p.toMove).toBe('black');
    expect(rules.formatPosition(p)).toBe(line.split(';')[0]);
    expect(position(line.toLowerCase())).toEqual(p);
  });

  it('any string in gives a position or a coded error, never a throw', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        const parsed = rules.parsePosition(text);
        if (!parsed.ok) expect(parsed.error.code).toBe('position/syntax');
        const move = rules.parseMove(text);
        if (!move.ok) expect(['move/syntax', 'move/off_board']).toContain(move.error.code);
      }),
    );
  });
});

describe('othello random playouts', () => {
  it('never reach an illegal state, unmake restores, and always end', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { minLength: 130, maxLength: 130 }), (choices) => {
        const board = OthelloBoard.start();
        let pure = rules.start();
        const buffer = new Int32Array(board.maxMoves);
        const snapshots: string[] = [];
        let plies = 0;
        for (const choice of choices) {
          const n = board.generateMoves(buffer, 0);
          expect(rules.legalMoves(pure)).toEqual(Array.from(buffer.subarray(0, n)));
          if (n === 0) break;
          const move = buffer[choice % n]!;
          expect(rules.check(pure, move)).toBeUndefined();
          snapshots.push(JSON.stringify(othelloPositionOf(board)));
          board.make(move);
          pure = rules.play(pure, move);
          plies++;
          expect(othelloPositionOf(board)).toEqual(pure);
          const black = board.discCount('black');
          const white = board.discCount('white');
          expect(black + white).toBe(pure.board.replaceAll('-', '').length);
          expect((board.pHi & board.oHi) | (board.pLo & board.oLo)).toBe(0);
        }
        expect(rules.outcome(pure)).not.toBeNull();
        expect(plies).toBeLessThanOrEqual(120);
        for (let i = snapshots.length - 1; i >= 0; i--) {
          board.unmake();
          expect(JSON.stringify(othelloPositionOf(board))).toBe(snapshots[i]);
        }
      }),
      { numRuns: 100 },
    );
  });
});
