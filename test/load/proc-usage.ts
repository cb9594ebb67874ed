import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** A process's CPU time and resident memory, read from /proc (Linux), with no help from the process. */
export interface ProcessUsage {
  readonly cpuSeconds: number;
  /** The part of `cpuSeconds` spent in the kernel on the process's behalf (its system calls: the network). */
  readonly systemSeconds: number;
  readonly rssBytes: number;
}

const system = (name: string, fallback: number): number => {
  try {
    return Number(execFileSync('getconf', [name], { encoding: 'utf8' }).trim()) || fallback;
  } catch {
    return fallback;
  }
};
const TICKS_PER_SECOND = system('CLK_TCK', 100);
const PAGE_BYTES = system('PAGESIZE', 4096);

/**
 * A `/proc/<pid>/stat` line's user and system time (fields 14 and 15, in clock ticks) and resident
 * pages (field 24). The command's name (field 2) may hold spaces, so fields count from its `)`.
 */
export function parseProcStat(text: string, ticksPerSecond = TICKS_PER_SECOND, pageBytes = PAGE_BYTES): ProcessUsage {
  const fields = text.slice(text.lastIndexOf(')') + 2).trim().split(/\s+/);
  const field = (n: number): number => Number(fields[n - 3]);
  return { cpuSeconds: (field(14) + field(15)) / ticksPerSecond, systemSeconds: field(15) / ticksPerSecond, rssBytes: field(24) * pageBytes };
}

export function processUsage(pid: number): ProcessUsage {
  return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/** The share of one core the process used between two readings `seconds` apart, in percent. */
export function cpuPercent(before: ProcessUsage, after: ProcessUsage, seconds: number): number {
  return Math.round(((after.cpuSeconds - before.cpuSeconds) / seconds) * 1000) / 10;
}

/** A Node process's V8 heap, from its Prometheus metrics: the bytes the heap holds from the system, and those its objects use. */
export interface HeapUsage {
  readonly totalBytes: number;
  readonly usedBytes: number;
}

/** The heap's figures in a `/metrics` text (prom-client's default metrics, under any prefix); undefined when absent. */
export function parseHeapMetrics(text: string): HeapUsage | undefined {
  const figure = (name: string): number => Number(new RegExp(`^\\w*nodejs_heap_size_${name}_bytes (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  const heap = { totalBytes: figure('total'), usedBytes: figure('used') };
  return Number.isFinite(heap.totalBytes) && Number.isFinite(heap.usedBytes) ? heap : undefined;
}
