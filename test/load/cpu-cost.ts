import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { processUsage } from './proc-usage.js';

/** A process on the server's side of a measure (the web process, redis-server), by its pid. */
export interface ServerProcess {
  readonly name: string;
  readonly pid: number;
}

/**
 * Pins the server's processes to core 0 and this process (the load generator) to core 1, every
 * thread of each, so that neither steals the other's core; says what it did. On one core, nothing.
 */
export function pinApart(server: readonly ServerProcess[]): string {
  // Not availableParallelism(): it counts the cores this process may use, one once it is pinned.
  if (cpus().length < 2) return 'one core: server and load generator share it (not pinned)';
  try {
    for (const p of server) execFileSync('taskset', ['-a', '-p', '-c', '0', String(p.pid)], { stdio: 'ignore' });
    execFileSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
    return `pinned with taskset: ${server.map((p) => p.name).join(' and ')} on core 0, the load generator on core 1`;
  } catch (error) {
    return `not pinned (taskset failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
  }
}

/** CPU time of each server process from /proc, read at the start and at the end of a measure. */
export function startCpuMeter(server: readonly ServerProcess[]): { perMove(moves: number): Record<string, number> } {
  const before = server.map((p) => processUsage(p.pid));
  return {
    /**
     * CPU µs per accepted move of each process (`cpu-us-per-move:<name>`, and the part of it in the
     * kernel, `…:<name>:kernel`) and their sum (`cpu-us-per-move`).
     */
    perMove(moves: number): Record<string, number> {
      const after = server.map((p) => processUsage(p.pid));
      const perMove = (seconds: number): number => (seconds * 1e6) / Math.max(1, moves);
      const each = server.map((_, i) => perMove(after[i]!.cpuSeconds - before[i]!.cpuSeconds));
      return {
        ...Object.fromEntries(
          server.flatMap((p, i) => [
            [`cpu-us-per-move:${p.name}`, Math.round(each[i]!)],
            [`cpu-us-per-move:${p.name}:kernel`, Math.round(perMove(after[i]!.systemSeconds - before[i]!.systemSeconds))],
          ]),
        ),
        'cpu-us-per-move': Math.round(each.reduce((a, b) => a + b, 0)),
      };
    },
  };
}

/** The yardstick's CPU per move over a server's: 1 when it costs the same, 0.5 when it costs twice. */
export function costShare(yardstickUs: number, serverUs: number): number {
  return Math.round((yardstickUs / serverUs) * 100) / 100;
}
