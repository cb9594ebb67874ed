import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread on a module beside `base` (an `import.meta.url`). Under the tests the
 * sources are TypeScript, so the worker first registers tsx (Node 20 workers ignore `--import`);
 * built code runs as it is.
 */
export function startWorker(base: string, file: string, options: WorkerOptions = {}): Worker {
  if (!base.endsWith('.ts')) return new Worker(new URL(`./${file}.js`, base), options);
  const url = new URL(`./${file}.ts`, base).href;
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url)}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/**
 * Hands `tasks` out to up to `threads` workers on `file`, one task at a time each, and resolves
 * when every task is answered. `onMessage` sees every message a worker posts; a worker is given
 * its next task after a message that `isAnswer` accepts (others are progress reports).
 */
export async function runOnWorkers<T, M>(
  base: string,
  file: string,
  tasks: readonly T[],
  threads: number,
  onMessage: (message: M, task: T) => void,
  isAnswer: (message: M) => boolean = () => true,
): Promise<number> {
  let next = 0;
  const workers = Array.from({ length: Math.max(1, Math.min(threads, tasks.length)) }, () => startWorker(base, file));
  try {
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve, reject) => {
            let task: T | undefined;
            const give = (): void => {
              if (next >= tasks.length) return resolve();
              task = tasks[next++]!;
              worker.postMessage(task);
            };
            worker.on('message', (message: M) => {
              onMessage(message, task!);
              if (isAnswer(message)) give();
            });
            worker.on('error', reject);
            give();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return workers.length;
}
