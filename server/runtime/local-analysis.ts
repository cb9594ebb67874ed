import type { BotThreadPool } from '../../bots/jobs/thread-pool.js';
import type { AnalysisJobInput } from '../../bots/jobs/contract.js';
import type { AnalysisHandlers, AnalysisJobs } from '../games/ports.js';
import { started, type Deliverer } from './handlers.js';

/**
 * Analyses on this process's bot threads (the embedded mode): the pool runs them after every
 * waiting bot turn and never on its last free thread. One at a time per game.
 */
export class LocalAnalysisJobs implements AnalysisJobs, Deliverer<AnalysisHandlers> {
  private readonly inFlight = new Set<string>();
  private handlers: AnalysisHandlers | undefined;

  constructor(
    private readonly pool: BotThreadPool,
    private readonly onError: (error: unknown) => void,
  ) {}

  async start(handlers: AnalysisHandlers): Promise<void> {
    this.handlers = handlers;
  }

  async request(input: AnalysisJobInput): Promise<void> {
    const handlers = started(this.handlers, 'LocalAnalysisJobs');
    if (this.inFlight.has(input.gameId)) return;
    this.inFlight.add(input.gameId);
    void this.pool
      .analyse(input, (progress) => void handlers.onAnalysisProgress(input.gameId, progress).catch(this.onError))
      .then(
        (result) => handlers.onAnalysisDone(result),
        (error: unknown) => handlers.onAnalysisFailed(input.gameId, error instanceof Error ? error.message : String(error)),
      )
      .catch(this.onError)
      .finally(() => this.inFlight.delete(input.gameId));
  }

  /** The pool is the bot turns' too: they close it. */
  async close(): Promise<void> {}
}
