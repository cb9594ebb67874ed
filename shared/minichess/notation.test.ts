import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { PROMOTION_SUFFIX, SQUARE_COUNT, START_PLACEMENT, makeMove, squareOf } from './board.js';
import {
  formatCourseState,
  formatMove,
  formatPosition,
  formatSquare,
  hasPromotionShape,
  parseCourseAnswer,
  parseMove,
  parsePosition,
  parseSquare,
  renderBoard,
} from './notation.js';

describe('squares and moves', () => {
  test('every square round-trips, in either case', () => {
    for (let square = 0; square < SQUARE_COUNT; square++) {
      expect(parseSquare(formatSquare(square))).toBe(square);
      expect(parseSquare(formatSquare(square).toUpperCase())).toBe(square);
    }
    // The brief's numbering: (rank - 1) * 5 + file.
    expect([formatSquare(0), formatSquare(4), formatSquare(5), formatSquare(29)]).toEqual(['a1', 'e1', 'a2', 'e6']);
  });

  test('every from/to pair round-trips; a q suffix round-trips exactly where the shape can promote', () => {
    for (let from = 0; from < SQUARE_COUNT; from++) {
      for (let to = 0; to < SQUARE_COUNT; to++) {
        const move = makeMove(from, to);
        const text = formatMove(move);
        expect(parseMove(text)).toEqual({ ok: true, value: move });
        expect(parseMove(text.toUpperCase())).toEqual({ ok: true, value: move });
        const suffixed = parseMove(`${text}q`);
        if (hasPromotionShape(from, to)) {
          expect(suffixed).toEqual({ ok: true, value: move | PROMOTION_SUFFIX });
          expect(formatMove(move | PROMOTION_SUFFIX)).toBe(`${text}q`);
        } else {
          expect(suffixed).toMatchObject({ ok: false, error: { code: 'move/bad_promotion' } });
        }
      }
    }
  });

  test('promotion shapes are pawn steps onto the last rank', () => {
    const shapes = ['b5b6', 'b5a6', 'b5c6', 'a2a1', 'e2d1'].map((text) => parseMove(text));
    for (const shape of shapes) expect(shape.ok && hasPromotionShape(shape.value & 31, shape.value >> 5)).toBe(true);
  });

  // docs/rules.md §Notation, MiniChess moves; the codes are shared/rules.ts's MOVE_ERROR_CODES.
  const refusals = [
    ['', 'move/syntax'],
    ['b2', 'move/syntax'],
    ['b2-b3', 'move/syntax'],
    ['b2b3qq', 'move/syntax'],
    ['22b3', 'move/syntax'],
    ['f1a1', 'move/off_board'],
    ['a7a6', 'move/off_board'],
    ['a0a1', 'move/off_board'],
    ['a1a10', 'move/off_board'],
    ['b5b6n', 'move/bad_promotion'],
    ['b5b6K', 'move/bad_promotion'],
    ['b2b3q', 'move/bad_promotion'],
    ['b4b6q', 'move/bad_promotion'],
    ['b5d6q', 'move/bad_promotion'],
    ['b6b5q', 'move/bad_promotion'],
  ] as const;
  test.each(refusals)('parseMove(%j) is refused with %s', (text, code) => {
    const result = parseMove(text);
    expect(result).toMatchObject({ ok: false, error: { code } });
    expect(!result.ok && result.error.message.length).toBeGreaterThan(10);
  });

  test('surrounding spaces and upper case are accepted', () => {
    expect(parseMove(' B5B6Q ')).toEqual({ ok: true, value: makeMove(squareOf(1, 5), squareOf(1, 6)) | PROMOTION_SUFFIX });
  });

  test('formatMove throws on a number that is no move (a caller bug)', () => {
    for (const bad of [-1, 30, makeMove(0, 30), PROMOTION_SUFFIX * 2, 1.5]) expect(() => formatMove(bad)).toThrow();
  });
});

describe('positions', () => {
  // docs/rules.md §MiniChess start position, and positions built for the rules tests.
  const texts = [
    `${START_PLACEMENT} w 1`,
    'kqbnr/ppppp/5/5/PPPPP/RNBQK b 2',
    '2Q1k/5/5/5/5/K4 b 8',
    'RRRRR/PPPPP/PPP2/PKP2/PPP2/4k w 1',
    'kq3/5/5/5/5/R3K w 51',
    '4k/5/5/5/3p1/K4 b 1000',
  ];
  test.each(texts)('%s round-trips exactly', (text) => {
    const position = parsePosition(text);
    expect(position.ok && formatPosition(position.value)).toBe(text);
    expect(position.ok && parsePosition(formatPosition(position.value))).toEqual(position);
  });

  test('the start reads as the JSON-safe value', () => {
    expect(parsePosition(`${START_PLACEMENT} w 1`)).toEqual({ ok: true, value: { game: 'minichess', board: START_PLACEMENT, toMove: 'white', ply: 1 } });
  });

  // docs/rules.md §MiniChess board and end rules (and §Notation, MiniChess positions): what text is malformed, and what no game reaches.
  const refusals = [
    ['', 'position/syntax'],
    [START_PLACEMENT, 'position/syntax'],
    [`${START_PLACEMENT} w`, 'position/syntax'],
    [`${START_PLACEMENT} w 1 extra`, 'position/syntax'],
    [`${START_PLACEMENT} x 1`, 'position/syntax'],
    [`${START_PLACEMENT} W 1`, 'position/syntax'],
    [`${START_PLACEMENT} w one`, 'position/syntax'],
    [`${START_PLACEMENT} w -1`, 'position/syntax'],
    [`${START_PLACEMENT} w 01`, 'position/syntax'],
    ['kqbnr/ppppp/5/5/PPPPP w 1', 'position/syntax'],
    ['kqbnr/ppppp/5/5/PPPPP/RNBQK/5 w 1', 'position/syntax'],
    ['kqbnr/ppppp/4/5/PPPPP/RNBQK w 1', 'position/syntax'],
    ['kqbnr/ppppp/6/5/PPPPP/RNBQK w 1', 'position/syntax'],
    ['kqbnr/pppppp/5/5/PPPPP/RNBQK w 1', 'position/syntax'],
    ['kqbnr/ppppp/14/5/PPPPP/RNBQK w 1', 'position/syntax'],
    ['kqbnr/ppppp/05/5/PPPPP/RNBQK w 1', 'position/syntax'],
    ['kqbnx/ppppp/5/5/PPPPP/RNBQK w 1', 'position/syntax'],
    [`${START_PLACEMENT} w 0`, 'position/invalid'],
    [`${START_PLACEMENT} w 99999999999999999999`, 'position/invalid'],
    ['1qbnr/ppppp/5/5/PPPPP/RNBQK w 1', 'position/invalid'],
    ['kqbnk/ppppp/5/5/PPPPP/RNBQK w 1', 'position/invalid'],
    ['kqbnr/ppppp/5/5/PPPPP/RNBQR w 1', 'position/invalid'],
    ['kqbnP/ppppp/5/5/PPPPP/RNBQK w 1', 'position/invalid'],
    ['kqbnr/ppppp/5/5/PPPPP/RNBQp w 1', 'position/invalid'],
    ['kqbnp/ppppp/5/5/PPPPP/RNBQK w 1', 'position/invalid'],
    ['kqbnr/ppppp/5/5/PPPPP/PNBQK w 1', 'position/invalid'],
  ] as const;
  test.each(refusals)('parsePosition(%j) is refused with %s', (text, code) => {
    expect(parsePosition(text)).toMatchObject({ ok: false, error: { code } });
  });

  test('renderBoard draws rank 6 on top with file letters and rank numbers', () => {
    const start = parsePosition(`${START_PLACEMENT} w 1`);
    expect(start.ok && renderBoard(start.value)).toBe(
      ['6  k q b n r', '5  p p p p p', '4  . . . . .', '3  . . . . .', '2  P P P P P', '1  R N B Q K', '   a b c d e'].join('\n'),
    );
  });
});

describe('garbage in, a coded Result out', () => {
  const notationCharacters = fc.constantFrom(...'abcdefgkqrnpKQBNRPw0123456789/ -'.split(''));
  const garbage = fc.oneof(fc.string(), fc.string({ unit: notationCharacters, maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }));

  test('parseMove never throws, and what it accepts formats back', () => {
    fc.assert(
      fc.property(garbage, (text) => {
        const result = parseMove(text);
        if (result.ok) expect(formatMove(result.value)).toBe(text.trim().toLowerCase());
        else expect(['move/syntax', 'move/off_board', 'move/bad_promotion']).toContain(result.error.code);
      }),
      { numRuns: 200 },
    );
  });

  test('parsePosition never throws, and what it accepts formats back', () => {
    fc.assert(
      fc.property(garbage, (text) => {
        const result = parsePosition(text);
        if (result.ok) expect(formatPosition(result.value)).toBe(text.trim().split(/\s+/).join(' '));
        else expect(['position/syntax', 'position/invalid']).toContain(result.error.code);
      }),
      { numRuns: 200 },
    );
  });

  test('parseCourseAnswer never throws', () => {
    fc.assert(
      fc.property(garbage, (text) => {
        const result = parseCourseAnswer(text);
        if (!result.ok) expect(['move/syntax', 'move/off_board']).toContain(result.error.code);
      }),
      { numRuns: 200 },
    );
  });
});

describe('the course-project file protocol', () => {
  test('the start as a state file', () => {
    // docs/rules.md §Protocols, "File protocol": side (0 white), white's pieces, black's, row 0 = rank 6.
    const start = parsePosition(`${START_PLACEMENT} w 1`);
    const expected = [
      '0',
      '0 0 0 0 0 ',
      '0 0 0 0 0 ',
      '0 0 0 0 0 ',
      '0 0 0 0 0 ',
      '1 1 1 1 1 ',
      '2 3 4 5 6 ',
      '',
      '6 5 4 3 2 ',
      '1 1 1 1 1 ',
      '0 0 0 0 0 ',
      '0 0 0 0 0 ',
      '0 0 0 0 0 ',
      '0 0 0 0 0 ',
      '',
      '',
    ].join('\n');
    expect(start.ok && formatCourseState(start.value)).toBe(expected);
  });

  // docs/rules.md §Protocols, "File protocol": integers read four at a time, line breaks do not matter, the last complete group counts.
  const answers = [
    ['4 1 3 1\n', 'b2b3'],
    ['4 1\n3 1', 'b2b3'],
    ['4 1 3 1\n5 1 3 0\n', 'b1a3'],
    ['5 1 3 0\n4 1 3 1\n4 2', 'b2b3'],
    ['4 1 3 1 x 5 1 3 0', 'b2b3'],
  ] as const;
  test.each(answers)('answer %j is %s', (text, move) => {
    const result = parseCourseAnswer(text);
    expect(result.ok && formatMove(result.value)).toBe(move);
  });

  test.each([
    ['', 'move/syntax'],
    ['4 1 3', 'move/syntax'],
    ['x 4 1 3 1', 'move/syntax'],
    ['6 1 3 1', 'move/off_board'],
    ['4 5 3 1', 'move/off_board'],
    ['4 1 -1 1', 'move/off_board'],
  ] as const)('answer %j is refused with %s', (text, code) => {
    expect(parseCourseAnswer(text)).toMatchObject({ ok: false, error: { code } });
  });
});
