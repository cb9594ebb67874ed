import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MOVE_ERROR_CODES, POSITION_ERROR_CODES } from '../rules.js';
import { POINTS } from './board.js';
import { formatGomocup, formatMove, formatPosition, parseGomocup, parseMove, parsePosition, renderBoard } from './notation.js';
import { gomokuRules } from './rules.js';

const START_TEXT = '15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 X';
const ALL_POINTS = Array.from({ length: POINTS }, (_, p) => p);

function point(name: string): number {
  const parsed = parseMove(name);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.value;
}

function codeOf(result: { ok: true } | { ok: false; error: { code: string } }): string {
  return result.ok ? 'ok' : result.error.code;
}

describe('move notation', () => {
  // docs/rules.md §Notation (Gomoku moves): files a–o left to right, ranks 1–15 bottom to top; h8 is the centre.
  it.each([
    ['a1', 0],
    ['o1', 14],
    ['a2', 15],
    ['h8', 112],
    ['a15', 210],
    ['o15', 224],
  ])('%s is point %i', (text, move) => {
    expect(parseMove(text)).toEqual({ ok: true, value: move });
    expect(parseMove(text.toUpperCase())).toEqual({ ok: true, value: move });
    expect(formatMove(move)).toBe(text);
  });

  it('round-trips every point, in lower and upper case', () => {
    for (const move of ALL_POINTS) {
      expect(parseMove(formatMove(move))).toEqual({ ok: true, value: move });
      expect(parseMove(formatMove(move).toUpperCase())).toEqual({ ok: true, value: move });
    }
  });

  // The brief: move/syntax for text that is not a point, move/off_board for a point beyond a–o, 1–15.
  it.each([
    ['', 'move/syntax'],
    ['h', 'move/syntax'],
    ['8', 'move/syntax'],
    ['hh', 'move/syntax'],
    [' h8', 'move/syntax'],
    ['h8 ', 'move/syntax'],
    ['h08', 'move/syntax'],
    ['h-1', 'move/syntax'],
    ['h1.5', 'move/syntax'],
    ['h100', 'move/syntax'],
    ['ä8', 'move/syntax'],
    ['7,7', 'move/syntax'],
    ['p8', 'move/off_board'],
    ['Z1', 'move/off_board'],
    ['h0', 'move/off_board'],
    ['h16', 'move/off_board'],
    ['a99', 'move/off_board'],
  ])('refuses %j with %s', (text, code) => {
    const parsed = parseMove(text);
    expect(codeOf(parsed)).toBe(code);
    if (!parsed.ok) expect(parsed.error.message).toContain(JSON.stringify(text));
  });

  it('throws when asked to format something that is not a point (a bug)', () => {
    for (const bad of [-1, POINTS, 1.5, Number.NaN]) {
      expect(() => formatMove(bad)).toThrow(RangeError);
      expect(() => formatGomocup(bad)).toThrow(RangeError);
    }
  });
});

describe('Gomocup coordinates', () => {
  // docs/rules.md §Notation (Gomocup coordinates): X,Y is file[X] + (15 - Y), so 7,7 is h8 and 0,0 is a15.
  it.each([
    ['7,7', 'h8'],
    ['0,0', 'a15'],
    ['14,0', 'o15'],
    ['0,14', 'a1'],
    ['14,14', 'o1'],
    ['2,11', 'c4'],
  ])('%s is %s', (gomocup, name) => {
    expect(parseGomocup(gomocup)).toEqual(parseMove(name));
    expect(formatGomocup(point(name))).toBe(gomocup);
  });

  it('round-trips every point', () => {
    for (const move of ALL_POINTS) expect(parseGomocup(formatGomocup(move))).toEqual({ ok: true, value: move });
  });

  it('accepts the spaces and line ending an engine may write', () => {
    expect(parseGomocup(' 7 , 7\r')).toEqual({ ok: true, value: 112 });
  });

  it.each([
    ['', 'move/syntax'],
    ['7', 'move/syntax'],
    ['7;7', 'move/syntax'],
    ['-1,3', 'move/syntax'],
    ['7,7,1', 'move/syntax'],
    ['a,b', 'move/syntax'],
    ['h8', 'move/syntax'],
    ['15,0', 'move/off_board'],
    ['0,15', 'move/off_board'],
    ['99999999999999999999,1', 'move/off_board'],
  ])('refuses %j with %s', (text, code) => {
    expect(codeOf(parseGomocup(text))).toBe(code);
  });
});

describe('position text', () => {
  it('writes the start as fifteen empty ranks and X to move', () => {
    expect(formatPosition(gomokuRules.start())).toBe(START_TEXT);
    for (const text of [START_TEXT, '15/15/15/15/15/15/15/15/15/15/15/15/15/15/15', '', '   ']) {
      expect(parsePosition(text)).toEqual({ ok: true, value: gomokuRules.start() });
    }
    expect(parsePosition('', { exactFive: true })).toEqual({ ok: true, value: gomokuRules.start({ exactFive: true }) });
  });

  it('reads a move list and the equivalent board alike', () => {
    const fromMoves = parsePosition('h8 h9 i9 a1 O15');
    const text = '14X/15/15/15/15/15/7OX6/7X7/15/15/15/15/15/15/O14 O';
    expect(fromMoves).toEqual(parsePosition(text));
    expect(fromMoves.ok && formatPosition(fromMoves.value)).toBe(text);
  });

  it('replays up to a win, and names the move that comes after it', () => {
    const won = parsePosition('a1 a2 b1 b2 c1 c2 d1 d2 e1');
    expect(won.ok && gomokuRules.outcome(won.value)).toEqual({ winner: 'black', reason: 'five' });
    const after = parsePosition('a1 a2 b1 b2 c1 c2 d1 d2 e1 e2');
    expect(codeOf(after)).toBe('position/invalid');
    expect(!after.ok && after.error.message).toMatch(/Move 10 .*"e2".*over/);
  });

  // The brief: a move list replays from the empty board; a bad board text is position/syntax, an unreachable one position/invalid.
  it.each([
    ['h8 h8', 'position/invalid', /Move 2 .*"h8".*taken/],
    ['h8 h16', 'position/invalid', /Move 2 .*"h16"/],
    ['h8 zz', 'position/syntax', /Move 2 .*"zz"/],
    ['h8, h9', 'position/syntax', /Move 1 .*"h8,"/],
    ['15/15', 'position/syntax', /2 ranks/],
    ['14/15/15/15/15/15/15/15/15/15/15/15/15/15/15', 'position/syntax', /Rank 15.*14 points/],
    ['X15/15/15/15/15/15/15/15/15/15/15/15/15/15/15', 'position/syntax', /Rank 15.*more than 15 points/],
    ['16/15/15/15/15/15/15/15/15/15/15/15/15/15/15', 'position/syntax', /"16"/],
    ['15X15/15/15/15/15/15/15/15/15/15/15/15/15/15/15', 'position/syntax', /more than 15 points/],
    [`${'1X'.repeat(50_000)}/15/15/15/15/15/15/15/15/15/15/15/15/15/15`, 'position/syntax', /more than 15 points/],
    ['015/15/15/15/15/15/15/15/15/15/15/15/15/15/15', 'position/syntax', /"015"/],
    ['x14/15/15/15/15/15/15/15/15/15/15/15/15/15/15', 'position/syntax', /"x" in rank 15/],
    ['15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 B', 'position/syntax', /"B"/],
    ['15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 X 1', 'position/syntax', /more than/],
    ['15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 O', 'position/invalid', /says O/],
    ['O14/15/15/15/15/15/15/15/15/15/15/15/15/15/15', 'position/invalid', /0 black and 1 white/],
    ['XXXXX10/OOOOO10/15/15/15/15/15/15/15/15/15/15/15/15/15', 'position/invalid', /Both/],
    ['XXXXX10/OOOO11/15/15/15/15/15/15/15/15/15/15/15/15/15 O', 'ok', /./],
  ])('%j gives %s', (text, code, message) => {
    const parsed = parsePosition(text);
    expect(codeOf(parsed)).toBe(code);
    if (!parsed.ok) expect(parsed.error.message).toMatch(message);
  });

  it('keeps exactFive from the options', () => {
    const overline = 'XXXXXX9/OOO1OOO8/15/15/15/15/15/15/15/15/15/15/15/15/15';
    expect(codeOf(parsePosition(overline))).toBe('position/invalid');
    const exact = parsePosition(overline, { exactFive: true });
    expect(exact.ok && exact.value.exactFive).toBe(true);
    expect(exact.ok && gomokuRules.outcome(exact.value)).toBeNull();
  });

  it('renders a diagram with file letters and rank numbers', () => {
    const parsed = parsePosition('h8 a1');
    if (!parsed.ok) throw new Error(parsed.error.message);
    const lines = renderBoard(parsed.value).split('\n');
    expect(lines).toHaveLength(17);
    expect(lines[0]).toBe('   a b c d e f g h i j k l m n o');
    expect(lines[1]).toBe('15 . . . . . . . . . . . . . . . 15');
    expect(lines[8]).toBe(' 8 . . . . . . . X . . . . . . .  8');
    expect(lines[15]).toBe(' 1 O . . . . . . . . . . . . . .  1');
    expect(lines[16]).toBe(lines[0]);
  });
});

describe('garbage in, a coded Result out', () => {
  const moveCodes: readonly string[] = MOVE_ERROR_CODES;
  const positionCodes: readonly string[] = POSITION_ERROR_CODES;
  const likelyChars = fc.constantFrom(...'XOxo./0123456789 ,ah\r\n-'.split(''));
  const text = fc.oneof(fc.string(), fc.string({ unit: likelyChars, maxLength: 60 }), fc.string({ unit: 'grapheme' }));

  it('never throws on any string', () => {
    fc.assert(
      fc.property(text, (input) => {
        for (const result of [parseMove(input), parseGomocup(input)]) {
          if (!result.ok) expect(moveCodes).toContain(result.error.code);
          else expect(result.value).toBeGreaterThanOrEqual(0);
        }
        const position = parsePosition(input);
        if (!position.ok) expect(positionCodes).toContain(position.error.code);
        else expect(parsePosition(formatPosition(position.value))).toEqual(position);
      }),
      { numRuns: 200 },
    );
  });

  it('never throws on a well-formed board of random stones, and keeps what it accepts', () => {
    const compress = (cells: string[]) => cells.join('').replace(/\.+/g, (run) => String(run.length));
    const row = fc.array(fc.constantFrom('X', 'O', '.', '.', '.'), { minLength: 15, maxLength: 15 }).map(compress);
    const boardText = fc.tuple(fc.array(row, { minLength: 15, maxLength: 15 }), fc.constantFrom('', ' X', ' O'));
    fc.assert(
      fc.property(boardText, fc.boolean(), ([rows, side], exactFive) => {
        const position = parsePosition(rows.join('/') + side, { exactFive });
        if (!position.ok) expect(positionCodes).toContain(position.error.code);
        else expect(parsePosition(formatPosition(position.value), { exactFive })).toEqual(position);
      }),
      { numRuns: 200 },
    );
  });
});
