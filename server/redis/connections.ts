import { Cluster, Redis, type ClusterOptions, type RedisOptions } from 'ioredis';
import slotOf from 'cluster-key-slot';
import type { Config } from '../config.js';

/** One Redis or a Redis Cluster: every command Boardroom sends works on both. */
export type RedisClient = Redis | Cluster;

/** Where Redis is: one server's URL, or a cluster's seed nodes. */
export type RedisTarget = { readonly kind: 'single'; readonly url: string } | { readonly kind: 'cluster'; readonly seeds: readonly { host: string; port: number }[] };

/** The configured Redis, or none for the embedded mode. */
export function redisTarget(config: Pick<Config, 'REDIS_URL' | 'REDIS_CLUSTER'>): RedisTarget | undefined {
  if (config.REDIS_CLUSTER) {
    const seeds = config.REDIS_CLUSTER.split(',').map((seed) => {
      const [host, port] = seed.trim().split(':');
      return { host: host!, port: Number(port) };
    });
    return { kind: 'cluster', seeds };
  }
  return config.REDIS_URL ? { kind: 'single', url: config.REDIS_URL } : undefined;
}

/** The target as a log line shows it: no password. */
export function shownTarget(target: RedisTarget): string {
  return target.kind === 'single' ? target.url.replace(/\/\/[^@]*@/, '//…@') : `cluster ${target.seeds.map((s) => `${s.host}:${s.port}`).join(',')}`;
}

/**
 * What each connection is for, and so its options:
 * - `store`: games and the platform. A move's few commands leave in one write (autopipelining);
 *   without an offline queue or retries, a request made while Redis is out of reach fails at once
 *   (answered server/unavailable) instead of waiting for a reconnection that may not come.
 * - `jobs`: BullMQ and the timers; patient (BullMQ requires `maxRetriesPerRequest: null`), and
 *   never pipelined, since BullMQ blocks on it.
 * - `publisher`, `subscriber`: the Socket.IO adapter and the move relay; a cluster's subscriber
 *   keeps one connection per master for sharded pub/sub.
 */
export type ConnectionUse = 'store' | 'jobs' | 'publisher' | 'subscriber';

const SINGLE: Record<ConnectionUse, RedisOptions> = {
  store: { maxRetriesPerRequest: 0, enableAutoPipelining: true, enableOfflineQueue: false },
  jobs: { maxRetriesPerRequest: null },
  publisher: { maxRetriesPerRequest: 0, enableAutoPipelining: true, enableOfflineQueue: false },
  subscriber: { maxRetriesPerRequest: null },
};

/**
 * A cluster's autopipelining groups commands by the slot of their first argument, which for a
 * script called with its count of keys first is that count, not a key: such scripts go alone.
 */
const SCRIPTS_WITH_KEY_COUNT = ['boardroomLobbyPage', 'boardroomIndexAdd', 'boardroomIndexDrop', 'boardroomApplyEnd', 'eval', 'evalsha'];

/**
 * In a cluster a failover is a short outage of a third of the slots: commands to them wait for
 * the new master (ClusterDown and TryAgain are retried) rather than failing at once, for at most
 * about `maxRedirections` × 100 ms. The store reads the slot map every `SLOTS_REFRESH_MS` too, as
 * whether a write waits for a replica follows the replicas it shows (one joined, one promoted).
 */
const SLOTS_REFRESH_MS = 2000;
const CLUSTER: Record<ConnectionUse, ClusterOptions> = {
  store: { slotsRefreshInterval: SLOTS_REFRESH_MS, enableAutoPipelining: true, autoPipeliningIgnoredCommands: [...SCRIPTS_WITH_KEY_COUNT], enableOfflineQueue: true, retryDelayOnClusterDown: 100, retryDelayOnTryAgain: 100, retryDelayOnFailover: 100, maxRedirections: 60, redisOptions: { maxRetriesPerRequest: 0 } },
  jobs: { enableOfflineQueue: true, retryDelayOnClusterDown: 100, retryDelayOnFailover: 100, maxRedirections: 60, redisOptions: { maxRetriesPerRequest: null } },
  publisher: { enableAutoPipelining: true, retryDelayOnClusterDown: 100, retryDelayOnFailover: 100, maxRedirections: 60, redisOptions: { maxRetriesPerRequest: 0 } },
  subscriber: { shardedSubscribers: true, retryDelayOnClusterDown: 100, redisOptions: { maxRetriesPerRequest: null } },
};

/** A new connection to the target for one use: the only place Boardroom makes a Redis client. */
export function connect(target: RedisTarget, use: ConnectionUse): RedisClient {
  return target.kind === 'single' ? new Redis(target.url, SINGLE[use]) : new Cluster([...target.seeds], CLUSTER[use]);
}

export function isCluster(client: RedisClient): client is Cluster {
  return client instanceof Cluster;
}

/** The servers holding the data: the masters of a cluster, or the one Redis. */
export function masters(client: RedisClient): Redis[] {
  return isCluster(client) ? client.nodes('master') : [client];
}

/** The connection to the server that owns a key now: in a cluster, the master of its slot as last seen. */
export function ownerOf(client: RedisClient, key: string): Redis {
  if (!isCluster(client)) return client;
  const address = client.slots[slotOf(key)]?.[0];
  const node = address === undefined ? undefined : client.nodes('master').find((n) => `${n.options.host}:${n.options.port}` === address);
  if (!node) throw new Error(`no master is known for the slot of ${key}`);
  return node;
}

/** The address of a key's master as last seen (`host:port`); undefined outside a cluster or before its slots are known. */
export function masterAddressOf(client: RedisClient, key: string): string | undefined {
  return isCluster(client) ? client.slots[slotOf(key)]?.[0] : undefined;
}

/** The replicas of a key's master as last seen (a cluster's slot map lists the master, then its replicas). */
export function replicasOf(client: RedisClient, key: string): number {
  return isCluster(client) ? Math.max(0, (client.slots[slotOf(key)]?.length ?? 1) - 1) : 0;
}

/** A connection to a replica of a key's master as last seen, for a read that may lag; none outside a cluster or without replicas. */
export function replicaOf(client: RedisClient, key: string): Redis | undefined {
  if (!isCluster(client)) return undefined;
  const replicas = client.slots[slotOf(key)]?.slice(1) ?? [];
  return client.nodes('slave').find((n) => replicas.includes(`${n.options.host}:${n.options.port}`));
}

/**
 * The Socket.IO adapters publish without waiting for the answer. A connection closing, or a master
 * failing over, rejects such a publish with no one to hear it (an unhandled rejection). Here
 * `commands` of `client` are heard and reported: the message is lost as a failed publish is. (On a
 * cluster the adapter subscribes the same way: `keepShardedSubscriptions`.)
 */
export function reportUnheardRefusals(client: RedisClient, commands: readonly ('publish' | 'spublish')[], report: (error: unknown, command: string) => void): void {
  for (const command of commands) {
    const send = client[command].bind(client) as (...args: unknown[]) => Promise<unknown>;
    (client as unknown as Record<string, unknown>)[command] = (...args: unknown[]) => {
      const sent = send(...args);
      sent.catch((error: unknown) => report(error, command));
      return sent;
    };
  }
}

/** How often a refused SSUBSCRIBE is sent again. */
const RESUBSCRIBE_MS = 500;

/**
 * ioredis refuses an SSUBSCRIBE while no subscriber serves the channel's slot (its master failing
 * over), and then forgets the channel: a room joined then would hear nothing more in this process.
 * Here a refused SSUBSCRIBE is reported and sent again every RESUBSCRIBE_MS while the channel is
 * still wanted (no SUNSUBSCRIBE of it since); nothing waits on it, as the adapter does not.
 */
export function keepShardedSubscriptions(client: RedisClient, report: (error: unknown, command: string) => void): void {
  const wanted = new Set<string>();
  const subscribe = client.ssubscribe.bind(client) as (...channels: string[]) => Promise<unknown>;
  const unsubscribe = client.sunsubscribe.bind(client) as (...channels: string[]) => Promise<unknown>;
  const send = (channels: string[]): Promise<unknown> => {
    const sent = subscribe(...channels);
    sent.catch((error: unknown) => {
      report(error, 'ssubscribe');
      const still = channels.filter((c) => wanted.has(c));
      if (still.length > 0) setTimeout(() => void send(still.filter((c) => wanted.has(c))), RESUBSCRIBE_MS).unref();
    });
    return sent;
  };
  const flat = (args: unknown[]): string[] => args.flat().filter((a): a is string => typeof a === 'string');
  (client as unknown as Record<string, unknown>).ssubscribe = (...args: unknown[]) => {
    const channels = flat(args);
    for (const c of channels) wanted.add(c);
    return send(channels);
  };
  (client as unknown as Record<string, unknown>).sunsubscribe = (...args: unknown[]) => {
    const channels = flat(args);
    for (const c of channels) wanted.delete(c);
    const sent = unsubscribe(...channels);
    sent.catch((error: unknown) => report(error, 'sunsubscribe'));
    return sent;
  };
}

/** Slot ranges of a cluster served by a master with no replica: a failover there would lose its writes, and its slots. */
export async function unreplicatedRanges(client: Cluster): Promise<string[]> {
  const ranges = await client.cluster('SLOTS');
  return ranges.filter((range) => range.length <= 3).map(([from, to, master]) => `${from}-${to} on ${master![0]}:${master![1]}`);
}

/**
 * An answer that comes within `ms`, as `{ value }`; `undefined` when it has not come by then (the
 * command goes on, and its answer is then nobody's). A refusal within `ms` rejects.
 */
export async function answeredWithin<T>(answer: Promise<T>, ms: number): Promise<{ value: T } | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, ms, undefined)));
  return Promise.race([answer.then((value) => ({ value })), late]).finally(() => clearTimeout(timer));
}
