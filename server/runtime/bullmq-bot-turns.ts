import type { Queue, QueueEvents } from 'bullmq';
import type { RedisClient } from '../redis/connections.js';
import type { BotJobInput, BotJobResult, BotThinking } from '../../bots/jobs/contract.js';
import type { BotTurns } from '../games/ports.js';
import { botJobId, parseBotJobId } from './job-ids.js';
import { KEEP_FINISHED_JOBS, QueueAdapter } from './bullmq-queue.js';
import type { RuntimeHandlers } from './handlers.js';

export const BOT_QUEUE = 'boardroom-bots';
const ATTEMPTS = 3;
/** BullMQ's lowest priority (a finished game's analysis has it). */
export const MAX_PRIORITY = 2_097_151;
/** The queue's virtual clock and the owners' tags are forgotten this long after their last change: an idle queue starts again from 1. */
const FAIRNESS_TTL_MS = 600_000;

/** A queue's virtual clock: the start tag of the latest turn a worker took from it. Under the queue's prefix, so in its slot. */
const virtualClockKey = (prefix: string): string => `${prefix}:{bot-fairness}:clock`;
/** An owner's next start tag: one past its latest turn's. */
const ownerNextKey = (prefix: string, owner: string): string => `${prefix}:{bot-fairness}:owner:${owner}`;

/** A turn's start tag: its owner's next, but not before the virtual clock (an owner idle for a while starts from now). */
const START_TAG = `
local tag = math.max(tonumber(redis.call('get', KEYS[1]) or '1'), tonumber(redis.call('get', KEYS[2]) or '1'))
tag = math.min(tag, tonumber(ARGV[1]))
redis.call('set', KEYS[2], tag + 1, 'px', ARGV[2])
return tag`;

/** The virtual clock moves on to a turn just taken. */
const ADVANCE_CLOCK = `
if tonumber(redis.call('get', KEYS[1]) or '0') < tonumber(ARGV[1]) then redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[2]) end`;

/** A worker took a turn of priority `tag` from the queue of `prefix`: that queue's virtual clock moves on to it. */
export async function advanceVirtualClock(connection: RedisClient, prefix: string, tag: number): Promise<void> {
  if (tag > 0 && tag < MAX_PRIORITY) await connection.eval(ADVANCE_CLOCK, 1, virtualClockKey(prefix), tag, FAIRNESS_TTL_MS);
}

/**
 * Bot turns as BullMQ jobs with the id `gameId-ply`, so a retry, a recovery or a second server
 * cannot enqueue one turn twice. Every web process hears the queue's events; applying an answer
 * twice is harmless (the second finds its ply passed).
 *
 * Fairness between owners is start-time fair queueing: a turn's priority is its start tag, its
 * owner's previous tag plus one but not below the queue's virtual clock (the tag of the latest
 * turn a worker took). An owner's turns are served in the order they were asked (their tags
 * rise), and the owners in turn: one owner's hundred games put another owner's new turn behind
 * the jobs running and at most one turn of each other owner. Equal tags are served first come.
 *
 * A game's turns all go to one of the bot queues (`botQueueOf`); priorities order a queue only,
 * so each queue keeps its own clock and owners' tags, in its slot.
 */
export class BullmqBotTurns extends QueueAdapter<BotJobInput, BotJobResult, RuntimeHandlers> implements BotTurns {
  constructor(
    connection: RedisClient,
    onError: (error: unknown) => void,
    prefixes: readonly string[] = ['boardroom'],
    /** A bot's answer, once applied here (not stale): its thinking and queue wait, for the metrics. */
    private readonly onAnswered: (result: BotJobResult) => void = () => undefined,
  ) {
    super(BOT_QUEUE, connection, onError, prefixes);
  }

  protected listen(events: QueueEvents, queue: Queue<BotJobInput, BotJobResult>, handlers: RuntimeHandlers): void {
    const onError = this.onError;
    // The queue also carries analyses (`gameId-analysis`), which no bot turn's id parser reads as a turn.
    events.on('progress', ({ jobId, data }) => {
      const parsed = parseBotJobId(jobId);
      if (!parsed || typeof data !== 'object' || data === null) return;
      void queue.getJob(jobId).then((job) => {
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
      void queue.getJob(jobId).then((job) => {
        if (job && job.attemptsMade >= ATTEMPTS) return handlers.onBotFailed(job.data.gameId, job.data.ply);
      }).catch(onError);
    });
  }

  /** The queues, for the dashboard and the metrics. */
  get bullQueues(): readonly Queue[] {
    return this.queues as unknown as readonly Queue[];
  }

  async request(input: BotJobInput): Promise<void> {
    const id = botJobId(input.gameId, input.ply);
    const index = this.queueIndexOf(input.gameId);
    const queue = this.queues[index]!;
    const existing = await queue.getJob(id);
    if (existing) {
      // After a restart the answer may be waiting in a finished job: deliver it, or try again.
      if (await existing.isCompleted()) await this.handlersStarted.onBotResult(existing.returnvalue);
      else if (await existing.isFailed()) await existing.retry();
      return;
    }
    await queue.add('turn', input, {
      jobId: id,
      ...(input.owner ? { priority: await this.startTag(this.prefixes[index]!, input.owner) } : {}),
      attempts: ATTEMPTS,
      backoff: { type: 'fixed', delay: 200 },
      ...KEEP_FINISHED_JOBS,
    });
  }

  /** The new turn's start tag in the queue of `prefix`, below analyses' priority. */
  private async startTag(prefix: string, owner: string): Promise<number> {
    const keys = [virtualClockKey(prefix), ownerNextKey(prefix, owner)];
    return Number(await this.connection.eval(START_TAG, keys.length, ...keys, MAX_PRIORITY - 1, FAIRNESS_TTL_MS));
  }

  async answered(gameId: string, ply: number): Promise<BotJobResult | undefined> {
    const job = await this.queueOf(gameId).getJob(botJobId(gameId, ply));
    return job && (await job.isCompleted()) ? job.returnvalue : undefined;
  }

  async pending(gameId: string, ply: number): Promise<boolean> {
    const job = await this.queueOf(gameId).getJob(botJobId(gameId, ply));
    if (!job) return false;
    const state = await job.getState();
    return state === 'waiting' || state === 'active' || state === 'delayed' || state === 'prioritized' || state === 'waiting-children';
  }
}

