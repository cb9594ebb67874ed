import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { BOT_PROCESSOR_PATH } from '../bots/jobs/contract.js';
import { loadConfigOrExit } from './config.js';
import { createLogger } from './log.js';
import { connect, redisTarget } from './redis/connections.js';
import { startBotWorker } from './runtime/bot-worker.js';
import { botQueuePrefixes } from './runtime/bot-queues.js';

/** `npm run worker`: bot searches from the BullMQ queue, each in a sandboxed worker thread. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const log = createLogger(config.LOG_LEVEL);
  const target = redisTarget(config);
  if (!target) {
    console.error('The worker takes bot turns from Redis: set REDIS_URL (redis://…) or REDIS_CLUSTER (host:port,…). Without it, `npm start` runs bots itself.');
    process.exit(2);
  }
  const connection = connect(target, 'jobs');
  const name = `${hostname()}-${process.pid}`;
  const cluster = target.kind === 'cluster';
  const prefixes = botQueuePrefixes(config.REDIS_PREFIX, cluster, config.BOT_QUEUES);
  const worker = startBotWorker(connection, {
    prefixes,
    concurrency: config.BOT_THREADS,
    lockMs: config.BOT_LOCK_MS,
    processor: fileURLToPath(BOT_PROCESSOR_PATH),
    name,
    log,
  });
  for (const each of worker.each) each.on('error', (error) => log.error({ err: error }, 'worker error'));
  await worker.waitUntilReady();
  log.info({ concurrency: config.BOT_THREADS, name, lockMs: config.BOT_LOCK_MS, queues: prefixes }, 'bot worker ready');
  console.log(`Boardroom bot worker is up (${config.BOT_THREADS} threads)`);
  const stop = () => {
    // A worker cut off from Redis cannot close cleanly: it leaves after 10 s all the same.
    setTimeout(() => process.exit(1), 10_000).unref();
    worker.close().then(() => connection.quit()).then(() => process.exit(0), () => process.exit(1));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

await main();
