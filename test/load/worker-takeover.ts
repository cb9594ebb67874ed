import { parseArgs } from 'node:util';
import { Job, Queue, QueueEvents } from 'bullmq';
import { BOT_QUEUE } from '../../server/runtime/bullmq-bot-turns.js';
import { startRedis } from '../support/redis.js';
import { ADMIN_TOKEN, Client, expectOk, kill9, searching, spawnBuilt, startServer } from '../support/server.js';

const HELP = `Usage: npm run faults:workers -- [--kills N]

Measures how long a bot turn whose worker dies takes to come back (build first: npm run build).
Starts its own redis-server, a server and two bot workers (one thread each). Each round starts
a game against engine-5 (5 s a move, no clock), waits until the search is under way, kills the
worker that holds the job with SIGKILL, and times the kill to the job's takeover by the other
worker and to the bot's move; then starts a new worker in place of the dead one.

  --kills N   rounds (default 10)`;

const { values } = parseArgs({ options: { kills: { type: 'string', default: '10' }, help: { type: 'boolean', short: 'h' } } });
if (values.help) {
  console.log(HELP);
  process.exit(0);
}
const kills = Number(values.kills);
if (!Number.isInteger(kills) || kills < 1) {
  console.error('--kills takes a whole number of rounds, 1 or more.');
  process.exit(2);
}

const redis = await startRedis();
const env = { REDIS_URL: redis.url, REDIS_PREFIX: 'takeover', BOT_THREADS: '1' };
const server = await startServer(env);
const workers = [spawnBuilt('worker', env), spawnBuilt('worker', env)];
await Promise.all(workers.map((w) => w.ready));
const connection = { host: '127.0.0.1', port: redis.port };
const queue = new Queue(BOT_QUEUE, { connection, prefix: env.REDIS_PREFIX });
const events = new QueueEvents(BOT_QUEUE, { connection, prefix: env.REDIS_PREFIX });
await events.waitUntilReady();
const admin = await new Client(server.url, '/admin', { token: ADMIN_TOKEN }).connected();
const ann = await new Client(server.url).connected();

const rows: { takeover: number; move: number }[] = [];
try {
  for (let round = 1; round <= kills; round++) {
    const created = expectOk(await ann.ask<{ gameId: string }>('room:create', {
      game: 'othello',
      timeControl: { kind: 'none' },
      seats: { black: { kind: 'bot', bot: 'engine-5' }, white: { kind: 'human' } },
      sit: { name: 'Ann', color: 'white' },
    }));
    const jobId = `${created.gameId}-0`;
    await searching(admin, created.gameId);
    const job = await Job.fromId(queue, jobId);
    const index = workers.findIndex((w) => job?.processedBy?.endsWith(`-${w.child.pid}`));
    if (index < 0) throw new Error(`no worker holds ${jobId} (processedBy ${job?.processedBy})`);
    const takenOver = new Promise<number>((resolve) => events.on('active', ({ jobId: id }) => id === jobId && resolve(Date.now())));
    const moved = ann.waitFor<{ gameId: string }>('moved', (e) => e.gameId === created.gameId, 60_000).then(() => Date.now());
    const killedAt = Date.now();
    await kill9(workers[index]!.child);
    const row = { takeover: (await takenOver) - killedAt, move: (await moved) - killedAt };
    rows.push(row);
    console.log(`kill ${String(round).padStart(2)}: taken over after ${(row.takeover / 1000).toFixed(2)} s, bot moved after ${(row.move / 1000).toFixed(2)} s`);
    workers[index] = spawnBuilt('worker', env);
    await workers[index]!.ready;
  }
  const takeovers = rows.map((r) => r.takeover).sort((a, b) => a - b);
  const mean = takeovers.reduce((a, b) => a + b, 0) / takeovers.length;
  console.log(`takeover over ${rows.length} kills: min ${(takeovers[0]! / 1000).toFixed(2)} s, mean ${(mean / 1000).toFixed(2)} s, max ${(takeovers.at(-1)! / 1000).toFixed(2)} s`);
} finally {
  ann.close();
  admin.close();
  await events.close();
  await queue.close();
  for (const w of workers) await kill9(w.child);
  await server.close();
  await redis.stop();
}
