import { availableParallelism } from 'node:os';
import { z } from 'zod';

const integer = (fallback: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(fallback);

const EnvSchema = z.object({
  PORT: integer(3000, 0, 65535),
  HOST: z.string().default('0.0.0.0'),
  /** Redis for games, the Socket.IO adapter and BullMQ; absent: the embedded default. */
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  /** A Redis Cluster instead: comma-separated seed nodes, host:port (Redis 7 or Valkey 7.2+). */
  REDIS_CLUSTER: z.string().regex(/^\s*[^\s,:]+:\d{1,5}\s*(,\s*[^\s,:]+:\d{1,5}\s*)*$/).optional(),
  /** In a cluster, a move is acknowledged once a replica has it (WAIT 1); 0 acknowledges on the master's word. */
  CLUSTER_WAIT_REPLICA: z.enum(['0', '1']).default('1'),
  /** How long a move waits for its replica before it is acknowledged all the same (logged). */
  CLUSTER_WAIT_MS: integer(500, 1, 10_000),
  /** Enables the admin namespace, API and dashboard; at least 16 characters. */
  ADMIN_TOKEN: z.string().min(16).optional(),
  /** Comma-separated origins allowed to connect from other sites, or `*`; none by default. */
  CORS_ORIGIN: z.string().optional(),
  RECONNECT_GRACE_MS: integer(60_000, 1000, 3_600_000),
  /** A side's time for its first move before the game is aborted (or its clock, if shorter). */
  FIRST_MOVE_GRACE_MS: integer(30_000, 1000, 3_600_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Messages a connection may send per 10 seconds. */
  RATE_LIMIT: integer(100, 5, 10_000),
  /** Bot searches at once: worker concurrency, or local threads in the embedded default. */
  BOT_THREADS: integer(availableParallelism(), 1, 256),
  /** BullMQ lock on a bot job; a worker that dies mid-search loses the job within this and a half. */
  BOT_LOCK_MS: integer(2000, 1000, 600_000),
  /**
   * Bot queues the turns are spread over by game id, each on its own slot (on a cluster, its own
   * master); servers and workers of one deployment share it. Unset: 1 on one Redis, 3 on a cluster.
   */
  BOT_QUEUES: z.coerce.number().int().min(1).max(16).optional(),
  /**
   * Prefix of every Redis key Boardroom writes: games, ratings, accounts, leases, the BullMQ
   * queues, the Socket.IO adapter's channels. Servers and workers of one deployment share it;
   * another prefix is another deployment on the same Redis. Formerly QUEUE_PREFIX, still read.
   */
  REDIS_PREFIX: z.string().regex(/^[a-z0-9_-]+$/i).default('boardroom'),
  /** Sign-in attempts per account name per 15 minutes; five times as many per client address. */
  LOGIN_LIMIT: integer(10, 1, 10_000),
  /** How many proxies in front of the server to trust for the client's address (X-Forwarded-For); 0: none. */
  TRUST_PROXY: integer(0, 0, 10),
  /** Quotas per owner (an account, an agent, or a guest's address): rooms not yet finished, … */
  QUOTA_LIVE_ROOMS: integer(20, 1, 1_000_000),
  /** … rooms made per minute, … */
  QUOTA_ROOMS_PER_MINUTE: integer(30, 1, 1_000_000),
  /** … unfinished games with a bot, … */
  QUOTA_LIVE_BOT_GAMES: integer(10, 1, 1_000_000),
  /** … seconds of bot thinking per minute; and open connections per client address. */
  QUOTA_BOT_SECONDS_PER_MINUTE: integer(600, 1, 10_000_000),
  QUOTA_CONNECTIONS: integer(50, 1, 1_000_000),
  /** Retention: a waiting room idle this long is closed; finished games are kept this many days, and at most this many. */
  WAITING_ROOM_IDLE_MS: integer(30 * 60_000, 1000, 30 * 24 * 3_600_000),
  FINISHED_GAMES_KEEP_DAYS: integer(30, 1, 36_500),
  FINISHED_GAMES_MAX: integer(100_000, 0, 100_000_000),
  /** How often the retention pass runs. */
  RETENTION_EVERY_MS: integer(60_000, 200, 24 * 3_600_000),
  /** The engine's time for each position of a game analysed after its end, in ms. */
  ANALYSIS_PLY_MS: integer(100, 1, 10_000),
  /** 1: refuse to start on a Redis that keeps nothing across a restart (neither AOF nor RDB). */
  REQUIRE_PERSISTENCE: z.enum(['0', '1']).default('0'),
  /** How often each web process looks at the tournaments (one at a time works on them). */
  TOURNAMENT_TICK_MS: integer(500, 50, 60_000),
});

export type Config = z.infer<typeof EnvSchema>;

/** Reads the environment; a bad value stops the start with a sentence naming what to set. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const clean = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  // QUEUE_PREFIX is REDIS_PREFIX's former name (it always prefixed the store's keys too).
  const { QUEUE_PREFIX: formerPrefix, ...rest } = clean;
  if (formerPrefix !== undefined && rest.REDIS_PREFIX !== undefined && rest.REDIS_PREFIX !== formerPrefix) {
    throw new ConfigError(`Boardroom cannot start with this configuration:\n  QUEUE_PREFIX=${JSON.stringify(formerPrefix)}: QUEUE_PREFIX is the former name of REDIS_PREFIX, which says ${JSON.stringify(rest.REDIS_PREFIX)}; set REDIS_PREFIX alone.`);
  }
  const input: Record<string, string | undefined> = { ...rest, ...(formerPrefix !== undefined && rest.REDIS_PREFIX === undefined ? { REDIS_PREFIX: formerPrefix } : {}) };
  const parsed = EnvSchema.safeParse(input);
  if (parsed.success && parsed.data.REDIS_URL && parsed.data.REDIS_CLUSTER) {
    throw new ConfigError('Boardroom cannot start with this configuration:\n  REDIS_URL and REDIS_CLUSTER are both set: set REDIS_URL for one Redis or REDIS_CLUSTER for a cluster, not both.');
  }
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues.map((issue) => {
    const name = String(issue.path[0]);
    return `  ${name}=${JSON.stringify(input[name] ?? '')}: ${HINTS[name] ?? issue.message}`;
  });
  throw new ConfigError(`Boardroom cannot start with this configuration:\n${lines.join('\n')}`);
}

export class ConfigError extends Error {}

const HINTS: Record<string, string> = {
  PORT: 'set PORT to a port number from 0 to 65535 (0 picks a free one).',
  REDIS_URL: 'set REDIS_URL to a redis:// URL such as redis://127.0.0.1:6379, or unset it for the embedded default.',
  REDIS_CLUSTER: 'set REDIS_CLUSTER to seed nodes of a Redis Cluster as host:port, separated by commas, such as 10.0.0.1:7000,10.0.0.2:7000.',
  CLUSTER_WAIT_REPLICA: 'set CLUSTER_WAIT_REPLICA to 1 (acknowledge a move once a replica has it) or 0.',
  CLUSTER_WAIT_MS: 'set CLUSTER_WAIT_MS to milliseconds from 1 to 10000.',
  ADMIN_TOKEN: 'set ADMIN_TOKEN to a secret of at least 16 characters, or unset it to turn the admin off.',
  RECONNECT_GRACE_MS: 'set RECONNECT_GRACE_MS to milliseconds from 1000 to 3600000.',
  FIRST_MOVE_GRACE_MS: 'set FIRST_MOVE_GRACE_MS to milliseconds from 1000 to 3600000.',
  LOG_LEVEL: 'set LOG_LEVEL to one of fatal, error, warn, info, debug, trace, silent.',
  RATE_LIMIT: 'set RATE_LIMIT to messages per 10 s per connection, 5 to 10000.',
  BOT_THREADS: 'set BOT_THREADS to a whole number of threads from 1 to 256.',
  BOT_LOCK_MS: 'set BOT_LOCK_MS to milliseconds from 1000 to 600000.',
  BOT_QUEUES: 'set BOT_QUEUES to a whole number of bot queues from 1 to 16 (the same for every server and worker), or unset it: 1 on one Redis, 3 on a cluster.',
  ANALYSIS_PLY_MS: 'set ANALYSIS_PLY_MS to milliseconds of search per analysed position, 1 to 10000.',
  REDIS_PREFIX: 'set REDIS_PREFIX (or its former name QUEUE_PREFIX) to letters, digits, - and _ only.',
  LOGIN_LIMIT: 'set LOGIN_LIMIT to sign-in attempts per name per 15 minutes, 1 to 10000.',
  TRUST_PROXY: 'set TRUST_PROXY to the number of proxies in front of the server, 0 to 10.',
  QUOTA_LIVE_ROOMS: 'set QUOTA_LIVE_ROOMS to a whole number of rooms, 1 or more.',
  QUOTA_ROOMS_PER_MINUTE: 'set QUOTA_ROOMS_PER_MINUTE to a whole number of rooms a minute, 1 or more.',
  QUOTA_LIVE_BOT_GAMES: 'set QUOTA_LIVE_BOT_GAMES to a whole number of games, 1 or more.',
  QUOTA_BOT_SECONDS_PER_MINUTE: 'set QUOTA_BOT_SECONDS_PER_MINUTE to a whole number of seconds, 1 or more.',
  QUOTA_CONNECTIONS: 'set QUOTA_CONNECTIONS to a whole number of connections per address, 1 or more.',
  WAITING_ROOM_IDLE_MS: 'set WAITING_ROOM_IDLE_MS to milliseconds from 1000 (a waiting room idle that long is closed).',
  FINISHED_GAMES_KEEP_DAYS: 'set FINISHED_GAMES_KEEP_DAYS to a whole number of days, 1 or more.',
  FINISHED_GAMES_MAX: 'set FINISHED_GAMES_MAX to a whole number of games, 0 or more.',
  RETENTION_EVERY_MS: 'set RETENTION_EVERY_MS to milliseconds from 200.',
  TOURNAMENT_TICK_MS: 'set TOURNAMENT_TICK_MS to milliseconds from 50 to 60000.',
  REQUIRE_PERSISTENCE: 'set REQUIRE_PERSISTENCE to 1 (refuse a Redis without AOF or RDB) or 0.',
};

/** `loadConfig` for an entry point: a bad configuration prints its sentence and exits with 2. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
}
