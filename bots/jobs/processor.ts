import type { BotJobInput, BotJobResult } from './contract.js';
import { thinkMove } from './think.js';

/** The part of a BullMQ (sandboxed) job the processor uses. */
export interface BotJob {
  readonly data: BotJobInput;
  /** When the job was added (epoch ms). */
  readonly timestamp?: number;
  updateProgress(progress: object): Promise<void> | void;
}

/**
 * BullMQ's sandboxed processor: runs in a worker thread, so the search may hold the CPU while the
 * queue's own thread keeps renewing the job's lock. Progress after each finished depth.
 */
export default async function processBotJob(job: BotJob): Promise<BotJobResult> {
  const queuedMs = job.timestamp === undefined ? undefined : Math.max(0, Date.now() - job.timestamp);
  const result = thinkMove(job.data, (thinking) => void job.updateProgress(thinking));
  return queuedMs === undefined ? result : { ...result, queuedMs };
}
