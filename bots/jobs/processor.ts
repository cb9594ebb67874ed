import { analyseGame } from './analyse.js';
import { ANALYSIS_JOB, type AnalysisJobInput, type AnalysisJobResult, type BotJobInput, type BotJobResult } from './contract.js';
import { thinkMove } from './think.js';

/** The part of a BullMQ (sandboxed) job the processor uses. */
export interface BotJob {
  /** `turn` for a bot's move, ANALYSIS_JOB for a finished game's analysis. */
  readonly name?: string;
  readonly data: BotJobInput | AnalysisJobInput;
  /** When the job was added (epoch ms). */
  readonly timestamp?: number;
  updateProgress(progress: object): Promise<void> | void;
}

/**
 * BullMQ's sandboxed processor: runs in a worker thread, so the search may hold the CPU while the
 * queue's own thread keeps renewing the job's lock. Progress after each finished depth (a turn)
 * or each position searched (an analysis).
 */
export default async function processBotJob(job: BotJob): Promise<BotJobResult | AnalysisJobResult> {
  if (job.name === ANALYSIS_JOB) return analyseGame(job.data as AnalysisJobInput, (progress) => void job.updateProgress(progress));
  const queuedMs = job.timestamp === undefined ? undefined : Math.max(0, Date.now() - job.timestamp);
  const result = thinkMove(job.data as BotJobInput, (thinking) => void job.updateProgress(thinking));
  return queuedMs === undefined ? result : { ...result, queuedMs };
}
