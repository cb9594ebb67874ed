import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { opposite } from '../color.js';
import { MOVE_ERROR_CODES } from '../rules.js';
import { MiniChessBoard, PIECE_KINDS, PIECE_VALUES, PROMOTION_SUFFIX, SQUARE_COUNT, STEP_LIMIT, makeMove, type MiniChessPosition } from './board.js';
import { formatMove, formatPosition, parseMove, parsePosition } from './notation.js';
import { kingCapture, minichessRules as rules } from './rules.js';

function position(text: string): MiniChessPosition {
  const parsed = parsePosition(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

function move(text: string): number {
  const parsed = parseMove(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

function playAll(from: MiniChessPosition, moves: readonly string[]): MiniChessPosition {
  return moves.reduce((current, text) => rules.play(current, move(text)), from);
}

function materialFromScratch(p: MiniChessPosition, color: 'white' | 'black'): number {
  let total = 0;
  for (const char of p.board) {
    const kind = 'prnbqk'.indexOf(char.toLowerCase());
    const white = char !== char.toLowerCase();
    if (kind >= 0 && white === (color === 'white')) total += PIECE_VALUES[PIECE_KINDS[kind]!];
  }
  return total;
}

describe('moves', () => {
  test('the start has the seven moves of docs/rules.md §MiniChess, and pawns never step twice', () => {
    const start = rules.start();
    expect(formatPosition(start)).toBe('kqbnr/ppppp/5/5/PPPPP/RNBQK w 1');
    expect(rules.legalMoves(start).map(formatMove).sort()).toEqual(['a2a3', 'b1a3', 'b1c3', 'b2b3', 'c2c3', 'd2d3', 'e2e3']);
    expect(rules.check(start, move('b2b4'))?.code).toBe('move/unreachable');
    const black = rules.play(start, move('b2b3'));
    expect(rules.legalMoves(black).map(formatMove).sort()).toEqual(['a5a4', 'b5b4', 'c5c4', 'd5d4', 'd6c4', 'd6e4', 'e5e4']);
    expect(rules.check(black, move('c5c3'))?.code).toBe('move/unreachable');
  });

  test('a pawn captures diagonally forward only, and never straight ahead', () => {
    const p = position('4k/5/5/1pn2/1P3/K4 w 9');
    expect(rules.legalMoves(p).map(formatMove).filter((m) => m.startsWith('b2'))).toEqual(['b2c3']);
    expect(rules.check(position('4k/5/5/5/1Pn2/K4 w 9'), move('b2c2'))?.code).toBe('move/unreachable');
  });

  // docs/rules.md §MiniChess: a pawn reaching the far rank becomes a queen on the spot.
  const promotions = [
    ['4k/1P3/5/5/5/K4 w 11', 'b5b6', '1Q2k/5/5/5/5/K4 b 12'],
    ['4k/1P3/5/5/5/K4 w 11', 'b5b6q', '1Q2k/5/5/5/5/K4 b 12'],
    ['4k/1P3/5/5/5/K4 w 11', 'B5B6Q', '1Q2k/5/5/5/5/K4 b 12'],
    ['2n1k/1P3/5/5/5/K4 w 11', 'b5c6', '2Q1k/5/5/5/5/K4 b 12'],
    ['2n1k/1P3/5/5/5/K4 w 11', 'b5c6q', '2Q1k/5/5/5/5/K4 b 12'],
    ['4k/5/5/5/3p1/K4 b 12', 'd2d1', '4k/5/5/5/5/K2q1 w 13'],
    ['4k/5/5/5/3p1/K1N2 b 12', 'd2c1q', '4k/5/5/5/5/K1q2 w 13'],
  ] as const;
  test.each(promotions)('%s: %s promotes to a queen', (before, played, after) => {
    const p = position(before);
    expect(rules.check(p, move(played))).toBeUndefined();
    expect(formatPosition(rules.play(p, move(played)))).toBe(after);
  });

  test('a q suffix on a move that does not promote is refused', () => {
    const p = position('4k/1R3/5/5/5/K4 w 11');
    expect(rules.check(p, move('b5b6'))).toBeUndefined();
    expect(rules.check(p, move('b5b6q'))?.code).toBe('move/bad_promotion');
    expect(() => rules.play(p, move('b5b6q'))).toThrow();
    expect(rules.check(p, makeMove(0, 1) | PROMOTION_SUFFIX)?.code).toBe('move/bad_promotion');
  });
});

describe('the end of the game', () => {
  // docs/rules.md §MiniChess, end rules 1–3, in the order they are checked.
  const outcomes = [
    ['kqbnr/ppppp/5/5/PPPPP/RNBQK w 1', null],
    ['k4/5/5/5/5/R3K w 1', { winner: 'white', reason: 'king-capture' }],
    ['k4/5/5/5/5/R3K b 2', null],
    ['4k/5/5/5/5/r3K b 2', { winner: 'black', reason: 'king-capture' }],
    ['kq3/5/5/5/5/R3K w 50', { winner: 'white', reason: 'king-capture' }],
    ['kq3/5/5/5/5/R3K w 51', { winner: 'black', reason: 'step-limit' }],
    ['k4/5/5/5/5/Q3K b 51', { winner: 'white', reason: 'step-limit' }],
    ['k4/5/5/5/5/4K w 51', { winner: null, reason: 'step-limit' }],
    ['k4/p4/5/5/5/4K w 51', { winner: 'black', reason: 'step-limit' }],
    ['k4/1Q3/5/5/5/4K b 77', { winner: 'white', reason: 'step-limit' }],
    ['RRRRR/PPPPP/PPP2/PKP2/PPP2/4k w 1', { winner: 'black', reason: 'no-moves' }],
    ['4K/ppp2/pkp2/ppp2/ppppp/rrrrr b 2', { winner: 'white', reason: 'no-moves' }],
  ] as const;
  test.each(outcomes)('%s: %j', (text, outcome) => {
    const p = position(text);
    expect(rules.outcome(p)).toEqual(outcome);
    expect(rules.legalMoves(p).length === 0).toBe(outcome !== null);
  });

  test('the game ends on material once the 50th ply has been played', () => {
    const p = position('k4/p4/5/5/5/Q3K w 50');
    expect(rules.outcome(p)).toBeNull();
    const after = rules.play(p, move('a1a5'));
    expect(after.ply).toBe(STEP_LIMIT + 1);
    expect(rules.outcome(after)).toEqual({ winner: 'white', reason: 'step-limit' });
    expect(rules.outcome(rules.play(p, move('e1e2')))).toEqual({ winner: 'white', reason: 'step-limit' });
  });

  test('a king capture ends the game for the side to move, and is never played', () => {
    // One of the two king-capture leaves at perft depth 3 (docs/rules.md §Perft): the white king steps into the knight's reach.
    const p = playAll(rules.start(), ['d2d3', 'd6e4']);
    expect(rules.outcome(p)).toBeNull();
    const blunder = rules.play(p, move('e1d2'));
    expect(formatPosition(blunder)).toBe('kqb1r/ppppp/4n/3P1/PPPKP/RNBQ1 b 4');
    expect(rules.outcome(blunder)).toEqual({ winner: 'black', reason: 'king-capture' });
    expect(rules.legalMoves(blunder)).toEqual([]);
    expect(rules.check(blunder, move('e4d2'))?.code).toBe('move/game_over');
    expect(() => rules.play(blunder, move('e4d2'))).toThrow();
  });
});

describe('the move that takes the king', () => {
  test.each([
    ['k4/5/5/5/5/R3K w 1', 'a1a6'],
    ['4k/5/5/5/5/r3K b 2', 'a1e1'],
    ['k4/1P3/5/5/5/4K w 3', 'b5a6'],
    ['k4/5/1N3/5/5/4K w 3', 'b4a6'],
    ['kqbnr/ppppp/5/5/PPPPP/RNBQK w 1', null],
    ['kq3/5/5/5/5/R3K w 51', null],
  ] as const)('%s: %s', (text, move) => {
    expect(kingCapture(position(text))).toBe(move);
  });
});

describe('check refuses with the right code', () => {
  const kingCapture = 'k4/5/5/5/5/R3K w 1';
  const stepLimit = 'kqbnr/ppppp/5/5/PPPPP/RNBQK w 51';
  const midgame = 'k4/1R3/5/2p2/1P3/n3K w 11';
  // shared/rules.ts MOVE_ERROR_CODES, as the rules of docs/rules.md §MiniChess give rise to them.
  // midgame: black king a6, knight a1, pawn c3; white rook b5, pawn b2, king e1; white to move.
  const refusals = [
    [kingCapture, 'a1a5', undefined, 'move/game_over'],
    [kingCapture, 'a1a6', undefined, 'move/game_over'],
    [stepLimit, 'b2b3', undefined, 'move/game_over'],
    [stepLimit, 'b2b3', 'black', 'move/game_over'],
    [midgame, 'b5b6', 'black', 'move/not_your_turn'],
    [midgame, 'c4c5', undefined, 'move/no_piece'],
    [midgame, 'b3b4', undefined, 'move/no_piece'],
    [midgame, 'c3c2', undefined, 'move/not_your_piece'],
    [midgame, 'a1b3', 'white', 'move/not_your_piece'],
    [midgame, 'b5b2', undefined, 'move/own_piece'],
    [midgame, 'e1e1', undefined, 'move/own_piece'],
    [midgame, 'b2b4', undefined, 'move/unreachable'],
    [midgame, 'b2a3', undefined, 'move/unreachable'],
    [midgame, 'b2c2', undefined, 'move/unreachable'],
    [midgame, 'b5b1', undefined, 'move/unreachable'],
    [midgame, 'b5c4', undefined, 'move/unreachable'],
    [midgame, 'e1e3', undefined, 'move/unreachable'],
    [midgame, 'b5b6q', undefined, 'move/bad_promotion'],
  ] as const;
  test.each(refusals)('%s: %s by %s is %s', (text, played, by, code) => {
    const p = position(text);
    expect(rules.check(p, move(played), by)).toMatchObject({ code, message: expect.stringMatching(/\S/) });
    if (by === undefined) expect(() => rules.play(p, move(played))).toThrow();
  });

  test.each([
    [-1, 'move/syntax'],
    [1.5, 'move/syntax'],
    [Number.NaN, 'move/syntax'],
    [PROMOTION_SUFFIX * 2, 'move/syntax'],
    [makeMove(30, 0), 'move/off_board'],
    [makeMove(7, 31), 'move/off_board'],
  ] as const)('the number %d is refused with %s', (number, code) => {
    expect(rules.check(position(midgame), number)?.code).toBe(code);
  });

  test('the game being over comes before whose turn it is, and the turn before the move itself', () => {
    expect(rules.check(position(kingCapture), -1, 'black')?.code).toBe('move/game_over');
    expect(rules.check(position(midgame), -1, 'black')?.code).toBe('move/not_your_turn');
    expect(rules.check(position(midgame), move('b5b6'), 'white')).toBeUndefined();
  });

  test('every MiniChess code is produced by some refusal above', () => {
    const produced = new Set<string>([...refusals.map((row) => row[3]), 'move/syntax', 'move/off_board']);
    const minichessCodes = MOVE_ERROR_CODES.filter((code) => !['move/occupied', 'move/no_flip', 'move/pass_not_allowed', 'move/must_pass'].includes(code));
    expect([...produced].sort()).toEqual([...minichessCodes].sort());
  });
});

function leavesGameOn(board: MiniChessBoard, move: number): boolean {
  board.make(move);
  const goesOn = board.outcome() === null;
  board.unmake();
  return goesOn;
}

describe('random playouts', () => {
  // The pure rules and the mutable board are two views of one generator: they must agree at every ply.
  test('stay legal, agree with the mutable board, unmake exactly, and always end with an outcome', () => {
    fc.assert(
      // Careless playouts mostly end by king capture; careful ones (avoid handing the opponent a
      // king capture) mostly run into the step limit.
      fc.property(fc.boolean(), fc.array(fc.nat(), { minLength: 60, maxLength: 60 }), (careful, choices) => {
        const board = MiniChessBoard.start();
        const buffer = new Int32Array(board.maxMoves);
        const seen: MiniChessPosition[] = [];
        let p = rules.start();
        for (const choice of choices) {
          expect(board.toPosition()).toEqual(p);
          expect(parsePosition(formatPosition(p))).toEqual({ ok: true, value: p });
          expect([board.material('white'), board.material('black')]).toEqual([materialFromScratch(p, 'white'), materialFromScratch(p, 'black')]);
          const legal = rules.legalMoves(p);
          const generated = Array.from(buffer.subarray(0, board.generateMoves(buffer, 0)));
          expect(generated).toEqual(legal);
          expect(board.countMoves()).toBe(legal.length);
          expect(board.outcome()).toEqual(rules.outcome(p));
          if (legal.length === 0) break;
          const safe = careful ? legal.filter((m) => leavesGameOn(board, m)) : [];
          const pool = safe.length > 0 ? safe : legal;
          const chosen = pool[choice % pool.length]!;
          expect(rules.check(p, chosen, p.toMove)).toBeUndefined();
          expect(rules.check(p, chosen, opposite(p.toMove))?.code).toBe('move/not_your_turn');
          for (let i = 0; i < 6; i++) {
            const other = makeMove((choice + 7 * i) % SQUARE_COUNT, (choice >> 5) % SQUARE_COUNT);
            expect(rules.check(p, other) === undefined).toBe(legal.includes(other));
          }
          seen.push(p);
          p = rules.play(p, chosen);
          board.make(chosen);
        }
        const outcome = rules.outcome(p);
        expect(outcome).not.toBeNull();
        expect(p.ply).toBeLessThanOrEqual(STEP_LIMIT + 1);
        if (outcome?.reason === 'step-limit') expect(p.ply).toBe(STEP_LIMIT + 1);
        for (const earlier of seen.reverse()) {
          board.unmake();
          expect(board.toPosition()).toEqual(earlier);
          expect([board.material('white'), board.material('black')]).toEqual([materialFromScratch(earlier, 'white'), materialFromScratch(earlier, 'black')]);
        }
        expect(board.madeMoves).toBe(0);
      }),
      { numRuns: 100 },
    );
  });
});
