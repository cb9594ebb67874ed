import { Queue, Worker, type ConnectionOptions } from 'bullmq';
import type { Color } from '../../shared/color.js';
import type { Timers } from '../games/ports.js';
import { abandonJobId, flagJobId } from './job-ids.js';
import type { Deliverer, RuntimeHandlers } from './handlers.js';

export const TIMER_QUEUE = 'boardroom-timers';

type TimerJob = ({ kind: 'flag'; gameId: string; ply: number } | { kind: 'abandon'; gameId: string; color: Color; awaySince: number }) & { at: number };

/**
 * Flags and abandonment timers as delayed BullMQ jobs: they fire in whichever web process is
 * alive when they are due, so a server that dies does not take a game's clock with it.
 */
export class BullmqTimers implements Timers, Deliverer<RuntimeHandlers> {
  private readonly queue: Queue<TimerJob>;
  private worker: Worker<TimerJob> | undefined;

  constructor(
    private readonly connection: ConnectionOptions,
    private readonly onError: (error: unknown) => void,
    private readonly prefix = 'boardroom',
  ) {
    this.queue = new Queue(TIMER_QUEUE, { connection, prefix });
    this.queue.on('error', onError);
  }

  /** Takes due timers (in whichever web process is alive) and fires them into `handlers`. */
  async start(handlers: RuntimeHandlers): Promise<void> {
    const { connection, prefix, onError } = this;
    const worker = new Worker<TimerJob>(
      TIMER_QUEUE,
      async (job) => {
        const t = job.data;
        // A job promoted before its time (clocks of two hosts) waits for it: a flag must not find time left.
        const early = (t.at ?? 0) - Date.now();
        if (early > 0) await new Promise((resolve) => setTimeout(resolve, early));
        if (t.kind === 'flag') await handlers.onFlag(t.gameId, t.ply);
        else await handlers.onAbandon(t.gameId, t.color, t.awaySince);
      },
      { connection, prefix, concurrency: 8 },
    );
    this.worker = worker;
    worker.on('error', onError);
  }

  get bullQueue(): Queue {
    return this.queue as unknown as Queue;
  }

  async armFlag(gameId: string, ply: number, at: number): Promise<void> {
    await this.add(flagJobId(gameId, ply, at), { kind: 'flag', gameId, ply, at }, at);
  }

  async armAbandon(gameId: string, color: Color, awaySince: number, at: number): Promise<void> {
    await this.add(abandonJobId(gameId, color, awaySince), { kind: 'abandon', gameId, color, awaySince, at }, at);
  }

  async close(): Promise<void> {
    await this.worker?.close();
    await this.queue.close();
  }

  private async add(jobId: string, data: TimerJob, at: number): Promise<void> {
    await this.queue.add(data.kind, data, {
      jobId,
      delay: Math.max(0, at - Date.now()),
      attempts: 5,
      backoff: { type: 'exponential', delay: 100 },
      removeOnComplete: { age: 600 },
      removeOnFail: { age: 24 * 3600 },
    });
  }
}
