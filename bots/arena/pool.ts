import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { GameId } from '../../shared/rules.js';
import { startWorker } from '../threads.js';
import type { ArenaReply, ArenaTask } from './arena-worker.js';
import type { PlayedGame } from './game.js';

/**
 * Worker threads that play arena games (the bots think synchronously, so each game needs a
 * thread of its own): `play` queues a game and resolves with it once a thread has played it.
 */
export class GamePool {
  private readonly idle: Worker[] = [];
  private readonly waiting: { task: ArenaTask; resolve: (g: PlayedGame) => void; reject: (e: Error) => void }[] = [];
  private readonly workers: Worker[];
  private failure: Error | undefined;

  constructor(threads = availableParallelism()) {
    this.workers = Array.from({ length: Math.max(1, threads) }, () => startWorker(import.meta.url, 'arena-worker'));
    for (const worker of this.workers) {
      worker.on('error', (error) => this.fail(error));
      this.idle.push(worker);
    }
  }

  play(task: ArenaTask): Promise<PlayedGame> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting.push({ task, resolve, reject });
      this.next();
    });
  }

  /** Both games of an opening, colours swapped: A moving first (task `index`), then B (`index + 1`). */
  playPair(pair: { index: number; game: GameId; a: string; b: string; opening: readonly number[] }): Promise<[PlayedGame, PlayedGame]> {
    const { index, game, a, b, opening } = pair;
    return Promise.all([this.play({ index, game, first: a, second: b, opening }), this.play({ index: index + 1, game, first: b, second: a, opening })]);
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }

  private next(): void {
    while (this.idle.length > 0 && this.waiting.length > 0) {
      const worker = this.idle.pop()!;
      const job = this.waiting.shift()!;
      const onReply = (reply: ArenaReply): void => {
        worker.off('message', onReply);
        this.idle.push(worker);
        if ('failed' in reply) job.reject(new Error(reply.failed));
        else job.resolve(reply.played);
        this.next();
      };
      worker.on('message', onReply);
      worker.postMessage(job.task);
    }
  }

  private fail(error: Error): void {
    this.failure = error;
    for (const job of this.waiting.splice(0)) job.reject(error);
  }
}
