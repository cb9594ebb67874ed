import type { AnalysisJobInput } from '../../bots/jobs/contract.js';
import type { AnalysisHandlers, AnalysisJobs } from '../games/ports.js';
import { LocalJobs } from './local-jobs.js';

/**
 * Analyses on this process's bot threads (the embedded mode): the pool runs them after every
 * waiting bot turn and never on its last free thread. One at a time per game.
 */
export class LocalAnalysisJobs extends LocalJobs<AnalysisHandlers> implements AnalysisJobs {
  async request(input: AnalysisJobInput): Promise<void> {
    const handlers = this.delivered();
    this.once(input.gameId, () =>
      this.pool
        .analyse(input, (progress) => void handlers.onAnalysisProgress(input.gameId, progress).catch(this.onError))
        .then(
          (result) => handlers.onAnalysisDone(result),
          (error: unknown) => handlers.onAnalysisFailed(input.gameId, error instanceof Error ? error.message : String(error)),
        )
        .catch(this.onError),
    );
  }

  /** The pool is the bot turns' too: they close it. */
  async close(): Promise<void> {}
}
