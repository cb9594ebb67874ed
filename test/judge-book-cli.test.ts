import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { splitsStrictly, type JudgedOpening } from '../bots/arena/book-judge.js';
import { readBook } from '../bots/arena/openings.js';
import { duration, etaMs } from '../bots/cli/commands/judge-book.js';
import { GAMES } from '../shared/games.js';
import { boardroom, lastJson } from './support/cli.js';

const OPENINGS = ['g10 j8 f10 f6', 'f6 f10 g7 j9', 'g8 h7 i7 h9', 'h6 i9 h9 g7'];

/** A temporary folder with a book of the four openings; the random bot judges it in about a second. */
function setUp(): { dir: string; book: string; state: string } {
  const dir = mkdtempSync(join(tmpdir(), 'judge-book-'));
  const book = join(dir, 'book.txt');
  writeFileSync(book, `# four openings of the Gomoku book\n${OPENINGS.join('\n')}\n`);
  return { dir, book, state: join(dir, 'state.jsonl') };
}

const judge = (book: string, state: string, ...more: string[]) => boardroom('judge-book', '--bot', 'random', '--book', book, '--state', state, '--threads', '2', '--json', ...more);
const logOf = (state: string): JudgedOpening[] => readFileSync(state, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as JudgedOpening);

interface Summary {
  judged: number;
  judgedNow: number;
  kept: number;
  stopped: string;
}

describe('judge-book progress', () => {
  it('estimates the time left from the split rate so far, within the minutes left', () => {
    const base = { elapsedMs: 600_000, judgedNow: 10, judged: 10, keep: 25, left: 290, msLeft: Infinity };
    expect(etaMs({ ...base, judgedNow: 0, kept: 0 })).toBeUndefined();
    expect(etaMs({ ...base, kept: 5 })).toBe(40 * 60_000);
    expect(etaMs({ ...base, kept: 0 })).toBe(290 * 60_000);
    expect(etaMs({ ...base, kept: 5, msLeft: 60_000 })).toBe(60_000);
    expect(etaMs({ ...base, kept: 5, msLeft: -5_000 })).toBe(0);
    expect([duration(12_400), duration(75_000), duration(3_900_000)]).toEqual(['12s', '1m15s', '1h05m']);
  });
});

describe('boardroom judge-book', () => {
  it('writes a line per opening as it is judged, judges nothing again on a second run, and writes the kept as a book', async () => {
    const { dir, book, state } = setUp();
    const first = await judge(book, state);
    expect(first.code).toBe(0);
    const log = logOf(state);
    expect(log.map((j) => j.opening)).toEqual(OPENINGS);
    for (const j of log) {
      expect(j).toMatchObject({ bot: 'random', game: 'gomoku', kept: splitsStrictly(j.games) });
      expect(j.games.every((g) => g.plies > j.opening.split(' ').length)).toBe(true);
    }
    const kept = log.filter((j) => j.kept).length;
    expect(lastJson(first.stdout)).toMatchObject({ judged: 4, judgedNow: 4, kept, stopped: 'book' });
    expect(first.stderr.split('\n').filter((l) => /^judged \d \(\d now\), kept \d of 25, /.test(l))).toHaveLength(4);

    const written = join(dir, 'even.txt');
    const again = await judge(book, state, '--write-book', written);
    expect(again.code).toBe(0);
    expect(lastJson(again.stdout)).toMatchObject({ judged: 4, judgedNow: 0, kept });
    expect(logOf(state)).toEqual(log);
    const header = readFileSync(written, 'utf8').split('\n').filter((l) => l.startsWith('#')).join(' ');
    expect(header).toMatch(/random against itself/);
    expect(header).toContain(`${kept} kept of 4 judged`);
    const openings = readBook(GAMES.gomoku, written).map((moves) => moves.map((m) => GAMES.gomoku.rules.formatMove(m)).join(' '));
    expect(openings).toEqual(log.filter((j) => j.kept).map((j) => j.opening));
  });

  it('leaves out a last line cut short, with a warning, and judges that opening again', async () => {
    const { book, state } = setUp();
    expect((await judge(book, state, '--keep', '100')).code).toBe(0);
    const lines = readFileSync(state, 'utf8').split('\n');
    writeFileSync(state, `${lines.slice(0, 2).join('\n')}\n${lines[2]!.slice(0, 25)}`);
    const resumed = await judge(book, state);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(/state\.jsonl:3: a line cut short .* is left out/);
    expect((lastJson(resumed.stdout) as Summary).judgedNow).toBe(2);
    expect(logOf(state).map((j) => j.opening)).toEqual(OPENINGS);
  });

  it('counts the kept openings of earlier runs toward --keep', async () => {
    const { book, state } = setUp();
    const kept: JudgedOpening = { opening: OPENINGS[0]!, games: [{ winner: 'black', reason: 'five', plies: 40 }, { winner: 'white', reason: 'five', plies: 41 }], kept: true, bot: 'random', game: 'gomoku' };
    writeFileSync(state, JSON.stringify(kept) + '\n');
    const { code, stdout } = await judge(book, state, '--keep', '1');
    expect(code).toBe(0);
    expect(lastJson(stdout)).toMatchObject({ judged: 1, judgedNow: 0, kept: 1, stopped: 'keep' });
  });

  it('refuses a state of another bot, --keep 0, a missing book and no --state, leaving the state as it was', async () => {
    const { dir, book, state } = setUp();
    const before = `${JSON.stringify({ opening: OPENINGS[0], games: [{ winner: 'draw', reason: 'board-full', plies: 225 }, { winner: 'black', reason: 'five', plies: 9 }], kept: false, bot: 'seed-002', game: 'gomoku' })}\n`;
    writeFileSync(state, before);
    const other = await judge(book, state);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/judges seed-002 on gomoku, not random on gomoku/);
    const zero = await judge(book, state, '--keep', '0');
    expect(zero.code).toBe(2);
    expect(zero.stderr).toMatch(/--keep must be a whole number from 1/);
    const noBook = await judge(join(dir, 'none.txt'), state);
    expect(noBook.code).toBe(2);
    expect(noBook.stderr).toMatch(/--book: no opening book at .*none\.txt/);
    const noState = await boardroom('judge-book', '--bot', 'random');
    expect(noState.code).toBe(2);
    expect(noState.stderr).toMatch(/--state FILE names the judging log/);
    expect(readFileSync(state, 'utf8')).toBe(before);
  });
});
