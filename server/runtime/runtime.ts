import { createAdapter, createShardedAdapter } from '@socket.io/redis-adapter';
import type { Queue } from 'bullmq';
import { BotThreadPool } from '../../bots/jobs/thread-pool.js';
import { ConfigError, type Config } from '../config.js';
import { oneAtATime, resendFollowedGames } from '../socket/missed-events.js';
import { AgentSessions } from '../games/agent-sessions.js';
import { AnalysisService } from '../games/analysis.js';
import type { AnalysisHandlers, AnalysisJobs, Bots, BotTurns, Timers } from '../games/ports.js';
import { Lobby } from '../games/lobby.js';
import { GameService } from '../games/service.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics.js';
import { connect, isCluster, keepShardedSubscriptions, masters, redisTarget, reportUnheardRefusals, unreplicatedRanges, shownTarget, type RedisClient, type RedisTarget } from '../redis/connections.js';
import { Quotas } from '../quotas.js';
import { analysisRoom, SocketBroadcaster } from '../socket/broadcaster.js';
import { RedisMoveRelay } from '../socket/move-relay.js';
import type { BoardroomServer } from '../socket/namespaces.js';
import { MemoryStore } from '../store/memory-store.js';
import { readPersistence } from '../store/persistence.js';
import { MemoryPlatform } from '../store/platform-memory.js';
import { RedisPlatform } from '../store/platform-redis.js';
import type { PlatformStore } from '../store/platform.js';
import { RedisStore } from '../store/redis-store.js';
import type { AgentStore } from '../store/agents.js';
import type { LeaseStore } from '../store/leases.js';
import type { GameStore } from '../store/store.js';
import { MemoryTournaments } from '../tournaments/store/memory-tournaments.js';
import { RedisTournaments } from '../tournaments/store/redis-tournaments.js';
import type { TournamentStore } from '../tournaments/store/tournament-store.js';
import { botJobCountsKey } from './bot-worker.js';
import { BullmqAnalysisJobs } from './bullmq-analysis.js';
import { BullmqBotTurns } from './bullmq-bot-turns.js';
import { botQueuePrefixes } from './bot-queues.js';
import { catalogBots } from './catalog-bots.js';
import type { Deliverer, RuntimeHandlers } from './handlers.js';
import { LocalAnalysisJobs } from './local-analysis.js';
import { LocalBotTurns } from './local-bot-turns.js';
import { LocalTimers } from './local-timers.js';
import { dropRetiredTimerQueue, RedisTimers, RETIRED_TIMER_QUEUE } from './redis-timers.js';

/** The Socket.IO adapter that shares rooms between processes: plain or sharded pub/sub. */
export type RoomsAdapter = ReturnType<typeof createAdapter> | ReturnType<typeof createShardedAdapter>;

export interface RuntimeOptions {
  readonly config: Config;
  readonly log: Logger;
  readonly metrics: Metrics;
  /** This process among the others sharing the store: seats its connections hold carry it. */
  readonly instance: string;
  readonly onError: (error: unknown) => void;
  /** Makes the Socket.IO server, given the Redis adapter that shares its rooms (none embedded). */
  readonly io: (adapter: RoomsAdapter | undefined) => BoardroomServer;
}

/** The game's machinery, built in order and running; the HTTP routes and sockets stand on it. */
export interface Runtime {
  readonly mode: 'redis' | 'embedded';
  readonly store: GameStore;
  readonly agents: AgentStore;
  readonly leases: LeaseStore;
  readonly platform: PlatformStore;
  readonly tournaments: TournamentStore;
  readonly io: BoardroomServer;
  readonly broadcaster: SocketBroadcaster;
  readonly quotas: Quotas;
  /** The bots a room can seat, by name: what every part of the server asks. */
  readonly bots: Bots;
  readonly service: GameService;
  /** What anyone may read of the rooms, changing nothing. */
  readonly lobby: Lobby;
  /** Agents' rooms, challenges and connections, beside the service. */
  readonly agentSessions: AgentSessions;
  readonly analysis: AnalysisService;
  /** The bot queue's counts and recent waits, as the admin console and /metrics show them. */
  queueStats(): Promise<Record<string, number>>;
  /** The BullMQ queues for the dashboard at /admin/queues (none embedded). */
  readonly dashboardQueues: readonly Queue[];
  /** Stops the job adapters, the timers and the store, and closes the Redis connections; close `io` first. */
  close(): Promise<void>;
}

/** Where the jobs go and where the games are kept: Redis and BullMQ, or this process alone. */
interface Backend {
  /** The games, the agents and the leases: one store, seen through three ports. */
  readonly store: GameStore & AgentStore & LeaseStore;
  readonly platform: PlatformStore;
  readonly tournaments: TournamentStore;
  readonly botTurns: BotTurns & Deliverer<RuntimeHandlers>;
  readonly timers: Timers & Deliverer<RuntimeHandlers>;
  readonly analysisJobs: AnalysisJobs & Deliverer<AnalysisHandlers>;
  readonly adapter?: RoomsAdapter;
  readonly relay?: RedisMoveRelay;
  readonly queueStats: () => Promise<Record<string, number>>;
  readonly dashboardQueues: readonly Queue[];
  readonly closers: readonly (() => Promise<unknown>)[];
}

/**
 * Builds the server's machinery in order: the store, the bot queue, the timers and the analysis
 * jobs (taking requests, delivering nothing yet), the Socket.IO server and its broadcaster, the
 * quotas, the game service and the analysis service; then starts the adapters' deliveries into
 * the services. No job is taken and no timer fires before the service that answers it exists.
 */
export async function createRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { config, metrics, instance } = options;
  const target = redisTarget(config);
  const backend = target ? await redisBackend(target, options) : embeddedBackend(options);
  const { store, platform, botTurns, timers, analysisJobs } = backend;
  const io = options.io(backend.adapter);
  const broadcaster = new SocketBroadcaster(io, backend.relay);
  await backend.relay?.onMove((event) => broadcaster.movedHere(event));
  const resend = oneAtATime(
    async () => options.log.warn({ games: await resendFollowedGames(io, store, Date.now) }, 'subscriptions renewed: the games followed here were read again and sent'),
    (error) => options.log.warn({ err: error }, 'resending the followed games failed'),
  );
  backend.relay?.onResubscribed(resend);
  const quotas = new Quotas(platform, store, {
    liveRooms: config.QUOTA_LIVE_ROOMS,
    roomsPerMinute: config.QUOTA_ROOMS_PER_MINUTE,
    liveBotGames: config.QUOTA_LIVE_BOT_GAMES,
    botSecondsPerMinute: config.QUOTA_BOT_SECONDS_PER_MINUTE,
    connections: config.QUOTA_CONNECTIONS,
  });
  const bots = catalogBots();
  const service = new GameService({
    quotas,
    store,
    broadcaster,
    botTurns,
    timers,
    bots,
    agentExists: async (name) => (await store.agentNamed(name)) !== undefined,
    instance,
    graceMs: config.RECONNECT_GRACE_MS,
    firstMoveGraceMs: config.FIRST_MOVE_GRACE_MS,
    onMoveApplied: (game) => metrics.moves.inc({ game: game.game, by: 'any' }),
  });
  const lobby = new Lobby(store);
  const agentSessions = new AgentSessions(service, store, store, broadcaster, instance);
  // Each process tells its own connections: every one hears a BullMQ job's events.
  const analysis = new AnalysisService({ store, jobs: analysisJobs, plyBudgetMs: config.ANALYSIS_PLY_MS, mayThink: (owner, ms) => quotas.mayThink(owner, ms), notify: (status) => io.local.to(analysisRoom(status.gameId)).emit('analysis', status) });
  await botTurns.start(service);
  await timers.start(service);
  await analysisJobs.start(analysis);

  return {
    mode: target ? 'redis' : 'embedded',
    store,
    agents: store,
    leases: store,
    platform,
    tournaments: backend.tournaments,
    io,
    broadcaster,
    quotas,
    bots,
    service,
    lobby,
    agentSessions,
    analysis,
    queueStats: backend.queueStats,
    dashboardQueues: backend.dashboardQueues,
    async close() {
      await analysisJobs.close();
      await botTurns.close();
      await timers.close();
      await store.close();
      for (const close of backend.closers) await close().catch(() => undefined);
    },
  };
}

/** The queue's recent waits, as the admin console's queue line shows them. */
function recentWaits(metrics: Metrics): Record<string, number> {
  const p50 = metrics.recentWaits.quantile(0.5);
  const p95 = metrics.recentWaits.quantile(0.95);
  return p50 === null || p95 === null ? {} : { 'wait-p50-ms': Math.round(p50), 'wait-p95-ms': Math.round(p95) };
}

/** The embedded mode: games in memory, bot searches on this process's threads, local timers. */
function embeddedBackend({ config, metrics, onError }: RuntimeOptions): Backend {
  const pool = new BotThreadPool(config.BOT_THREADS);
  const botTurns = new LocalBotTurns(pool, onError, (result) => metrics.botAnswered(result));
  return {
    store: new MemoryStore(),
    platform: new MemoryPlatform(),
    tournaments: new MemoryTournaments(),
    botTurns,
    timers: new LocalTimers(onError),
    analysisJobs: new LocalAnalysisJobs(pool, onError),
    queueStats: async () => ({ waiting: botTurns.depth, ...recentWaits(metrics) }),
    dashboardQueues: [],
    closers: [],
  };
}

/** Games, ratings, accounts and timers in Redis under the key prefix, bot turns in BullMQ, rooms shared by the adapter. */
async function redisBackend(target: RedisTarget, { config, log, metrics, instance, onError }: RuntimeOptions): Promise<Backend> {
  const redis = connect(target, 'jobs');
  const storeRedis = connect(target, 'store');
  const pub = connect(target, 'publisher');
  const sub = connect(target, 'subscriber');
  // A player who leaves just as the server closes, or as a master fails over, sets off the
  // adapter's publishes and unsubscribes, which nothing waits for: their refusals are logged.
  const refused = (error: unknown, command: string): void => log.debug({ err: error, command }, 'a pub/sub command was refused');
  reportUnheardRefusals(pub, ['publish', 'spublish'], refused);
  keepShardedSubscriptions(sub, refused);
  const clients = [redis, storeRedis, pub, sub];
  for (const client of clients) client.on('error', (error) => log.warn({ err: error }, 'redis connection error'));
  await untilReady(clients, shownTarget(target), log);
  const persistence = await readPersistence(masters(redis)[0]!);
  if (persistence.keeps === false) {
    const line = `This Redis keeps nothing across a restart (${persistence.detail}): if it restarts, every game is lost. Turn on AOF (appendonly yes) or RDB snapshots (save …).`;
    if (config.REQUIRE_PERSISTENCE === '1') {
      await Promise.all(clients.map((client) => client.quit().catch(() => undefined)));
      throw new ConfigError(`Boardroom will not start: ${line} (REQUIRE_PERSISTENCE=1)`);
    }
    log.warn({ redis: shownTarget(target) }, `${line} Set REQUIRE_PERSISTENCE=1 to refuse such a Redis.`);
  } else if (persistence.keeps === 'unknown') log.info({ detail: persistence.detail }, 'could not read the Redis persistence settings');
  const prefix = config.REDIS_PREFIX;
  const cluster = target.kind === 'cluster';
  const queuePrefixes = botQueuePrefixes(prefix, cluster, config.BOT_QUEUES);
  const botTurns = new BullmqBotTurns(redis, onError, queuePrefixes, (result) => metrics.botAnswered(result));
  // On a cluster the timers are in as many parts as the bot queues, a game's beside its queue.
  const timers = new RedisTimers(redis, onError, prefix, Date.now, cluster ? queuePrefixes.length : 1);
  // A cluster never held an older server's timer queue, whose keys are in many slots.
  if (!cluster && (await dropRetiredTimerQueue(redis, prefix))) log.info({ queue: `${prefix}:${RETIRED_TIMER_QUEUE}` }, 'dropped the timer jobs of an older server; the live games\' timers are armed again in Redis');
  // Whether a write waits is decided per write from the slot map (a master shown without replica is
  // not waited on), never once here: a map read while a replica was still joining would otherwise
  // turn the wait off for the life of the process.
  const bare = isCluster(storeRedis) ? await unreplicatedRanges(storeRedis) : [];
  const waitForReplica = cluster && config.CLUSTER_WAIT_REPLICA === '1';
  if (bare.length > 0) log.warn({ slots: bare }, 'Some masters of this Redis Cluster have no replica: the moves of their games may be lost at a failover, and their games stop until the master is back. Give each master a replica.');
  if (cluster && !waitForReplica) log.warn('CLUSTER_WAIT_REPLICA=0: a move is acknowledged before a replica has it, so a failover may lose acknowledged moves.');
  // Writes no replica took (in time, or at all after a failover), told at most every 10 s, with their count.
  let short = { count: 0, toldAt: 0 };
  const onShort = (gameId: string): void => {
    short.count++;
    if (Date.now() - short.toldAt < 10_000) return;
    log.warn({ gameId, writes: short.count, waitMs: config.CLUSTER_WAIT_MS }, 'game writes no replica took in time (or whose master has none since a failover): acknowledged all the same');
    short = { count: 0, toldAt: Date.now() };
  };
  const store = new RedisStore(storeRedis, `${prefix}:`, waitForReplica ? { waitMs: config.CLUSTER_WAIT_MS, onShort } : undefined);
  // A process that died while its indexes' master failed over may have left games listed as they
  // were: once the cluster has dropped a node, the sweep checks the unfinished games' entries.
  if (isCluster(storeRedis)) storeRedis.on('-node', () => store.doubtListings());
  const migrated = await store.migrate();
  if (migrated > 0) log.info({ keys: migrated }, 'renamed the keys of an older server to the layout with hash tags');
  return {
    store,
    platform: new RedisPlatform(storeRedis, `${prefix}:`),
    tournaments: new RedisTournaments(storeRedis, `${prefix}:`),
    botTurns,
    timers,
    analysisJobs: new BullmqAnalysisJobs(redis, onError, queuePrefixes),
    // On a cluster, sharded pub/sub (Redis 7): a room's messages go by SPUBLISH to the master of its channel's slot, not to every node.
    adapter: cluster ? createShardedAdapter(pub, sub, { channelPrefix: `${prefix}:socket.io` }) : createAdapter(pub, sub, { key: `${prefix}:socket.io` }),
    relay: new RedisMoveRelay(pub, sub, `${prefix}:moves`, instance, cluster),
    queueStats: async () => {
      const [counts, befell] = await Promise.all([
        Promise.all(botTurns.bullQueues.map((queue) => queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'completed', 'failed'))),
        Promise.all(queuePrefixes.map((queuePrefix) => redis.hgetall(botJobCountsKey(queuePrefix)))),
      ]);
      const { prioritized, ...jobs } = summed(counts);
      const { stalled, retried } = summed(befell.map((outcomes) => ({ stalled: Number(outcomes.stalled ?? 0), retried: Number(outcomes.retried ?? 0) })));
      // A turn with an owner waits in BullMQ's prioritized set: the backlog is both.
      return { ...jobs, waiting: (jobs.waiting ?? 0) + (prioritized ?? 0), stalled: stalled ?? 0, retried: retried ?? 0, ...recentWaits(metrics) };
    },
    dashboardQueues: botTurns.bullQueues,
    closers: [async () => Promise.all(clients.map((client) => client.quit()))],
  };
}

/** The bot queues' counts added up, name by name. */
function summed(counts: readonly Record<string, number>[]): Record<string, number> {
  const total: Record<string, number> = {};
  for (const one of counts) for (const [name, count] of Object.entries(one)) total[name] = (total[name] ?? 0) + count;
  return total;
}

/** Waits until every connection is ready, saying once in a while that Redis is out of reach. */
async function untilReady(clients: RedisClient[], shown: string, log: Logger): Promise<void> {
  const ready = Promise.all(clients.map((c) => (c.status === 'ready' ? undefined : new Promise<void>((resolve) => c.once('ready', () => resolve())))));
  let waited = 0;
  const nag = setInterval(() => {
    waited += 5;
    log.error({ redis: shown, waitedSeconds: waited }, `Redis at ${shown} cannot be reached; waiting for it (the server starts as soon as it answers)`);
  }, 5000);
  try {
    await ready;
  } finally {
    clearInterval(nag);
  }
}
