import type { Queue, QueueEvents } from 'bullmq';
import type { RedisClient } from '../redis/connections.js';
import { ANALYSIS_JOB, type AnalysisJobInput, type AnalysisJobResult, type AnalysisProgress } from '../../bots/jobs/contract.js';
import type { AnalysisHandlers, AnalysisJobs } from '../games/ports.js';
import { analysisJobId, parseAnalysisJobId } from './job-ids.js';
import { BOT_QUEUE, MAX_PRIORITY } from './bullmq-bot-turns.js';
import { KEEP_FINISHED_JOBS, QueueAdapter } from './bullmq-queue.js';

const ATTEMPTS = 2;

/**
 * Analyses as jobs of the bot queues (the game's, as its turns), so the bot workers run them: named `analysis`, with the id
 * `gameId-analysis` (queued once however often asked) and the queue's lowest priority, so a
 * worker takes one only when no bot turn waits. Every web process hears their progress and end
 * and tells its own connections.
 */
export class BullmqAnalysisJobs extends QueueAdapter<AnalysisJobInput, AnalysisJobResult, AnalysisHandlers> implements AnalysisJobs {
  constructor(connection: RedisClient, onError: (error: unknown) => void, prefixes: readonly string[] = ['boardroom']) {
    super(BOT_QUEUE, connection, onError, prefixes);
  }

  protected listen(events: QueueEvents, queue: Queue<AnalysisJobInput, AnalysisJobResult>, handlers: AnalysisHandlers): void {
    const onError = this.onError;
    events.on('progress', ({ jobId, data }) => {
      const gameId = parseAnalysisJobId(jobId);
      if (gameId && typeof data === 'object' && data !== null) handlers.onAnalysisProgress(gameId, data as AnalysisProgress).catch(onError);
    });
    events.on('completed', ({ jobId, returnvalue }) => {
      if (!parseAnalysisJobId(jobId)) return;
      const result = (typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue) as AnalysisJobResult;
      handlers.onAnalysisDone(result).catch(onError);
    });
    events.on('failed', ({ jobId, failedReason }) => {
      const gameId = parseAnalysisJobId(jobId);
      if (!gameId) return;
      void queue.getJob(jobId).then((job) => {
        if (job && job.attemptsMade >= ATTEMPTS) return handlers.onAnalysisFailed(gameId, failedReason);
      }).catch(onError);
    });
  }

  async request(input: AnalysisJobInput): Promise<void> {
    const id = analysisJobId(input.gameId);
    const queue = this.queueOf(input.gameId);
    const existing = await queue.getJob(id);
    if (existing) {
      // An answer no process heard (they were all down) is in the finished job: deliver it, or try again.
      if (await existing.isCompleted()) await this.handlersStarted.onAnalysisDone(existing.returnvalue);
      else if (await existing.isFailed()) await existing.retry();
      return;
    }
    await queue.add(ANALYSIS_JOB, input, {
      jobId: id,
      priority: MAX_PRIORITY,
      attempts: ATTEMPTS,
      backoff: { type: 'fixed', delay: 1000 },
      ...KEEP_FINISHED_JOBS,
    });
  }
}
