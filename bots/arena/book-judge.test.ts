import { describe, expect, it } from 'vitest';
import { UsageError } from '../tool-io.js';
import { splitsStrictly, type JudgedGame, type JudgedOpening } from './book-judge.js';
import { readJudgingLog } from './judging-log.js';

const won = (winner: JudgedGame['winner']): JudgedGame => ({ winner, reason: winner === 'draw' ? 'board-full' : 'five', plies: 40 });

describe('splitsStrictly', () => {
  it('keeps an opening only when each colour wins one of its two games', () => {
    expect(splitsStrictly([won('black'), won('white')])).toBe(true);
    expect(splitsStrictly([won('white'), won('black')])).toBe(true);
    expect(splitsStrictly([won('black'), won('black')])).toBe(false);
    expect(splitsStrictly([won('white'), won('white')])).toBe(false);
  });

  it('counts no draw as a split', () => {
    expect(splitsStrictly([won('black'), won('draw')])).toBe(false);
    expect(splitsStrictly([won('draw'), won('white')])).toBe(false);
    expect(splitsStrictly([won('draw'), won('draw')])).toBe(false);
  });
});

describe('readJudgingLog', () => {
  const line = (opening: string, bot = 'engine-4'): string => {
    const judged: JudgedOpening = { opening, games: [won('black'), won('white')], kept: true, bot, game: 'gomoku' };
    return JSON.stringify(judged);
  };

  it('reads every line, and leaves out a last line cut short, saying where it starts', () => {
    const whole = `${line('h8 h9 i8')}\n${line('g10 j8 f10 f6')}\n`;
    const read = readJudgingLog(`${whole}${line('f6 f10 g7 j9').slice(0, 30)}`, 'log', 'gomoku', 'engine-4');
    expect(read.judged.map((j) => j.opening)).toEqual(['h8 h9 i8', 'g10 j8 f10 f6']);
    expect(read.truncated).toEqual({ at: Buffer.byteLength(whole), line: 3 });
    expect(readJudgingLog(whole, 'log', 'gomoku', 'engine-4')).toEqual({ judged: read.judged, unterminated: false });
    expect(readJudgingLog(whole.trimEnd(), 'log', 'gomoku', 'engine-4').unterminated).toBe(true);
  });

  it('refuses a bad line before the last, and a log of another bot or game', () => {
    expect(() => readJudgingLog(`{"opening":\n${line('h8 h9 i8')}\n`, 'log', 'gomoku', 'engine-4')).toThrow(/log:1 is not a line of a judging log/);
    expect(() => readJudgingLog(`${line('h8 h9 i8', 'seed-001')}\n`, 'log', 'gomoku', 'engine-4')).toThrow(UsageError);
    expect(() => readJudgingLog(`${line('h8 h9 i8')}\n`, 'log', 'othello', 'engine-4')).toThrow(/judges engine-4 on gomoku, not engine-4 on othello/);
  });
});
