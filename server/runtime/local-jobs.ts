import type { BotThreadPool } from '../../bots/jobs/thread-pool.js';
import { started, type Deliverer } from './handlers.js';

/**
 * Jobs on this process's bot threads (the embedded mode): each id at most once in flight, the
 * news delivered to the handlers given at `start`.
 */
export abstract class LocalJobs<Handlers> implements Deliverer<Handlers> {
  protected readonly inFlight = new Set<string>();
  private handlers: Handlers | undefined;

  constructor(
    protected readonly pool: BotThreadPool,
    protected readonly onError: (error: unknown) => void,
  ) {}

  async start(handlers: Handlers): Promise<void> {
    this.handlers = handlers;
  }

  /** The handlers; asked before `start`, a bug, it throws. */
  protected delivered(): Handlers {
    return started(this.handlers, this.constructor.name);
  }

  /** Runs `job` unless one of this id is in flight, and forgets the id when it ends. */
  protected once(id: string, job: () => Promise<unknown>): void {
    if (this.inFlight.has(id)) return;
    this.inFlight.add(id);
    void job().finally(() => this.inFlight.delete(id));
  }
}
