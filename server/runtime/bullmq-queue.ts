import { Queue, QueueEvents } from 'bullmq';
import type { RedisClient } from '../redis/connections.js';
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
 * A BullMQ queue as a web process sees it: made, it adds jobs; started, it hears the queue's
 * events (every web process does) and hands them to `handlers`, the service made since.
 */
export abstract class QueueAdapter<Input, Output, Handlers> implements Deliverer<Handlers> {
  protected readonly queue: Queue<Input, Output>;
  private events: QueueEvents | undefined;
  private handlers: Handlers | undefined;

  constructor(
    private readonly name: string,
    protected readonly connection: RedisClient,
    protected readonly onError: (error: unknown) => void,
    protected readonly prefix: string,
  ) {
    this.queue = new Queue(name, { connection, prefix });
    this.queue.on('error', onError);
  }

  /** Resolves once the queue's events are heard. */
  async start(handlers: Handlers): Promise<void> {
    this.handlers = handlers;
    const events = new QueueEvents(this.name, { connection: this.connection, prefix: this.prefix });
    this.events = events;
    events.on('error', this.onError);
    this.listen(events, handlers);
    await events.waitUntilReady();
  }

  /** Hands the queue's events that are this adapter's to `handlers`. */
  protected abstract listen(events: QueueEvents, handlers: Handlers): void;

  /** The handlers, for an answer found while adding a job (a finished job no process heard). */
  protected get handlersStarted(): Handlers {
    return started(this.handlers, this.constructor.name);
  }

  async close(): Promise<void> {
    await this.events?.close();
    await this.queue.close();
  }
}
