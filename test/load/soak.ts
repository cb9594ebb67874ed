import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { GameView } from '../../shared/protocol/index.js';
import { RedisKeys } from '../../server/store/redis-keys.js';
import { freePort, startRedis } from '../support/redis.js';
import { Client, kill9, spawnBuilt } from '../support/server.js';
import { levelVerdict, type Sample } from './level.js';
import { parseHeapMetrics } from './proc-usage.js';
import { readRedisFigures } from './redis-info.js';

const HELP = `Usage: npm run soak -- [--minutes M] [--games N] [--bot-games B] [--bank MS] [--faults web,worker,redis] [--fault-at F]

Runs two web processes and a bot worker of the built server on a redis-server of its own (AOF,
fsync every second) for M minutes: N games of simulated players (think 0.5-1.5 s), half on each
web process, and B bot games (engine-1 against random), each replaced when it ends. Prints every
minute Redis's used memory, the same less what the finished games keep (their keys and their
entries in the finished sets and their index stamps, by MEMORY USAGE: a finished game is kept for
good, so only the rest can level), and the RSS of each web process and the worker, each the minute's floor (the least of
a reading every 5 s: a reading between two collections says little). A web process's RSS is also
split, from its /metrics: what lies outside its V8 heap, and the least its heap used (about its
live objects), so slow growth in the code's own memory is told from V8 keeping a larger heap.
Then the players' errors.
With --faults it kills the second web process, the worker and/or redis-server with SIGKILL early
in the run, each started again a second later (the players reconnect and take their seats back),
so the series are judged after the restarted processes have warmed up. At the end, a verdict per
series: level when every sample of the last third of the run is within ±10% of the middle third's
mean (over 30 minutes: minutes 20-30 against 10-20), else growing or falling. Build first:
npm run build.

  --minutes M     how long (default 10)
  --games N       games of simulated players (default 50)
  --bot-games B   bot games at once (default 5)
  --bank MS       the players' games on a bank of MS a side, so every move arms a flag (default
                  600000; 0: no clock)
  --faults LIST   web, worker, redis: what to kill (default web,worker; none: nothing)
  --fault-at F    when, as a fraction of the run (default 0.1)`;

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    games: { type: 'string', default: '50' },
    'bot-games': { type: 'string', default: '5' },
    bank: { type: 'string', default: '600000' },
    faults: { type: 'string', default: 'web,worker' },
    'fault-at': { type: 'string', default: '0.1' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(HELP);
  process.exit(0);
}
const minutes = Number(values.minutes);
const games = Number(values.games);
const botGames = Number(values['bot-games']);
const faults = new Set(values.faults!.split(',').filter((f) => f !== '' && f !== 'none'));
const faultAt = Number(values['fault-at']);
if (!(minutes > 0) || !Number.isInteger(games) || games < 1 || !Number.isInteger(botGames) || botGames < 0 || [...faults].some((f) => !['web', 'worker', 'redis'].includes(f)) || !(faultAt >= 0 && faultAt < 1)) {
  console.error('--minutes takes a positive number, --games and --bot-games whole numbers, --faults web, worker and/or redis, --fault-at a fraction from 0 to below 1.');
  process.exit(2);
}

const rssMiB = (pid: number | undefined): number => {
  try {
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024);
  } catch {
    return NaN;
  }
};

const PREFIX = 'soak';
const redis = await startRedis({ appendfsync: 'everysec' });
const env = { REDIS_URL: redis.url, REDIS_PREFIX: PREFIX, LOG_LEVEL: 'warn', RECONNECT_GRACE_MS: '60000' };
// Fixed ports, so a web process started again after its kill answers where its players reconnect.
const ports = [await freePort(), await freePort()];
const startWeb = async (port: number) => {
  const web = spawnBuilt('main', { ...env, PORT: String(port) });
  await web.ready;
  return web;
};
const webs = [await startWeb(ports[0]!), await startWeb(ports[1]!)];
let worker = spawnBuilt('worker', env);
// Whatever ends this run (an error too), the processes it started end with it.
process.on('exit', () => {
  for (const child of [...webs.map((w) => w.child), worker.child]) child.kill('SIGKILL');
  try {
    process.kill(redis.pid()!, 'SIGKILL');
  } catch {
    // already gone
  }
});
await worker.ready;
const urls = ports.map((port) => `http://127.0.0.1:${port}`);
const url = urls[0]!;
const info = redis.client();
/** The store's own key layout, so the finished games' keys are found as the server writes them. */
const keys = new RedisKeys(`${PREFIX}:`);
const mib = (bytes: number): number => Math.round((bytes / 2 ** 20) * 10) / 10;
/**
 * Redis's used memory, and the bytes the finished games keep: their hashes and move lists, the sets
 * only they are in, and their share of the index stamps' hash (by their count among its fields).
 */
const redisMemory = async (): Promise<{ used: number; finished: number }> => {
  const used = (await readRedisFigures(info).catch(() => undefined))?.usedMemory ?? NaN;
  const ids = await info.zrange(keys.status('finished'), 0, -1).catch(() => [] as string[]);
  const sets = [keys.status('finished'), ...(await info.keys(`${keys.lobby('finished')}*`).catch(() => [] as string[]))];
  const counted = [...sets, ...ids.flatMap((id) => [keys.game(id), keys.moves(id)])];
  const batch = info.pipeline();
  for (const key of counted) batch.memory('USAGE', key, 'SAMPLES', '0');
  const sizes = (await batch.exec().catch(() => [])) ?? [];
  const own = sizes.reduce((sum, [, size]) => sum + (Number(size) || 0), 0);
  return { used, finished: own + (await finishedStamps(ids)) };
};
/** The finished games' part of the stamps hash: its size times their share of its fields. */
const finishedStamps = async (ids: readonly string[]): Promise<number> => {
  const [size, fields] = await Promise.all([info.memory('USAGE', keys.indexStamps(), 'SAMPLES', '0'), info.hlen(keys.indexStamps())]).catch(() => [0, 0]);
  if (!fields || ids.length === 0) return 0;
  let stamped = 0;
  for (let i = 0; i < ids.length; i += 1000) stamped += (await info.hmget(keys.indexStamps(), ...ids.slice(i, i + 1000))).filter((v) => v !== null).length;
  return (Number(size) || 0) * (stamped / fields);
};
/** A web process's V8 heap in MiB, from its metrics; undefined when it does not answer (killed, starting). */
const heapOf = async (url: string): Promise<{ total: number; used: number } | undefined> => {
  const text = await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(2000) })
    .then((res) => res.text())
    .catch(() => '');
  const heap = parseHeapMetrics(text);
  return heap && { total: heap.totalBytes / 2 ** 20, used: heap.usedBytes / 2 ** 20 };
};
/**
 * Per minute: Redis's memory, and the least of each process's figures read every 5 s. A web
 * process's RSS is its V8 heap (as large as V8 chooses to keep it) and the memory outside it; the
 * heap's least use over a minute is about its live objects, since a full collection comes within it.
 */
type Row = { minute: number; redis: number; redisLessFinished: number } & Floors;
type Floors = { webA: number; webB: number; worker: number; webAOutside: number; webBOutside: number; webAHeap: number; webBHeap: number };
const samples: Row[] = [];
const noFloors = (): Floors => ({ webA: NaN, webB: NaN, worker: NaN, webAOutside: NaN, webBOutside: NaN, webAHeap: NaN, webBHeap: NaN });
let floors = noFloors();
const readMemory = async (): Promise<void> => {
  const [heapA, heapB] = await Promise.all(urls.map(heapOf));
  const now: Floors = { webA: rssMiB(webs[0]!.child.pid), webB: rssMiB(webs[1]!.child.pid), worker: rssMiB(worker.child.pid), webAOutside: NaN, webBOutside: NaN, webAHeap: heapA?.used ?? NaN, webBHeap: heapB?.used ?? NaN };
  now.webAOutside = now.webA - (heapA?.total ?? NaN);
  now.webBOutside = now.webB - (heapB?.total ?? NaN);
  for (const k of Object.keys(now) as (keyof Floors)[]) if (Number.isFinite(now[k]) && !(floors[k] <= now[k])) floors[k] = Math.round(now[k]);
};
const sample = async (minute: number): Promise<void> => {
  await readMemory();
  const memory = await redisMemory();
  const s: Row = { minute, redis: mib(memory.used), redisLessFinished: mib(memory.used - memory.finished), ...floors };
  floors = noFloors();
  samples.push(s);
  console.log(
    `minute ${minute}: Redis used memory ${s.redis} MiB (${s.redisLessFinished} MiB less the finished games), web RSS ${s.webA} and ${s.webB} MiB (outside the V8 heap ${s.webAOutside} and ${s.webBOutside}, heap used at least ${s.webAHeap} and ${s.webBHeap}), worker RSS ${s.worker} MiB`,
  );
};
await sample(0);

// The players, as the load test plays them.
const root = fileURLToPath(new URL('../..', import.meta.url));
const load = spawn(process.execPath, ['--import', 'tsx', `${root}test/load/loadtest.ts`, '--url', urls.join(','), '--reconnect', '--games', String(games), '--seconds', String(Math.round(minutes * 60)), '--think-min', '500', '--think-max', '1500', ...(values.bank !== '0' ? ['--bank', values.bank!] : [])], { stdio: ['ignore', 'pipe', 'inherit'] });
let loadOutput = '';
load.stdout.on('data', (chunk: Buffer) => (loadOutput += chunk.toString()));
const loadDone = new Promise<number>((resolve) => load.once('exit', (code) => resolve(code ?? 1)));

// The bot games, each replaced when it ends.
let stopped = false;
let botGamesFinished = 0;
const host = await new Client(url).connected();
const botGame = async (): Promise<void> => {
  while (!stopped) {
    const ack = await host.ask<{ gameId: string }>('room:create', { game: 'othello', timeControl: { kind: 'none' }, seats: { black: { kind: 'bot', bot: 'engine-1' }, white: { kind: 'bot', bot: 'random' } } }).catch(() => undefined);
    if (!ack?.ok) {
      await new Promise((r) => setTimeout(r, 1000));
      continue;
    }
    await host.waitFor<{ view: GameView }>('ended', (e) => e.view.id === ack.gameId, 300_000).catch(() => undefined);
    botGamesFinished++;
  }
};
const bots = Array.from({ length: botGames }, () => botGame());

const started = Date.now();
let faulted = faults.size === 0;
for (let minute = 1; Date.now() - started < minutes * 60_000; ) {
  await new Promise((r) => setTimeout(r, 5000));
  await readMemory();
  if (!faulted && Date.now() - started > minutes * 60_000 * faultAt) {
    faulted = true;
    if (faults.has('web')) {
      console.log('fault: the second web process killed with SIGKILL');
      await kill9(webs[1]!.child);
      await new Promise((r) => setTimeout(r, 1000));
      webs[1] = await startWeb(ports[1]!);
      // The new process's floors, not the old one's.
      floors.webB = floors.webBOutside = floors.webBHeap = NaN;
    }
    if (faults.has('worker')) {
      console.log('fault: the worker killed with SIGKILL');
      await kill9(worker.child);
      await new Promise((r) => setTimeout(r, 1000));
      worker = spawnBuilt('worker', env);
      await worker.ready;
      floors.worker = NaN;
    }
    if (faults.has('redis')) {
      console.log('fault: redis-server killed with SIGKILL');
      await redis.kill();
      await new Promise((r) => setTimeout(r, 1000));
      await redis.start();
    }
  }
  if (Date.now() - started >= minute * 60_000) await sample(minute++);
}
const loadCode = await loadDone;
stopped = true;
await Promise.race([Promise.all(bots), new Promise((r) => setTimeout(r, 5000))]);
// A last sample only for a minute not sampled under load: one read as the players leave is not the run's.
const endMinute = Math.round((Date.now() - started) / 60_000);
if (samples.at(-1)!.minute !== endMinute) await sample(endMinute);
host.close();
const first = samples[0]!;
const last = samples.at(-1)!;
console.log(loadOutput.trim());
console.log(`bot games finished: ${botGamesFinished}`);
console.log(`from start to end: Redis ${first.redis} → ${last.redis} MiB (less the finished games ${first.redisLessFinished} → ${last.redisLessFinished} MiB), web RSS ${first.webA} → ${last.webA} and ${first.webB} → ${last.webB} MiB, worker RSS ${first.worker} → ${last.worker} MiB`);
const SERIES: [keyof Omit<Row, 'minute'>, string][] = [
  ['redis', 'Redis used memory (grows with the finished games kept)'],
  ['redisLessFinished', 'Redis used memory less the finished games'],
  ['webA', 'first web process RSS'],
  ['webAOutside', 'first web process RSS outside the V8 heap'],
  ['webAHeap', 'first web process V8 heap used, its least (the live objects)'],
  ['webB', 'second web process RSS'],
  ['webBOutside', 'second web process RSS outside the V8 heap'],
  ['webBHeap', 'second web process V8 heap used, its least (the live objects)'],
  ['worker', 'worker RSS'],
];
for (const [series, name] of SERIES) {
  const verdict = levelVerdict(samples.map((s): Sample => ({ minute: s.minute, value: s[series] })));
  console.log(`${name}: ${verdict ?? 'too short a run to tell (3 minutes at least)'}`);
}
await kill9(worker.child);
for (const web of webs) await kill9(web.child);
await redis.stop();
process.exit(loadCode);
