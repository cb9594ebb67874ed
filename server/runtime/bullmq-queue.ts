import { Queue, QueueEvents } from 'bullmq';
import type { RedisClient } from '../redis/connections.js';
import { botQueueOf } from './bot-queues.js';
import { started, type Deliverer } from './handlers.js';

/**
 * How much of its finished jobs the bot queue keeps, by age and by count, so its memory does not
 * grow with the games played: a completed turn's answer stays readable (`BotTurns.answered`) for
 * ten minutes while fewer than a thousand turns finish after it, a failed job a day for a look.
 */
export const KEEP_FINISHED_JOBS = {
  removeOnComplete: { age: 600, count: 1000 },
  removeOnFail: { age: 24 * 3600, count: 1000 },
} as const;

/**
 * The bot queues as a web process sees them: made, it adds a game's jobs to the game's queue
 * (`botQueueOf`); started, it hears every queue's events (every web process does) and hands them
 * to `handlers`, the service made since.
 */
export abstract class QueueAdapter<Input, Output, Handlers> implements Deliverer<Handlers> {
  protected readonly queues: readonly Queue<Input, Output>[];
  private readonly events: QueueEvents[] = [];
  private handlers: Handlers | undefined;

  constructor(
    private readonly name: string,
    protected readonly connection: RedisClient,
    protected readonly onError: (error: unknown) => void,
    /** One BullMQ prefix per queue (`botQueuePrefixes`). */
    protected readonly prefixes: readonly string[],
  ) {
    this.queues = prefixes.map((prefix) => new Queue<Input, Output>(name, { connection, prefix }));
    for (const queue of this.queues) queue.on('error', onError);
  }

  /** The index of a game's queue. */
  protected queueIndexOf(gameId: string): number {
    return botQueueOf(gameId, this.queues.length);
  }

  protected queueOf(gameId: string): Queue<Input, Output> {
    return this.queues[this.queueIndexOf(gameId)]!;
  }

  /** Resolves once every queue's events are heard. */
  async start(handlers: Handlers): Promise<void> {
    this.handlers = handlers;
    await Promise.all(this.queues.map(async (queue, i) => {
      const events = new QueueEvents(this.name, { connection: this.connection, prefix: this.prefixes[i]! });
      this.events.push(events);
      events.on('error', this.onError);
      this.listen(events, queue, handlers);
      await events.waitUntilReady();
    }));
  }

  /** Hands the events of `queue` that are this adapter's to `handlers`. */
  protected abstract listen(events: QueueEvents, queue: Queue<Input, Output>, handlers: Handlers): void;

  /** The handlers, for an answer found while adding a job (a finished job no process heard). */
  protected get handlersStarted(): Handlers {
    return started(this.handlers, this.constructor.name);
  }

  async close(): Promise<void> {
    await Promise.all(this.events.map((events) => events.close()));
    await Promise.all(this.queues.map((queue) => queue.close()));
  }
}
