import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { GameView } from '../../shared/protocol/index.js';
import { startRedis } from '../support/redis.js';
import { Client, kill9, spawnBuilt } from '../support/server.js';
import { levelVerdict, type Sample } from './level.js';
import { readRedisFigures } from './redis-info.js';

const HELP = `Usage: npm run soak -- [--minutes M] [--games N] [--bot-games B] [--bank MS] [--faults worker,redis]

Runs the built server and a bot worker as processes of their own on a redis-server of its own
(AOF, fsync every second) for M minutes: N games of simulated players (think 0.5-1.5 s) and B
bot games (engine-1 against random), each replaced when it ends. Prints Redis's used memory and
the RSS of the web and the worker processes every minute, the players' errors, and with --faults
kills the worker and/or redis-server with SIGKILL at mid-run (started again a second later). At
the end, a verdict per series: level when every sample of the last third of the run is within
±10% of the middle third's mean (over 30 minutes: minutes 20-30 against 10-20), else growing or
falling. Build first: npm run build.

  --minutes M     how long (default 10)
  --games N       games of simulated players (default 200)
  --bot-games B   bot games at once (default 10)
  --bank MS       the players' games on a bank of MS a side, so every move arms a flag (default: no clock)
  --faults LIST   worker, redis: what to kill at mid-run (default: nothing)`;

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    games: { type: 'string', default: '200' },
    'bot-games': { type: 'string', default: '10' },
    bank: { type: 'string' },
    faults: { type: 'string', default: '' },
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
const faults = new Set(values.faults!.split(',').filter(Boolean));
if (!(minutes > 0) || !Number.isInteger(games) || games < 1 || !Number.isInteger(botGames) || botGames < 0 || [...faults].some((f) => f !== 'worker' && f !== 'redis')) {
  console.error('--minutes takes a positive number, --games and --bot-games whole numbers, --faults worker and/or redis.');
  process.exit(2);
}

const rssMiB = (pid: number | undefined): number => {
  try {
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024);
  } catch {
    return NaN;
  }
};

const redis = await startRedis({ appendfsync: 'everysec' });
const env = { REDIS_URL: redis.url, REDIS_PREFIX: 'soak', LOG_LEVEL: 'warn', RECONNECT_GRACE_MS: '60000' };
const web = spawnBuilt('main', env);
const port = await web.ready;
let worker = spawnBuilt('worker', env);
await worker.ready;
const url = `http://127.0.0.1:${port}`;
const info = redis.client();
const redisMiB = async (): Promise<number> => Math.round(((await readRedisFigures(info).catch(() => undefined))?.usedMemory ?? NaN) / 2 ** 20 * 10) / 10;
const samples: { minute: number; redis: number; web: number; worker: number }[] = [];
const sample = async (minute: number): Promise<void> => {
  const s = { minute, redis: await redisMiB(), web: rssMiB(web.child.pid), worker: rssMiB(worker.child.pid) };
  samples.push(s);
  console.log(`minute ${minute}: Redis used memory ${s.redis} MiB, web RSS ${s.web} MiB, worker RSS ${s.worker} MiB`);
};
await sample(0);

// The players, as the load test plays them.
const root = fileURLToPath(new URL('../..', import.meta.url));
const load = spawn(process.execPath, ['--import', 'tsx', `${root}test/load/loadtest.ts`, '--url', url, '--games', String(games), '--seconds', String(Math.round(minutes * 60)), '--think-min', '500', '--think-max', '1500', ...(values.bank ? ['--bank', values.bank] : [])], { stdio: ['ignore', 'pipe', 'inherit'] });
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
  if (!faulted && Date.now() - started > (minutes * 60_000) / 2) {
    faulted = true;
    if (faults.has('worker')) {
      console.log('fault: the worker killed with SIGKILL');
      await kill9(worker.child);
      await new Promise((r) => setTimeout(r, 1000));
      worker = spawnBuilt('worker', env);
      await worker.ready;
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
await sample(Math.round((Date.now() - started) / 60_000));
host.close();
const first = samples[0]!;
const last = samples.at(-1)!;
console.log(loadOutput.trim());
console.log(`bot games finished: ${botGamesFinished}`);
console.log(`from start to end: Redis ${first.redis} → ${last.redis} MiB, web RSS ${first.web} → ${last.web} MiB, worker RSS ${first.worker} → ${last.worker} MiB`);
for (const series of ['redis', 'web', 'worker'] as const) {
  const verdict = levelVerdict(samples.map((s): Sample => ({ minute: s.minute, value: s[series] })));
  console.log(`${series === 'redis' ? 'Redis used memory' : `${series} RSS`}: ${verdict ?? 'too short a run to tell (3 minutes at least)'}`);
}
await kill9(worker.child);
await kill9(web.child);
await redis.stop();
process.exit(loadCode);
