import type { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import type { BotJobInput, BotJobResult, BotThinking } from '../../bots/jobs/contract.js';
import type { BotTurns } from '../games/ports.js';
import { botJobId, parseBotJobId } from './job-ids.js';
import { QueueAdapter } from './bullmq-queue.js';
import type { RuntimeHandlers } from './handlers.js';

export const BOT_QUEUE = 'boardroom-bots';
const ATTEMPTS = 3;
/** BullMQ's lowest priority (a finished game's analysis has it). */
export const MAX_PRIORITY = 2_097_151;
/** An owner's count of unfinished turns is forgotten this long after its last change (a crash may leave it too high). */
const OWNER_COUNT_TTL_MS = 600_000;

/** Where an owner's unfinished bot turns are counted: the queue's fairness reads and the workers settle it. */
export const ownerTurnsKey = (prefix: string, owner: string): string => `${prefix}:bot-jobs:owner:${owner}`;

/**
 * Bot turns as BullMQ jobs with the id `gameId-ply`, so a retry, a recovery or a second server
 * cannot enqueue one turn twice. Every web process hears the queue's events; applying an answer
 * twice is harmless (the second finds its ply passed).
 *
 * Fairness between owners: a turn's priority is its rank among its owner's unfinished turns (the
 * owner's 1st turn in the queue has priority 1, its 100th priority 100), so the queue serves the
 * owners in turn: one owner's hundred games put another owner's turn behind at most the jobs
 * already running.
 */
export class BullmqBotTurns extends QueueAdapter<BotJobInput, BotJobResult, RuntimeHandlers> implements BotTurns {
  constructor(
    connection: Redis,
    onError: (error: unknown) => void,
    prefix = 'boardroom',
    /** A bot's answer, once applied here (not stale): its thinking and queue wait, for the metrics. */
    private readonly onAnswered: (result: BotJobResult) => void = () => undefined,
  ) {
    super(BOT_QUEUE, connection, onError, prefix);
  }

  protected listen(events: QueueEvents, handlers: RuntimeHandlers): void {
    const onError = this.onError;
    // The queue also carries analyses (`gameId-analysis`), which no bot turn's id parser reads as a turn.
    events.on('progress', ({ jobId, data }) => {
      const parsed = parseBotJobId(jobId);
      if (!parsed || typeof data !== 'object' || data === null) return;
      void this.queue.getJob(jobId).then((job) => {
        if (job) return handlers.onBotThinking(parsed.gameId, parsed.ply, job.data.bot, data as BotThinking);
      }).catch(onError);
    });
    events.on('completed', ({ jobId, returnvalue }) => {
      if (!parseBotJobId(jobId)) return;
      const result = (typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue) as BotJobResult;
      handlers.onBotResult(result).then((applied) => {
        if (applied) this.onAnswered(result);
      }, onError);
    });
    events.on('failed', ({ jobId }) => {
      if (!parseBotJobId(jobId)) return;
      void this.queue.getJob(jobId).then((job) => {
        if (job && job.attemptsMade >= ATTEMPTS) return handlers.onBotFailed(job.data.gameId, job.data.ply);
      }).catch(onError);
    });
  }

  /** The queue, for the dashboard and the metrics. */
  get bullQueue(): Queue {
    return this.queue as unknown as Queue;
  }

  async request(input: BotJobInput): Promise<void> {
    const id = botJobId(input.gameId, input.ply);
    const existing = await this.queue.getJob(id);
    if (existing) {
      // After a restart the answer may be waiting in a finished job: deliver it, or try again.
      if (await existing.isCompleted()) await this.handlersStarted.onBotResult(existing.returnvalue);
      else if (await existing.isFailed()) await existing.retry();
      return;
    }
    await this.queue.add('turn', input, {
      jobId: id,
      ...(input.owner ? { priority: await this.rank(input.owner) } : {}),
      attempts: ATTEMPTS,
      backoff: { type: 'fixed', delay: 200 },
      removeOnComplete: { age: 3600, count: 10_000 },
      removeOnFail: { age: 24 * 3600 },
    });
  }

  /** The new turn's rank among its owner's unfinished turns. */
  private async rank(owner: string): Promise<number> {
    const key = ownerTurnsKey(this.prefix, owner);
    const [[, count]] = (await this.connection.multi().incr(key).pexpire(key, OWNER_COUNT_TTL_MS).exec()) as [[unknown, number], unknown];
    return Math.min(Math.max(1, count), MAX_PRIORITY);
  }

  async answered(gameId: string, ply: number): Promise<BotJobResult | undefined> {
    const job = await this.queue.getJob(botJobId(gameId, ply));
    return job && (await job.isCompleted()) ? job.returnvalue : undefined;
  }

  async pending(gameId: string, ply: number): Promise<boolean> {
    const job = await this.queue.getJob(botJobId(gameId, ply));
    if (!job) return false;
    const state = await job.getState();
    return state === 'waiting' || state === 'active' || state === 'delayed' || state === 'prioritized' || state === 'waiting-children';
  }
}

