import { describe, expect, it } from 'vitest';
import { levelVerdict } from './level.js';
import { cpuPercent, parseHeapMetrics, parseProcStat } from './proc-usage.js';
import { figuresDelta, redisFigures, scaleFigures, startRedisMeter } from './redis-info.js';
import { startRedis } from '../support/redis.js';

const info = (evalsha: number, zadd: number, infoCalls: number, cpu: number, memory: number): string =>
  [
    '# Memory',
    `used_memory:${memory}`,
    'used_memory_human:1.00M',
    '# CPU',
    `used_cpu_sys:${cpu / 2}`,
    `used_cpu_user:${cpu / 2}`,
    '# Commandstats',
    `cmdstat_evalsha:calls=${evalsha},usec=${evalsha * 20},usec_per_call=20.00,rejected_calls=0,failed_calls=0`,
    `cmdstat_zadd:calls=${zadd},usec=${zadd * 3},usec_per_call=3.00,rejected_calls=0,failed_calls=0`,
    `cmdstat_info:calls=${infoCalls},usec=${infoCalls * 50},usec_per_call=50.00,rejected_calls=0,failed_calls=0`,
    '',
  ].join('\r\n');

describe('Redis INFO figures', () => {
  it('sums the commands and their µs, leaving out the INFO calls that read them', () => {
    const figures = redisFigures(info(10, 4, 7, 1.5, 2048));
    expect(figures).toMatchObject({ calls: 14, usec: 212, cpuSeconds: 1.5, usedMemory: 2048 });
    expect(figures.commands.get('evalsha')).toBe(10);
    expect(figures.commands.has('info')).toBe(false);
  });

  it('a delta counts what happened between two readings, per command too', () => {
    const delta = figuresDelta(redisFigures(info(10, 4, 1, 1, 1000)), redisFigures(info(25, 4, 3, 1.25, 1500)));
    expect(delta).toMatchObject({ calls: 15, usec: 300, cpuSeconds: 0.25, usedMemory: 500 });
    expect([...delta.commands]).toEqual([['evalsha', 15]]);
  });

  it('a background carried over to a span twice as long, taken from what happened then, leaves the moves\' own work', () => {
    const background = figuresDelta(redisFigures(info(0, 0, 1, 0, 0)), redisFigures(info(2, 1, 2, 0.5, 0)));
    const moving = figuresDelta(redisFigures(info(10, 10, 3, 1, 0)), redisFigures(info(24, 12, 4, 2, 0)));
    const own = figuresDelta(scaleFigures(background, 2), moving);
    expect(own).toMatchObject({ calls: 10, usec: 10 * 20 + 0 * 3, cpuSeconds: 0 });
    expect([...own.commands]).toEqual([['evalsha', 10]]);
  });
});

describe('Redis work per move on several servers', () => {
  it('counts each server\'s commands and their µs between the start and the reading, per move', async () => {
    const [a, b] = [await startRedis(), await startRedis()];
    try {
      const [ca, cb] = [a.client(), b.client()];
      await Promise.all([ca.ping(), cb.ping()]);
      const servers = [a, b].map((r, i) => ({ name: `r${i}`, port: Number(new URL(r.url).port) }));
      const meter = await startRedisMeter(servers);
      for (let i = 0; i < 40; i++) await ca.set(`k${i}`, 'v');
      for (let i = 0; i < 10; i++) await cb.incr('n');
      const [wa, wb] = await meter.perMove(10);
      expect(wa).toMatchObject({ name: 'r0', commands: 4 });
      expect(wb).toMatchObject({ name: 'r1', commands: 1 });
      expect(wa!.commandUs).toBeGreaterThan(0);
      expect(wa!.cpuUs).toBeGreaterThan(0);
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});

describe('/proc/<pid>/stat', () => {
  // A command name with spaces and parentheses, as a process may call itself.
  const stat = (utime: number, stime: number, rss: number) =>
    `4242 (node (a b)) S 1 4242 4242 0 -1 4194560 1 0 0 0 ${utime} ${stime} 0 0 20 0 11 0 100 1000000 ${rss} 18446744073709551615`;

  it('reads user and system time and resident pages, however the command is named', () => {
    expect(parseProcStat(stat(150, 50, 1000), 100, 4096)).toEqual({ cpuSeconds: 2, systemSeconds: 0.5, rssBytes: 4_096_000 });
  });

  it('CPU% is the share of one core between two readings', () => {
    expect(cpuPercent(parseProcStat(stat(100, 0, 1), 100), parseProcStat(stat(130, 20, 1), 100), 2)).toBe(25);
  });
});

describe('the soak verdict on a series', () => {
  const series = (values: number[]) => values.map((value, minute) => ({ minute, value }));

  it('level when the last third stays within ±10% of the middle third', () => {
    // 30 minutes: a climb over the first minutes, then flat with noise.
    const values = Array.from({ length: 31 }, (_, m) => (m < 5 ? 50 + m * 10 : 100 + (m % 3) * 4));
    expect(levelVerdict(series(values))).toBe('level');
  });

  it('growing when the last third climbs beyond 10% of the middle third', () => {
    expect(levelVerdict(series(Array.from({ length: 31 }, (_, m) => 100 + m * 2)))).toBe('growing');
  });

  it('falling when it drops below', () => {
    expect(levelVerdict(series(Array.from({ length: 31 }, (_, m) => (m < 22 ? 100 : 80))))).toBe('falling');
  });

  it('no verdict from a run too short to have a middle third', () => {
    expect(levelVerdict(series([100, 120]))).toBeUndefined();
  });
});

describe('a web process\'s V8 heap from its metrics', () => {
  it('reads the total and used bytes under the server\'s prefix, and nothing from a text without them', () => {
    const text = ['# HELP boardroom_nodejs_heap_size_total_bytes Process heap size from Node.js in bytes.', 'boardroom_nodejs_heap_size_total_bytes 135360512', 'boardroom_nodejs_heap_size_used_bytes 71914120', 'boardroom_nodejs_heap_space_size_used_bytes{space="new"} 8898528'].join('\n');
    expect(parseHeapMetrics(text)).toEqual({ totalBytes: 135360512, usedBytes: 71914120 });
    expect(parseHeapMetrics('boardroom_live_games 55')).toBeUndefined();
  });
});
