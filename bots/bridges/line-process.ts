import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { startProgram, stopProgram } from './process.js';

/**
 * An outside program spoken to in lines (piskvork, UCI, NBoard): write a command, wait for the
 * first line that satisfies a test, until a deadline or an abort. Its exit is noticed at once.
 */
export class LineProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly waiting = new Set<(line: string | null) => void>();
  exited = false;

  constructor(command: string, log: (line: string) => void) {
    this.child = startProgram(command);
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      for (const waiter of [...this.waiting]) waiter(line);
    });
    createInterface({ input: this.child.stderr }).on('line', (line) => log(`engine: ${line}`));
    this.child.stdin.on('error', () => undefined); // a program that died: its exit says so
    this.child.once('exit', () => {
      this.exited = true;
      for (const waiter of [...this.waiting]) waiter(null);
    });
    this.child.once('error', () => {
      this.exited = true;
      for (const waiter of [...this.waiting]) waiter(null);
    });
  }

  send(line: string): void {
    if (!this.exited) this.child.stdin.write(`${line}\n`);
  }

  /** The first line `accept` keeps (it returns a value), or `'exited'`, `'timeout'`, `'aborted'`. */
  next<T>(accept: (line: string) => T | undefined, until: number, signal?: AbortSignal): Promise<T | 'exited' | 'timeout' | 'aborted'> {
    if (this.exited) return Promise.resolve('exited');
    if (signal?.aborted) return Promise.resolve('aborted');
    return new Promise((resolve) => {
      const finish = (value: T | 'exited' | 'timeout' | 'aborted'): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.waiting.delete(waiter);
        resolve(value);
      };
      const waiter = (line: string | null): void => {
        if (line === null) return finish('exited');
        const kept = accept(line);
        if (kept !== undefined) finish(kept);
      };
      const onAbort = (): void => finish('aborted');
      const timer = Number.isFinite(until) ? setTimeout(() => finish('timeout'), Math.max(0, until - Date.now())) : undefined;
      signal?.addEventListener('abort', onAbort);
      this.waiting.add(waiter);
    });
  }

  /** Ends the program: `goodbye` is sent, and it is killed if it is still there after a second. */
  async stop(goodbye?: string): Promise<void> {
    if (this.exited) return;
    if (goodbye) this.send(goodbye);
    const gone = new Promise((resolve) => this.child.once('exit', resolve));
    const timer = setTimeout(() => stopProgram(this.child), 1000);
    await gone;
    clearTimeout(timer);
  }
}
