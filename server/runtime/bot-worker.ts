import { Queue, Worker } from 'bullmq';
import type { RedisClient } from '../redis/connections.js';
import type { Logger } from '../log.js';
import { parseBotJobId } from './job-ids.js';
import { concurrencyPerQueue } from './bot-queues.js';
import { advanceVirtualClock, BOT_QUEUE } from './bullmq-bot-turns.js';

/**
 * A bot job's lock: its worker renews it every quarter of this; a worker that dies loses the job
 * once the lock runs out, and BullMQ's stalled-job check (every quarter of it too, and a job is
 * moved on the second check that finds it unlocked) hands it to another. 2 s takes a dead
 * worker's turn over in 2–3 s, while a live worker's main thread, which only renews locks (the
 * search runs in a worker thread), never misses four renewals in a row.
 */
export const BOT_LOCK_MS = 2000;

/** Where the workers count what befell a bot queue's jobs, for `/metrics` and the admin console. */
export const botJobCountsKey = (prefix: string): string => `${prefix}:bot-jobs:counts`;
export type BotJobOutcome = 'stalled' | 'retried' | 'failed';

export interface BotWorkerOptions {
  /** The bot queues' BullMQ prefixes (`botQueuePrefixes`): the worker serves every one. */
  readonly prefixes: readonly string[];
  /** Searches at once, shared among the queues (`concurrencyPerQueue`). */
  readonly concurrency: number;
  readonly lockMs: number;
  /** The processor module (built JavaScript: BullMQ's sandbox loads it in a worker thread). */
  readonly processor: string;
  /** This worker's name in the logs and on the jobs it takes (`processedBy`). */
  readonly name: string;
  readonly log: Logger;
}

/** A process's BullMQ workers, one per bot queue, started and closed together. */
export interface BotWorkers {
  readonly each: readonly Worker[];
  waitUntilReady(): Promise<void>;
  /** `force`: without waiting for the searches running. */
  close(force?: boolean): Promise<void>;
}

/**
 * BullMQ workers for bot turns, one per bot queue: each search in a sandboxed worker thread.
 * Every stalled job (its worker died), every retry and every job that failed for good is logged
 * once, by the worker that saw it, and counted in Redis under its queue's prefix.
 */
export function startBotWorker(connection: RedisClient, options: BotWorkerOptions): BotWorkers {
  const shares = concurrencyPerQueue(options.concurrency, options.prefixes.length);
  const each = options.prefixes.map((prefix, i) => startQueueWorker(connection, prefix, shares[i]!, options));
  return {
    each,
    async waitUntilReady() {
      await Promise.all(each.map((worker) => worker.waitUntilReady()));
    },
    async close(force = false) {
      await Promise.all(each.map((worker) => worker.close(force)));
    },
  };
}

function startQueueWorker(connection: RedisClient, prefix: string, concurrency: number, options: BotWorkerOptions): Worker {
  const { lockMs, log, name } = options;
  const worker = new Worker(BOT_QUEUE, options.processor, {
    connection,
    prefix,
    name,
    concurrency,
    useWorkerThreads: true,
    lockDuration: lockMs,
    lockRenewTime: Math.floor(lockMs / 4),
    stalledInterval: Math.max(250, Math.floor(lockMs / 4)),
    maxStalledCount: 2,
  });
  const lookup = new Queue(BOT_QUEUE, { connection, prefix });
  const count = (outcome: BotJobOutcome): void => void connection.hincrby(botJobCountsKey(prefix), outcome, 1).catch(() => undefined);
  worker.on('stalled', (jobId) => {
    count('stalled');
    void lookup.getJob(jobId).then(
      (job) => log.warn({ jobId, ...parseBotJobId(jobId), worker: job?.processedBy ?? 'unknown', takenBy: name }, 'bot job stalled: its worker stopped; the turn is run again'),
      () => log.warn({ jobId, ...parseBotJobId(jobId), takenBy: name }, 'bot job stalled: its worker stopped; the turn is run again'),
    );
  });
  // This queue's virtual clock moves on to the turn taken (the owners' fair queueing, in BullmqBotTurns).
  worker.on('active', (job) => void advanceVirtualClock(connection, prefix, job.priority).catch(() => undefined));
  worker.on('failed', (job, error) => {
    const final = !job || job.attemptsMade >= (job.opts.attempts ?? 1);
    count(final ? 'failed' : 'retried');
    log.warn({ jobId: job?.id, ...(job?.id ? parseBotJobId(job.id) : {}), worker: name, err: error }, final ? 'bot job failed for good' : 'bot job failed; retried');
  });
  worker.on('closed', () => void lookup.close().catch(() => undefined));
  return worker;
}
