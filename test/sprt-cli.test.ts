import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { boardroom, lastJson } from './support/cli.js';

const repo = fileURLToPath(new URL('..', import.meta.url));

describe('boardroom sprt and arena on the opening books', () => {
  it('a clearly stronger bot ends in H1, with a progress line per pair; a bot of another build loads by NAME@DIR', async () => {
    // This checkout's own build stands for "another checkout": the bot is loaded from DIR/dist.
    const { code, stdout, stderr } = await boardroom('sprt', '--game', 'minichess', '--a', 'engine-1', '--b', `random@${repo}`, '--elo1', '50', '--concurrency', '2', '--json');
    expect(code).toBe(0);
    const result = lastJson(stdout) as { verdict: string; llr: number; pairs: number; wins: number; draws: number; losses: number; pentanomial: number[] };
    expect(result.verdict).toBe('H1');
    expect(result.llr).toBeGreaterThanOrEqual(Math.log(0.95 / 0.05));
    expect(result.wins + result.draws + result.losses).toBe(2 * result.pairs);
    expect(result.pentanomial.reduce((a, b) => a + b, 0)).toBe(result.pairs);
    const progress = stderr.split('\n').filter((l) => l.startsWith('games '));
    expect(progress).toHaveLength(result.pairs);
    expect(progress[0]).toMatch(/^games 2 W\/D\/L \d+\/\d+\/\d+ pairs \[.*\] LLR -?\d+\.\d\d \(-2\.94, 2\.94\) Elo [+-]\d+\.\d ± \d+\.\d$/);
  });

  it('refuses a directory without a build and a bot the game lacks, with a sentence', async () => {
    const noBuild = await boardroom('sprt', '--game', 'othello', '--a', 'engine-1', '--b', 'engine-1@/tmp');
    expect(noBuild.code).toBe(2);
    expect(noBuild.stderr).toMatch(/--b: \/tmp holds no build of this repo/);
    const unknown = await boardroom('sprt', '--game', 'othello', '--a', 'seed-004', '--b', 'engine-1');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/--a: no bot "seed-004" plays othello/);
    const bounds = await boardroom('sprt', '--game', 'othello', '--a', 'engine-1', '--b', 'random', '--elo0', '5', '--elo1', '0');
    expect(bounds.code).toBe(2);
    expect(bounds.stderr).toMatch(/--elo1 \(0\) must be above --elo0 \(5\)/);
  });

  it('arena plays book openings by default, each twice with colours swapped', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'arena-')), 'records.txt');
    const { code } = await boardroom('arena', '--game', 'gomoku', '--a', 'engine-1', '--b', 'random', '--games', '4', '--threads', '2', '--records', file);
    expect(code).toBe(0);
    const records = readFileSync(file, 'utf8').split('\n').filter((l) => l.includes(' first; '));
    expect(records).toHaveLength(4);
    const openingOf = (line: string, plies: number): string => line.split('; ')[2]!.split(' ').slice(0, plies).join(' ');
    const book = readFileSync(new URL('../bots/openings/gomoku.txt', import.meta.url), 'utf8');
    const lines = book.split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.replace(/#.*/, '').trim());
    for (const [first, second] of [[0, 1], [2, 3]] as const) {
      const opening = lines.find((l) => records[first]!.split('; ')[2]!.startsWith(l + ' '))!;
      expect(opening).toBeDefined();
      expect(openingOf(records[second]!, opening.split(' ').length)).toBe(opening);
      expect(records[first]!.startsWith('engine-1 first')).toBe(true);
      expect(records[second]!.startsWith('random first')).toBe(true);
    }
  });

  it('arena --book plays the openings of that file, and refuses a file that is not there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'arena-book-'));
    const book = join(dir, 'book.txt');
    writeFileSync(book, '# two openings far from the default book\na1 o15 a2 o14\no1 a15 n1\n');
    const records = join(dir, 'records.txt');
    const { code } = await boardroom('arena', '--game', 'gomoku', '--a', 'random', '--b', 'random', '--games', '4', '--threads', '2', '--book', book, '--records', records);
    expect(code).toBe(0);
    const openings = readFileSync(records, 'utf8').trim().split('\n').map((l) => l.split('; ')[2]!);
    expect(openings.filter((moves) => moves.startsWith('a1 o15 a2 o14 '))).toHaveLength(2);
    expect(openings.filter((moves) => moves.startsWith('o1 a15 n1 '))).toHaveLength(2);
    const missing = await boardroom('arena', '--game', 'gomoku', '--a', 'random', '--b', 'random', '--book', join(dir, 'none.txt'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--book: no opening book at .*none\.txt/);
  });
});
