import { Redis } from 'ioredis';

/** Redis's own account of its work and memory, from INFO: what the load tools measure a change by. */
export interface RedisFigures {
  /** Commands served, the INFO calls that read these figures left out. */
  readonly calls: number;
  /** µs of Redis CPU spent in those commands (commandstats). */
  readonly usec: number;
  /** Calls per command name (lower case), INFO left out. */
  readonly commands: ReadonlyMap<string, number>;
  /** The server's CPU seconds, user and system, its background work included. */
  readonly cpuSeconds: number;
  readonly usedMemory: number;
}

/** `key:value` lines of an INFO reply; section headers and blank lines skipped. */
export function parseInfo(text: string): Map<string, string> {
  const info = new Map<string, string>();
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0 && !line.startsWith('#')) info.set(line.slice(0, colon), line.slice(colon + 1).trim());
  }
  return info;
}

/** The figures of an `INFO all` reply (`cmdstat_<name>:calls=…,usec=…,…` lines, `used_cpu_*`, `used_memory`). */
export function redisFigures(text: string): RedisFigures {
  const info = parseInfo(text);
  const commands = new Map<string, number>();
  let calls = 0;
  let usec = 0;
  for (const [key, value] of info) {
    if (!key.startsWith('cmdstat_')) continue;
    const name = key.slice('cmdstat_'.length).toLowerCase();
    if (name === 'info') continue;
    const field = (f: string): number => Number(new RegExp(`(?:^|,)${f}=([0-9.]+)`).exec(value)?.[1] ?? 0);
    commands.set(name, field('calls'));
    calls += field('calls');
    usec += field('usec');
  }
  const number = (key: string): number => Number(info.get(key) ?? NaN);
  return { calls, usec, commands, cpuSeconds: number('used_cpu_user') + number('used_cpu_sys'), usedMemory: number('used_memory') };
}

/** What happened between two readings. */
export function figuresDelta(before: RedisFigures, after: RedisFigures): RedisFigures {
  const commands = new Map<string, number>();
  for (const [name, n] of after.commands) {
    const grown = n - (before.commands.get(name) ?? 0);
    if (grown > 0) commands.set(name, grown);
  }
  return { calls: after.calls - before.calls, usec: after.usec - before.usec, commands, cpuSeconds: after.cpuSeconds - before.cpuSeconds, usedMemory: after.usedMemory - before.usedMemory };
}

export async function readRedisFigures(redis: Redis): Promise<RedisFigures> {
  return redisFigures(await redis.info('all'));
}

/** The figures times `factor`: a background measured over one span, carried over to another. */
export function scaleFigures(figures: RedisFigures, factor: number): RedisFigures {
  return {
    calls: figures.calls * factor,
    usec: figures.usec * factor,
    commands: new Map([...figures.commands].map(([name, n]) => [name, n * factor])),
    cpuSeconds: figures.cpuSeconds * factor,
    usedMemory: figures.usedMemory * factor,
  };
}

/** One Redis server's work per accepted move over a measure. */
export interface RedisWorkPerMove {
  readonly name: string;
  /** Commands served (commandstats calls, INFO left out). */
  readonly commands: number;
  /** µs of Redis CPU inside those commands (commandstats usec). */
  readonly commandUs: number;
  /** µs of the server's CPU, user and system, its background work (replication, the cluster bus) included. */
  readonly cpuUs: number;
}

/**
 * Reads INFO on each server (a cluster's masters, or the one Redis) now and again at `perMove`,
 * so a measure shows how its moves' Redis work is spread over them.
 */
export async function startRedisMeter(servers: readonly { name: string; port: number }[]): Promise<{ perMove(moves: number): Promise<RedisWorkPerMove[]> }> {
  const clients = servers.map(({ port }) => new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 1 }));
  const before = await Promise.all(clients.map(readRedisFigures));
  return {
    async perMove(moves) {
      try {
        const after = await Promise.all(clients.map(readRedisFigures));
        const per = (n: number): number => Math.round((n / Math.max(1, moves)) * 10) / 10;
        return servers.map(({ name }, i) => {
          const grown = figuresDelta(before[i]!, after[i]!);
          return { name, commands: per(grown.calls), commandUs: per(grown.usec), cpuUs: per(grown.cpuSeconds * 1e6) };
        });
      } finally {
        for (const client of clients) client.disconnect();
      }
    },
  };
}
