import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../threads.js';
import type { AnalysisJobInput, AnalysisJobResult, AnalysisProgress, BotJobInput, BotJobResult, BotThinking } from './contract.js';
import type { PoolReply, PoolRequest } from './pool-worker.js';

interface Pending {
  readonly request: PoolRequest;
  readonly queuedAt: number;
  queuedMs?: number;
  readonly onThinking: ((t: never) => void) | undefined;
  resolve(result: never): void;
  reject(error: Error): void;
}

/**
 * Bot jobs on local worker threads, for the embedded server (no Redis, no BullMQ) and for tests:
 * the same `thinkMove` the BullMQ processor runs, one job per thread at a time. A free thread
 * takes the oldest job of the owner with the fewest jobs running, so one owner's many games
 * cannot hold back another's. Analyses come last: one starts only when no bot turn waits, and
 * they never hold every thread (one is left for turns, unless the pool has only one).
 */
export class BotThreadPool {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Pending>();
  private readonly queue: Pending[] = [];
  private nextId = 1;
  /** When each owner last had a job started, for the round robin. */
  private readonly served = new Map<string | undefined, number>();
  private serveCount = 0;
  private closed = false;

  constructor(private readonly size: number = availableParallelism()) {}

  run(input: BotJobInput, onThinking?: (thinking: BotThinking) => void): Promise<BotJobResult> {
    return this.enqueue({ id: this.nextId++, input }, onThinking);
  }

  /** A finished game's analysis (`analyseGame`), at the lowest priority. */
  analyse(analysis: AnalysisJobInput, onProgress?: (progress: AnalysisProgress) => void): Promise<AnalysisJobResult> {
    return this.enqueue({ id: this.nextId++, analysis }, onProgress);
  }

  private enqueue<T, R>(request: PoolRequest, onThinking?: (t: T) => void): Promise<R> {
    if (this.closed) return Promise.reject(new Error('the bot thread pool is closed'));
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ request, queuedAt: Date.now(), onThinking: onThinking as ((t: never) => void) | undefined, resolve: resolve as (r: never) => void, reject });
      this.dispatch();
    });
  }

  /** Jobs waiting for a thread. */
  get waiting(): number {
    return this.queue.length;
  }

  get running(): number {
    return this.busy.size;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.queue.splice(0)) p.reject(new Error('the bot thread pool closed'));
    const workers = [...this.idle, ...this.busy.keys()];
    for (const p of this.busy.values()) p.reject(new Error('the bot thread pool closed'));
    this.busy.clear();
    this.idle.length = 0;
    await Promise.all(workers.map((w) => w.terminate()));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const next = this.fairest();
      if (next < 0) return;
      const worker = this.idle.pop() ?? (this.busy.size < this.size ? this.spawn() : undefined);
      if (!worker) return;
      const pending = this.queue.splice(next, 1)[0]!;
      if (pending.request.input) this.served.set(pending.request.input.owner, this.serveCount++);
      pending.queuedMs = Date.now() - pending.queuedAt;
      this.busy.set(worker, pending);
      worker.postMessage(pending.request);
    }
  }

  /**
   * The index of the next job to run: the oldest bot turn of the owner with the fewest jobs
   * running, and among those, of the owner served longest ago (round robin); with no turn
   * waiting, the oldest analysis if another may run; -1 for none.
   */
  private fairest(): number {
    const running = new Map<string | undefined, number>();
    let analyses = 0;
    for (const p of this.busy.values()) {
      if (p.request.input) running.set(p.request.input.owner, (running.get(p.request.input.owner) ?? 0) + 1);
      else analyses++;
    }
    const rank = (input: BotJobInput): [number, number] => [running.get(input.owner) ?? 0, this.served.get(input.owner) ?? -1];
    let best = -1;
    for (const [i, p] of this.queue.entries()) {
      if (!p.request.input) continue;
      if (best < 0) {
        best = i;
        continue;
      }
      const [r, s] = rank(p.request.input);
      const [br, bs] = rank(this.queue[best]!.request.input!);
      if (r < br || (r === br && s < bs)) best = i;
    }
    if (best >= 0 || analyses >= Math.max(1, this.size - 1)) return best;
    return this.queue.findIndex((p) => p.request.analysis !== undefined);
  }

  private spawn(): Worker {
    const worker = startWorker(import.meta.url, 'pool-worker');
    worker.on('message', (reply: PoolReply) => {
      const pending = this.busy.get(worker);
      if (!pending || pending.request.id !== reply.id) return;
      if (reply.kind === 'thinking') {
        pending.onThinking?.(reply.thinking as never);
        return;
      }
      this.busy.delete(worker);
      this.idle.push(worker);
      if (reply.kind === 'done') pending.resolve((pending.request.input ? { ...(reply.result as BotJobResult), queuedMs: pending.queuedMs ?? 0 } : reply.result) as never);
      else pending.reject(new Error(reply.message));
      this.dispatch();
    });
    worker.on('error', (error) => {
      const pending = this.busy.get(worker);
      this.busy.delete(worker);
      pending?.reject(error);
      if (!this.closed) this.dispatch();
    });
    worker.unref();
    return worker;
  }
}
