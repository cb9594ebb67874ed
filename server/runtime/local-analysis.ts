import type { BotThreadPool } from '../../bots/jobs/thread-pool.js';
import type { AnalysisJobInput } from '../../bots/jobs/contract.js';
import type { AnalysisHandlers, AnalysisJobs } from '../games/ports.js';

/**
 * Analyses on this process's bot threads (the embedded mode): the pool runs them after every
 * waiting bot turn and never on its last free thread. One at a time per game.
 */
export class LocalAnalysisJobs implements AnalysisJobs {
  private readonly inFlight = new Set<string>();

  constructor(
    private readonly pool: BotThreadPool,
    private readonly handlers: AnalysisHandlers,
    private readonly onError: (error: unknown) => void,
  ) {}

  async request(input: AnalysisJobInput): Promise<void> {
    if (this.inFlight.has(input.gameId)) return;
    this.inFlight.add(input.gameId);
    void this.pool
      .analyse(input, (progress) => void this.handlers.onAnalysisProgress(input.gameId, progress).catch(this.onError))
      .then(
        (result) => this.handlers.onAnalysisDone(result),
        (error: unknown) => this.handlers.onAnalysisFailed(input.gameId, error instanceof Error ? error.message : String(error)),
      )
      .catch(this.onError)
      .finally(() => this.inFlight.delete(input.gameId));
  }

  /** The pool is the bot turns' too: they close it. */
  async close(): Promise<void> {}
}
