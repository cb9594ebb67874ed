import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const FIGURES = [
  'live-games',
  'web-cpu-%',
  'web-rss-MiB',
  'redis-commands-per-s',
  'redis-cpu-%',
  'moves-per-s',
  'move-ack-p99-ms',
  'commands-per-move',
  'redis-cpu-us-per-move',
  'bytes-per-live-game',
  'bytes-per-finished-game',
  'live-at-restart',
  're-armed',
  'rearm-ms',
  'restart-ack-p99-ms',
  'lobby-p99-ms',
];

describe('npm run bench:server -- --case scale', () => {
  it('at a tiny scale, prints every figure for each count of live games, and the bars marked', async () => {
    const args = ['--import', 'tsx', `${root}test/load/bench-server.ts`, '--case', 'scale', '--games', '60,200', '--moving', '10', '--seconds', '2', '--waiting', '50', '--finished', '30', '--json'];
    const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: root, timeout: 150_000 });
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as { rows: Record<string, number>[]; bars: { bar: string; pass: boolean }[] };
    expect(result.rows.map((r) => r['live-games'])).toEqual([60, 200]);
    for (const row of result.rows) {
      expect(Object.keys(row).sort()).toEqual([...FIGURES].sort());
      for (const figure of FIGURES) expect(Number.isFinite(row[figure]), `${figure} is ${row[figure]}`).toBe(true);
      // Every live game seeded, and the moving ones, were re-armed by the restarted process.
      expect(row['re-armed']).toBeGreaterThanOrEqual(row['live-games']!);
      expect(row['live-at-restart']).toBeGreaterThanOrEqual(row['live-games']!);
    }
    expect(result.bars.map((b) => b.bar)).toEqual(expect.arrayContaining(['≤ 8 Redis commands per accepted move', 'lobby page p99 < 50 ms', 're-armed in < 60 s']));
    for (const figure of FIGURES.filter((f) => f !== 'live-games')) expect(stdout).toContain(figure);
    expect(stdout).toMatch(/^[✓✗] /m);
  });
});
