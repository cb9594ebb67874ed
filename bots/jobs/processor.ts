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
  /** When this attempt began (epoch ms). */
  readonly processedOn?: number;
  updateProgress(progress: object): Promise<void> | void;
  updateData?(data: BotJobInput): Promise<void>;
}

/**
 * BullMQ's sandboxed processor: runs in a worker thread, so the search may hold the CPU while the
 * queue's own thread keeps renewing the job's lock. Progress after each finished depth (a turn)
 * or each position searched (an analysis).
 */
export default async function processBotJob(job: BotJob): Promise<BotJobResult | AnalysisJobResult> {
  if (job.name === ANALYSIS_JOB) return analyseGame(job.data as AnalysisJobInput, (progress) => void job.updateProgress(progress));
  const turn = job.data as BotJobInput;
  const takenAt = job.processedOn ?? Date.now();
  // The first worker to take the turn writes down when; one that takes it over after a crash counts the time lost since.
  if (turn.takenAt === undefined) await job.updateData?.({ ...turn, takenAt });
  const lostMs = turn.takenAt === undefined ? 0 : Math.max(0, takenAt - turn.takenAt);
  const queuedMs = job.timestamp === undefined ? undefined : Math.max(0, Date.now() - job.timestamp);
  const result = thinkMove(turn, (thinking) => void job.updateProgress(thinking));
  return { ...result, ...(queuedMs === undefined ? {} : { queuedMs }), ...(lostMs > 0 ? { lostMs } : {}) };
}
