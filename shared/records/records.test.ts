import { describe, expect, it } from 'vitest';
import { GAMES } from '../games.js';
import { seededBelow } from '../random.js';
import type { GameId } from '../rules.js';
import type { GameResult } from '../protocol/views.js';
import { parseGomocup, formatMove as formatGomoku } from '../gomoku/notation.js';
import { formatGgf, formatPgn, formatPsq, RECORD_FORMATS, type GameRecordInput } from './index.js';
import { clockText } from './record.js';

const AT = Date.UTC(2026, 10, 25, 18, 12, 6);

/** A seeded random game played to its end by the rules, as the server would store it. */
function randomGame(game: GameId, seed: number): GameRecordInput {
  const { rules } = GAMES[game];
  const below = seededBelow(seed);
  let position = rules.start();
  const moves: string[] = [];
  while (!rules.outcome(position)) {
    const legal = rules.legalMoves(position);
    const move = legal[below(legal.length)]!;
    moves.push(rules.formatMove(move));
    position = rules.play(position, move);
  }
  const outcome = rules.outcome(position)!;
  return {
    id: `g${seed}`,
    game,
    options: {},
    players: { black: { kind: 'human', name: 'Ann' }, white: { kind: 'bot', name: 'engine-3' } },
    result: { winner: outcome.winner, reason: outcome.reason },
    start: rules.formatPosition(rules.start()),
    moves,
    position: rules.formatPosition(position),
    createdAt: AT,
  };
}

/** Plays `moves` from `start` with the rules and gives the last position's text. */
function replayed(game: GameId, start: string, moves: readonly string[]): string {
  const { rules } = GAMES[game];
  const first = rules.parsePosition(start);
  if (!first.ok) throw new Error(first.error.message);
  let position = first.value;
  for (const text of moves) {
    const move = rules.parseMove(text);
    if (!move.ok || rules.check(position, move.value)) throw new Error(`cannot play ${text}`);
    position = rules.play(position, move.value);
  }
  return rules.formatPosition(position);
}

describe('Othello records in GGF', () => {
  it('writes a known short game exactly', () => {
    const record: GameRecordInput = {
      ...randomGame('othello', 1),
      moves: ['f5', 'd6', 'c3'],
      result: { winner: 'white', reason: 'resignation' },
    };
    expect(formatGgf(record)).toBe(
      '(;GM[Othello]PC[Boardroom]DT[2026.11.25_18:12:06.UTC]PB[Ann]PW[engine-3]RE[-64.000:r]TI[0//0]TY[8]' +
        'BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6]B[C3];)',
    );
  });

  it.each([1, 2, 3])('reads back: the board and moves replay to the game’s last position, the result is the disc difference (seed %i)', (seed) => {
    const record = randomGame('othello', seed);
    const text = formatGgf(record);
    const [, discs, side] = /BO\[8 ([-*O]{64}) ([*O])\]/.exec(text)!;
    const start = `${discs!.replaceAll('*', 'X')} ${side === '*' ? 'X' : 'O'}`;
    const tokens = [...text.matchAll(/([BW])\[([A-Z0-9]+)\]/g)];
    // Colours alternate from black, passes included.
    expect(tokens.map((t) => t[1])).toEqual(record.moves.map((_, i) => (i % 2 === 0 ? 'B' : 'W')));
    const moves = tokens.map((t) => (t[2] === 'PA' ? 'pass' : t[2]!.toLowerCase()));
    expect(replayed('othello', start, moves)).toBe(record.position);
    const board = record.position.slice(0, 64);
    const diff = [...board].filter((c) => c === 'X').length - [...board].filter((c) => c === 'O').length;
    expect(Number(/RE\[([-+0-9.]+)\]/.exec(text)![1])).toBe(diff);
  });

  it('writes the result flags and the unknown result', () => {
    const base = randomGame('othello', 4);
    const re = (result: GameResult | null) => /RE\[([^\]]*)\]/.exec(formatGgf({ ...base, result }))![1];
    expect(re({ winner: 'black', reason: 'timeout' })).toBe('+64.000:t');
    expect(re({ winner: null, reason: 'agreement' })).toBe('0.000:s');
    expect(re(null)).toBe('?');
    expect(re({ winner: null, reason: 'expired' })).toBe('?');
  });
});

describe('Gomoku records in PSQ', () => {
  it('writes a known short game exactly: h8 is 8,8; a15 is 1,1; o1 is 15,15', () => {
    const record: GameRecordInput = { ...randomGame('gomoku', 1), moves: ['h8', 'a15', 'o1'], result: null };
    expect(formatPsq(record)).toBe('Piskvorky 15x15, 0:11, 0\n8,8,0\n1,1,0\n15,15,0\nAnn\nengine-3\n0\n');
  });

  it.each([1, 2])('reads back to the same moves (seed %i)', (seed) => {
    const record = randomGame('gomoku', seed);
    const lines = formatPsq(record).trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Piskvorky 15x15, \d+:\d+, [01]$/);
    const moves = lines
      .filter((l) => /^\d+,\d+,\d+$/.test(l))
      .map((l) => {
        const [x, y] = l.split(',').map(Number);
        const point = parseGomocup(`${x! - 1},${y! - 1}`);
        if (!point.ok) throw new Error(point.error.message);
        return formatGomoku(point.value);
      });
    expect(moves).toEqual(record.moves);
    expect(lines.slice(-3)).toEqual(['Ann', 'engine-3', '0']);
  });

  it('keeps a name from reading as a move', () => {
    const record: GameRecordInput = { ...randomGame('gomoku', 3), players: { black: { kind: 'human', name: '1,2,3' }, white: { kind: 'human', name: null } } };
    const lines = formatPsq(record).trimEnd().split('\n');
    expect(lines.slice(-3)).toEqual(['1 2 3', 'white', '0']);
  });
});

describe('MiniChess records in PGN with our FEN', () => {
  it('writes a known short game exactly', () => {
    const record: GameRecordInput = {
      ...randomGame('minichess', 1),
      moves: ['b2b3', 'd5d4', 'b1c3'],
      result: { winner: 'white', reason: 'resignation' },
    };
    expect(formatPgn(record)).toBe(
      [
        '[Event "Boardroom MiniChess"]',
        '[Site "Boardroom"]',
        '[Date "2026.11.25"]',
        '[Round "-"]',
        '[White "engine-3"]',
        '[Black "Ann"]',
        '[Result "1-0"]',
        '[Variant "Boardroom MiniChess 6x5"]',
        '[SetUp "1"]',
        '[FEN "kqbnr/ppppp/5/5/PPPPP/RNBQK w 1"]',
        '[Termination "normal"]',
        '[Reason "resignation"]',
        '[BoardroomId "g1"]',
        '',
        '1. b2b3 d5d4 2. b1c3 1-0',
        '',
      ].join('\n'),
    );
  });

  it.each([1, 2, 3])('reads back: FEN and movetext replay to the last position; lines stay under 80 characters (seed %i)', (seed) => {
    const record = randomGame('minichess', seed);
    const text = formatPgn(record);
    const tags = Object.fromEntries([...text.matchAll(/^\[(\w+) "([^"]*)"\]$/gm)].map((m) => [m[1], m[2]]));
    const movetext = text.split('\n\n')[1]!;
    const words = movetext.split(/\s+/).filter((w) => w && !/^\d+\.(\.\.)?$/.test(w));
    expect(words.at(-1)).toBe(tags.Result);
    expect(replayed('minichess', tags.FEN!, words.slice(0, -1))).toBe(record.position);
    expect(tags.Reason).toBe(record.result!.reason);
    expect(Math.max(...movetext.split('\n').map((l) => l.length))).toBeLessThan(80);
  });

  it('numbers a game that starts with black to move as 1...', () => {
    const record: GameRecordInput = { ...randomGame('minichess', 4), start: 'kqbnr/ppppp/5/5/PPPPP/RNBQK b 2', moves: ['d5d4'], result: null };
    expect(formatPgn(record).split('\n\n')[1]).toBe('1... d5d4 *\n');
  });
});

it('each game has one download format', () => {
  expect(Object.fromEntries(Object.entries(RECORD_FORMATS).map(([g, f]) => [g, f.name]))).toEqual({ othello: 'ggf', gomoku: 'psq', minichess: 'pgn' });
});

describe('the time each move took, in each record', () => {
  const timed = (game: GameId, moves: string[], moveMs: (number | null)[]): GameRecordInput => ({ ...randomGame(game, 1), moves, moveMs, result: null });

  it('GGF writes the seconds in the move’s time field, nothing where unknown', () => {
    const text = formatGgf(timed('othello', ['f5', 'd6', 'c3'], [1234, null, 60_000]));
    expect(text).toContain(']B[F5//1.23]W[D6]B[C3//60.00];)');
  });

  it('PSQ writes the ms in each move line, 0 where unknown', () => {
    const lines = formatPsq(timed('gomoku', ['h8', 'a15', 'o1'], [250, null, 12_345])).split('\n');
    expect(lines.slice(1, 4)).toEqual(['8,8,250', '1,1,0', '15,15,12345']);
  });

  it('PGN writes %emt for each known time and %clk with a time control, the clock counted from the times', () => {
    const record = { ...timed('minichess', ['b2b3', 'd5d4', 'b1c3', 'e5e4'], [2500, 61_000, null, 400]), timeControl: { kind: 'bank', initialMs: 300_000, incrementMs: 2000 } as const };
    const movetext = formatPgn(record).split('\n\n')[1]!;
    // White: 5:00 − 2.5 s + 2 s; black: 5:00 − 61 s + 2 s, then − 0.4 s + 2 s; white's b1c3 has no time.
    expect(movetext).toBe('1. b2b3 {[%clk 0:04:59.5] [%emt 0:00:02.5]} d5d4\n{[%clk 0:04:01] [%emt 0:01:01]} 2. b1c3 e5e4\n{[%clk 0:04:02.6] [%emt 0:00:00.4]} *\n');
    // Without a time control there is no clock to give, only the time taken.
    expect(formatPgn({ ...record, timeControl: { kind: 'none' } }).split('\n\n')[1]).toContain('b2b3 {[%emt 0:00:02.5]} d5d4');
    expect(clockText(3_723_400)).toBe('1:02:03.4');
  });

  it('a record without times is written as before', () => {
    const record = randomGame('othello', 2);
    expect(formatGgf({ ...record, moveMs: record.moves.map(() => null) })).toBe(formatGgf(record));
  });
});
