import { Queue, QueueEvents, type ConnectionOptions } from 'bullmq';
import type { BotJobInput, BotJobResult, BotThinking } from '../../bots/jobs/contract.js';
import { botJobId, parseBotJobId, type BotTurns } from '../games/ports.js';
import type { RuntimeHandlers } from './handlers.js';

export const BOT_QUEUE = 'boardroom-bots';
const ATTEMPTS = 3;

/**
 * Bot turns as BullMQ jobs with the id `gameId-ply`, so a retry, a recovery or a second server
 * cannot enqueue one turn twice. Every web process hears the queue's events; applying an answer
 * twice is harmless (the second finds its ply passed).
 */
export class BullmqBotTurns implements BotTurns {
  private readonly queue: Queue<BotJobInput, BotJobResult>;
  private readonly events: QueueEvents;

  constructor(
    connection: ConnectionOptions,
    private readonly handlers: RuntimeHandlers,
    private readonly onError: (error: unknown) => void,
    prefix = 'boardroom',
  ) {
    this.queue = new Queue(BOT_QUEUE, { connection, prefix });
    this.events = new QueueEvents(BOT_QUEUE, { connection, prefix });
    this.queue.on('error', onError);
    this.events.on('error', onError);
    this.events.on('progress', ({ jobId, data }) => {
      const parsed = parseBotJobId(jobId);
      if (!parsed || typeof data !== 'object' || data === null) return;
      void this.queue.getJob(jobId).then((job) => {
        if (job) return this.handlers.onBotThinking(parsed.gameId, parsed.ply, job.data.bot, data as BotThinking);
      }).catch(onError);
    });
    this.events.on('completed', ({ returnvalue }) => {
      const result = (typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue) as BotJobResult;
      this.handlers.onBotResult(result).catch(onError);
    });
    this.events.on('failed', ({ jobId }) => {
      void this.queue.getJob(jobId).then((job) => {
        if (job && job.attemptsMade >= ATTEMPTS) return this.handlers.onBotFailed(job.data.gameId, job.data.ply);
      }).catch(onError);
    });
  }

  /** The queue, for the dashboard and the metrics. */
  get bullQueue(): Queue {
    return this.queue as unknown as Queue;
  }

  async ready(): Promise<void> {
    await this.events.waitUntilReady();
  }

  async request(input: BotJobInput): Promise<void> {
    const id = botJobId(input.gameId, input.ply);
    const existing = await this.queue.getJob(id);
    if (existing) {
      // After a restart the answer may be waiting in a finished job: deliver it, or try again.
      if (await existing.isCompleted()) await this.handlers.onBotResult(existing.returnvalue);
      else if (await existing.isFailed()) await existing.retry();
      return;
    }
    await this.queue.add('turn', input, {
      jobId: id,
      attempts: ATTEMPTS,
      backoff: { type: 'fixed', delay: 200 },
      removeOnComplete: { age: 3600, count: 10_000 },
      removeOnFail: { age: 24 * 3600 },
    });
  }

  async pending(gameId: string, ply: number): Promise<boolean> {
    const job = await this.queue.getJob(botJobId(gameId, ply));
    if (!job) return false;
    const state = await job.getState();
    return state === 'waiting' || state === 'active' || state === 'delayed' || state === 'prioritized' || state === 'waiting-children';
  }

  async close(): Promise<void> {
    await this.events.close();
    await this.queue.close();
  }
}

