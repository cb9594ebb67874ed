import type { Redis } from 'ioredis';

export interface Persistence {
  /** Whether a restarted Redis would come back with its data: AOF or RDB snapshots on. */
  readonly keeps: boolean | 'unknown';
  readonly detail: string;
}

/** Reads a Redis's persistence settings (`CONFIG GET`; a managed Redis may forbid it: unknown). */
export async function readPersistence(redis: Redis): Promise<Persistence> {
  try {
    const aof = ((await redis.config('GET', 'appendonly')) as string[])[1] ?? 'no';
    const save = ((await redis.config('GET', 'save')) as string[])[1] ?? '';
    return { keeps: aof === 'yes' || save.trim() !== '', detail: `appendonly ${aof}, save "${save}"` };
  } catch (error) {
    return { keeps: 'unknown', detail: `CONFIG GET refused: ${(error as Error).message}` };
  }
}
