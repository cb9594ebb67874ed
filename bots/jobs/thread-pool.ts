import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../threads.js';
import type { BotJobInput, BotJobResult, BotThinking } from './contract.js';
import type { PoolReply, PoolRequest } from './pool-worker.js';

interface Pending {
  readonly request: PoolRequest;
  readonly queuedAt: number;
  queuedMs?: number;
  readonly onThinking: ((t: BotThinking) => void) | undefined;
  resolve(result: BotJobResult): void;
  reject(error: Error): void;
}

/**
 * Bot jobs on local worker threads, for the embedded server (no Redis, no BullMQ) and for tests:
 * the same `thinkMove` the BullMQ processor runs, one job per thread at a time. A free thread
 * takes the oldest job of the owner with the fewest jobs running, so one owner's many games
 * cannot hold back another's.
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
    if (this.closed) return Promise.reject(new Error('the bot thread pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ request: { id: this.nextId++, input }, queuedAt: Date.now(), onThinking, resolve, reject });
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
      const worker = this.idle.pop() ?? (this.busy.size < this.size ? this.spawn() : undefined);
      if (!worker) return;
      const pending = this.queue.splice(this.fairest(), 1)[0]!;
      pending.queuedMs = Date.now() - pending.queuedAt;
      this.busy.set(worker, pending);
      worker.postMessage(pending.request);
    }
  }

  /**
   * The index of the next job to run: the oldest job of the owner with the fewest jobs running,
   * and among those, of the owner served longest ago (round robin).
   */
  private fairest(): number {
    const running = new Map<string | undefined, number>();
    for (const p of this.busy.values()) running.set(p.request.input.owner, (running.get(p.request.input.owner) ?? 0) + 1);
    const rank = (p: Pending): [number, number] => [running.get(p.request.input.owner) ?? 0, this.served.get(p.request.input.owner) ?? -1];
    let best = 0;
    for (let i = 1; i < this.queue.length; i++) {
      const [r, s] = rank(this.queue[i]!);
      const [br, bs] = rank(this.queue[best]!);
      if (r < br || (r === br && s < bs)) best = i;
    }
    this.served.set(this.queue[best]!.request.input.owner, this.serveCount++);
    return best;
  }

  private spawn(): Worker {
    const worker = startWorker(import.meta.url, 'pool-worker');
    worker.on('message', (reply: PoolReply) => {
      const pending = this.busy.get(worker);
      if (!pending || pending.request.id !== reply.id) return;
      if (reply.kind === 'thinking') {
        pending.onThinking?.(reply.thinking as BotThinking);
        return;
      }
      this.busy.delete(worker);
      this.idle.push(worker);
      if (reply.kind === 'done') pending.resolve({ ...(reply.result as BotJobResult), queuedMs: pending.queuedMs ?? 0 });
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
