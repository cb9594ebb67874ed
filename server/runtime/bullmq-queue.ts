import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { started, type Deliverer } from './handlers.js';

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
    protected readonly connection: Redis,
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
