import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createAdapter } from '@socket.io/redis-adapter';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import cors from 'cors';
import express from 'express';
import { Redis } from 'ioredis';
import { Server } from 'socket.io';
import { BOT_CATALOG, catalogEntry } from '../bots/jobs/contract.js';
import { Accounts } from './accounts/accounts.js';
import { AdminSessions } from './accounts/admin-sessions.js';
import { playerRoutes } from './http/player-routes.js';
import { Ladder } from './pairing/ladder.js';
import { Matchmaker } from './pairing/matchmaker.js';
import { MemoryPlatform } from './store/platform-memory.js';
import { RedisPlatform } from './store/platform-redis.js';
import type { PlatformStore } from './store/platform.js';
import { BotThreadPool } from '../bots/jobs/thread-pool.js';
import { ConfigError, type Config } from './config.js';
import { botJobCountsKey } from './runtime/bot-worker.js';
import { AnalysisService } from './games/analysis.js';
import type { AnalysisHandlers, AnalysisJobs, BotTurns, Timers } from './games/ports.js';
import { GameService } from './games/service.js';
import { adminOnly, apiRoutes } from './http/routes.js';
import type { Logger } from './log.js';
import { Metrics } from './metrics.js';
import { BullmqAnalysisJobs } from './runtime/bullmq-analysis.js';
import { BullmqBotTurns } from './runtime/bullmq-bot-turns.js';
import { BullmqTimers } from './runtime/bullmq-timers.js';
import { LateHandlers } from './runtime/handlers.js';
import { LocalAnalysisJobs } from './runtime/local-analysis.js';
import { LocalBotTurns } from './runtime/local-bot-turns.js';
import { LocalTimers } from './runtime/local-timers.js';
import { Retention } from './runtime/retention.js';
import { Sweeper } from './runtime/sweeper.js';
import { Quotas } from './quotas.js';
import { clientAddress } from './socket/address.js';
import { attachAdmin } from './socket/admin.js';
import { AdminFeed } from './admin/feed.js';
import { LiveTable } from './admin/live-table.js';
import { PROTOCOL_VERSION } from '../shared/protocol/index.js';
import { attachAgents, authError } from './socket/agents.js';
import { agentRoom, analysisRoom, seatRoom, seekRoom, SocketBroadcaster } from './socket/broadcaster.js';
import { RedisMoveRelay } from './socket/move-relay.js';
import { adminNamespace, agentNamespace, playerNamespace, type BoardroomServer, type PlayerSocket } from './socket/namespaces.js';
import { attachPlayers } from './socket/players.js';
import { announceLostGames } from './socket/lost-games.js';
import { MemoryStore } from './store/memory-store.js';
import { readPersistence } from './store/persistence.js';
import { RedisStore } from './store/redis-store.js';
import { isStoreUnavailable, type GameStore, type StoredGame } from './store/store.js';
import { STORE_UNAVAILABLE } from './socket/guard.js';

export interface Boardroom {
  readonly url: string;
  readonly port: number;
  readonly http: HttpServer;
  readonly io: BoardroomServer;
  readonly service: GameService;
  readonly mode: 'redis' | 'embedded';
  close(): Promise<void>;
}

const MAX_PAYLOAD_BYTES = 16 * 1024;
// From dist/server/app.js or from server/app.ts (tests, tsx): the project root either way.
const CLIENT_DIST = fileURLToPath(new URL(import.meta.url.includes('/dist/server/') ? '../../client-demo/dist' : '../client-demo/dist', import.meta.url));

/** Builds and starts the whole server from its configuration. */
export async function startBoardroom(config: Config, log: Logger): Promise<Boardroom> {
  const started = Date.now();
  /** This process among the others sharing the store: seats its connections hold carry it. */
  const instance = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const metrics = new Metrics();
  const handlers = new LateHandlers();
  const onError = (error: unknown): void => log.error({ err: error }, 'background task failed');
  const closers: (() => Promise<unknown>)[] = [];

  let store: GameStore;
  let platform: PlatformStore;
  let botTurns: BotTurns;
  let analysisJobs: AnalysisJobs;
  /** The analysis service, wired in once it exists (the job adapters are made first). */
  let analysisTarget: AnalysisHandlers | undefined;
  const analysisHandlers: AnalysisHandlers = {
    onAnalysisProgress: async (gameId, progress) => analysisTarget?.onAnalysisProgress(gameId, progress),
    onAnalysisDone: async (result) => analysisTarget?.onAnalysisDone(result),
    onAnalysisFailed: async (gameId, message) => analysisTarget?.onAnalysisFailed(gameId, message),
  };
  let timers: Timers;
  let queueStats: () => Promise<Record<string, number>>;
  let adapter: ReturnType<typeof createAdapter> | undefined;
  let relay: RedisMoveRelay | undefined;
  /** The queue's recent waits, as the admin console's queue line shows them. */
  const recentWaits = (): Record<string, number> => {
    const p50 = metrics.recentWaits.quantile(0.5);
    const p95 = metrics.recentWaits.quantile(0.95);
    return p50 === null || p95 === null ? {} : { 'wait-p50-ms': Math.round(p50), 'wait-p95-ms': Math.round(p95) };
  };
  let dashboardQueues: BullmqBotTurns['bullQueue'][] = [];
  if (config.REDIS_URL) {
    const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: null });
    // The store and the adapter's publisher send a few commands per move in one tick: one write
    // for them all. BullMQ keeps its own connection, whose blocking commands must not be batched.
    // Without an offline queue or retries, a request made while Redis is out of reach, or in
    // flight when it went, fails at once (answered server/unavailable) instead of waiting for a
    // reconnection that may not come.
    const storeRedis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 0, enableAutoPipelining: true, enableOfflineQueue: false });
    const pub = storeRedis.duplicate();
    const sub = redis.duplicate();
    // The Socket.IO adapter publishes without waiting for the reply. A player who leaves just as
    // the server closes sets off publishes on a connection already quitting: their refusals are
    // logged here, not left to become unhandled rejections.
    const publish = pub.publish.bind(pub);
    pub.publish = ((channel: string | Buffer, message: string | Buffer) => {
      const sent = publish(channel, message);
      sent.catch((error: unknown) => log.debug({ err: error, channel }, 'publish refused'));
      return sent;
    }) as typeof pub.publish;
    const clients = [redis, storeRedis, pub, sub];
    for (const client of clients) client.on('error', (error) => log.warn({ err: error }, 'redis connection error'));
    closers.push(async () => Promise.all(clients.map((client) => client.quit())));
    await untilReady([redis, storeRedis, pub, sub], config.REDIS_URL, log);
    const persistence = await readPersistence(redis);
    if (persistence.keeps === false) {
      const line = `This Redis keeps nothing across a restart (${persistence.detail}): if it restarts, every game is lost. Turn on AOF (appendonly yes) or RDB snapshots (save …).`;
      if (config.REQUIRE_PERSISTENCE === '1') {
        await Promise.all(clients.map((client) => client.quit().catch(() => undefined)));
        throw new ConfigError(`Boardroom will not start: ${line} (REQUIRE_PERSISTENCE=1)`);
      }
      log.warn({ redis: config.REDIS_URL?.replace(/\/\/[^@]*@/, '//…@') }, `${line} Set REQUIRE_PERSISTENCE=1 to refuse such a Redis.`);
    } else if (persistence.keeps === 'unknown') log.info({ detail: persistence.detail }, 'could not read the Redis persistence settings');
    store = new RedisStore(storeRedis, `${config.QUEUE_PREFIX}:`);
    platform = new RedisPlatform(storeRedis, `${config.QUEUE_PREFIX}:`);
    adapter = createAdapter(pub, sub, { key: `${config.QUEUE_PREFIX}:socket.io` });
    relay = new RedisMoveRelay(pub, sub, `${config.QUEUE_PREFIX}:moves`, instance);
    const bullTurns = new BullmqBotTurns(redis, handlers, onError, config.QUEUE_PREFIX, (ms, result) => metrics.botAnswered(result, ms));
    const bullTimers = new BullmqTimers(redis, handlers, onError, config.QUEUE_PREFIX);
    const bullAnalyses = new BullmqAnalysisJobs(redis, analysisHandlers, onError, config.QUEUE_PREFIX);
    await bullTurns.ready();
    await bullAnalyses.ready();
    botTurns = bullTurns;
    analysisJobs = bullAnalyses;
    timers = bullTimers;
    dashboardQueues = [bullTurns.bullQueue, bullTimers.bullQueue];
    queueStats = async () => {
      const [jobs, befell] = await Promise.all([
        bullTurns.bullQueue.getJobCounts('waiting', 'active', 'delayed', 'completed', 'failed'),
        redis.hgetall(botJobCountsKey(config.QUEUE_PREFIX)),
      ]);
      return { ...jobs, stalled: Number(befell.stalled ?? 0), retried: Number(befell.retried ?? 0), ...recentWaits() };
    };
  } else {
    store = new MemoryStore();
    platform = new MemoryPlatform();
    const pool = new BotThreadPool(config.BOT_THREADS);
    const local = new LocalBotTurns(pool, handlers, onError, (ms, result) => metrics.botAnswered(result, ms));
    botTurns = local;
    analysisJobs = new LocalAnalysisJobs(pool, analysisHandlers, onError);
    timers = new LocalTimers(handlers, onError);
    queueStats = async () => ({ waiting: local.depth, ...recentWaits() });
  }

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  const http = createServer(app);
  const origins = config.CORS_ORIGIN === '*' ? true : config.CORS_ORIGIN ? config.CORS_ORIGIN.split(',').map((o) => o.trim()) : false;
  // CORS does not cover WebSockets: a browser page from another site is refused here unless
  // CORS_ORIGIN allows it. Programs (agents, the load test) send no Origin and are let in.
  const allowRequest = (req: { headers: Record<string, string | string[] | undefined> }, callback: (err: string | null, ok: boolean) => void): void => {
    const origin = req.headers.origin;
    if (typeof origin !== 'string') return callback(null, true);
    const sameSite = URL.canParse(origin) && new URL(origin).host === req.headers.host;
    callback(null, sameSite || origins === true || (Array.isArray(origins) && origins.includes(origin)));
  };
  const io: BoardroomServer = new Server(http, { maxHttpBufferSize: MAX_PAYLOAD_BYTES, cors: { origin: origins }, allowRequest, ...(adapter ? { adapter } : {}) });
  const broadcaster = new SocketBroadcaster(io, relay);
  await relay?.onMove((event) => broadcaster.movedHere(event));
  const quotas = new Quotas(platform, store, {
    liveRooms: config.QUOTA_LIVE_ROOMS,
    roomsPerMinute: config.QUOTA_ROOMS_PER_MINUTE,
    liveBotGames: config.QUOTA_LIVE_BOT_GAMES,
    botSecondsPerMinute: config.QUOTA_BOT_SECONDS_PER_MINUTE,
    connections: config.QUOTA_CONNECTIONS,
  });
  const service = new GameService({
    quotas,
    store,
    broadcaster,
    botTurns,
    timers,
    botExists: (game, name) => catalogEntry(game, name) !== undefined,
    agentExists: async (name) => (await store.agentNamed(name)) !== undefined,
    instance,
    botBudget: (game, name) => catalogEntry(game, name)?.budgetMs ?? 1000,
    graceMs: config.RECONNECT_GRACE_MS,
    onMoveApplied: (game) => metrics.moves.inc({ game: game.game, by: 'any' }),
  });
  handlers.target = service;
  // Each process tells its own connections: every one hears a BullMQ job's events.
  const analysis = new AnalysisService({ store, jobs: analysisJobs, plyBudgetMs: config.ANALYSIS_PLY_MS, mayThink: (owner, ms) => quotas.mayThink(owner, ms), notify: (status) => io.local.to(analysisRoom(status.gameId)).emit('analysis', status) });
  analysisTarget = analysis;
  const botExists = (game: StoredGame['game'], name: string): boolean => catalogEntry(game, name) !== undefined;
  const accounts = new Accounts(platform, { perName: config.LOGIN_LIMIT, perAddress: config.LOGIN_LIMIT * 5 }, async (name) => {
    const lower = name.toLowerCase();
    return Object.values(BOT_CATALOG).some((bots) => bots.some((b) => b.name.toLowerCase() === lower)) || (await store.agentNamed(name)) !== undefined;
  });
  const matchmaker = new Matchmaker({
    platform,
    store,
    service,
    instance,
    bots: (game) => BOT_CATALOG[game].map((b) => b.name),
    notify: (paired) => io.to(seekRoom(paired.seekId)).emit('seek:paired', paired),
  });
  // The ladder's share of the bot workers: half of this process's threads, at least one game.
  const ladder = new Ladder({ platform, store, service, instance, botExists, maxConcurrent: Math.max(1, Math.floor(config.BOT_THREADS / 2)), log });

  let closing = false;
  /** The server processes whose lease runs, this one always among them. */
  const liveInstances = async (): Promise<string[]> => {
    const live = [...(await store.leases())].filter(([id, until]) => id === instance || until > Date.now()).map(([id]) => id);
    return live.includes(instance) ? live : [...live, instance];
  };
  // A client that names a protocol version must name this one: moves reach it as deltas.
  const players = playerNamespace(io);
  const agents = agentNamespace(io);
  const admins = adminNamespace(io);
  for (const ns of [players, agents, admins] as const) {
    ns.use((socket: { handshake: { auth: unknown } }, next: (err?: Error) => void) => {
      const protocol = (socket.handshake.auth as { protocol?: unknown } | undefined)?.protocol;
      if (protocol === undefined || protocol === PROTOCOL_VERSION) return next();
      next(authError('protocol/unsupported', `This server speaks protocol ${PROTOCOL_VERSION} (PROTOCOL.md), not ${String(protocol).slice(0, 20)}.`));
    });
  }
  type Connecting = Pick<PlayerSocket, 'handshake' | 'data'> & { once(event: 'disconnect', listener: () => void): unknown };
  for (const ns of [players, agents] as const) {
    ns.use((socket: Connecting, next: (err?: Error) => void) => {
      socket.data.instance = instance;
      // Connections per address, counted per process and summed over the live ones.
      const address = clientAddress(socket, config.TRUST_PROXY);
      void (async () => {
        const allowed = await quotas.mayConnect(address, await liveInstances());
        if (!allowed.ok) return next(authError(allowed.error.code, allowed.error.message));
        await platform.countConnection(instance, address, 1);
        socket.once('disconnect', () => void platform.countConnection(instance, address, -1).catch(onError));
        next();
      })().catch(() => next()); // the store is away: the connection is let in, and its requests say so
    });
  }
  attachPlayers(players, { service, analysis, accounts, matchmaker, trustProxy: config.TRUST_PROXY }, config.RATE_LIMIT, log, metrics, () => closing);
  attachAgents(agents, { service, ladder }, store, config.RATE_LIMIT, log, metrics, () => closing);
  const adminSessions = new AdminSessions(platform);
  const liveTable = new LiveTable({
    store,
    queue: queueStats,
    connections: async () => platform.allConnections(await liveInstances()),
    thinking: (gameId) => broadcaster.latestThinking(gameId),
  });
  const adminFeed = new AdminFeed(liveTable, onError);
  closers.push(async () => adminFeed.close());
  attachAdmin(admins, { service, broadcaster, feed: adminFeed, adminToken: config.ADMIN_TOKEN, sessions: adminSessions, queueStats }, log, metrics);

  app.use(cors({ origin: origins }));
  app.use(express.json({ limit: MAX_PAYLOAD_BYTES }));
  const mode = config.REDIS_URL ? 'redis' : 'embedded';
  app.use(playerRoutes({ accounts, platform, store }));
  app.use(apiRoutes({ service, analysis, liveTable, store, platform, ladder, adminSessions, metrics, broadcaster, adminToken: config.ADMIN_TOKEN, mode, queueStats, started }));
  if (dashboardQueues.length > 0) {
    const board = new ExpressAdapter();
    board.setBasePath('/admin/queues');
    createBullBoard({ queues: dashboardQueues.map((q) => new BullMQAdapter(q)), serverAdapter: board });
    app.use('/admin/queues', adminOnly(config.ADMIN_TOKEN, adminSessions), board.getRouter());
  }
  if (existsSync(CLIENT_DIST)) {
    app.use(express.static(CLIENT_DIST));
    app.get(['/admin', '/account', '/ratings', '/game/{*rest}', '/replay/{*rest}', '/ratings/{*rest}', '/players/{*rest}'], (_req, res) => res.sendFile(`${CLIENT_DIST}/index.html`));
  }
  app.use((err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    if (isStoreUnavailable(err)) return void res.status(503).json({ ok: false, error: STORE_UNAVAILABLE });
    const status = (err as { status?: number }).status ?? 500;
    if (status >= 500) log.error({ err }, 'http request failed');
    res.status(status).json({ ok: false, error: { code: status === 413 ? 'payload/too_large' : 'payload/invalid', message: status === 413 ? 'The request body is too large.' : 'The request could not be read.' } });
  });

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(config.PORT, config.HOST, () => resolve());
  });
  const port = (http.address() as AddressInfo).port;
  const recovered = await service.recover();
  const sweeper = new Sweeper({
    store,
    service,
    instance,
    log,
    onLiveCount: (count) => metrics.liveGames.set(count),
    onStoreEmptied: async () => {
      const lost = await announceLostGames(io, store);
      log.error({ lost }, 'games announced lost to their players');
    },
    holders: async (game, color) => {
      const seat = game.seats[color];
      const held = seat.kind === 'agent' && seat.name ? agents.in(agentRoom(seat.name)) : players.in(seatRoom(game.id, color));
      return (await held.fetchSockets()).map((s) => s.data.instance ?? '');
    },
  });
  await sweeper.start();
  const retention = new Retention(
    { store, platform, service, instance, log },
    { waitingIdleMs: config.WAITING_ROOM_IDLE_MS, finishedKeepMs: config.FINISHED_GAMES_KEEP_DAYS * 86_400_000, finishedMax: config.FINISHED_GAMES_MAX, everyMs: config.RETENTION_EVERY_MS },
  );
  retention.start();
  // Quick pairing and the ladder: every process ticks, one at a time does the work (a store lock).
  const pairingTimer = setInterval(() => {
    void matchmaker.tick().catch(onError);
    void ladder.tick().catch(onError);
  }, 1000);
  metrics.readBeforeScrape(async () => {
    const q = await queueStats();
    metrics.queueDepth.set((q.waiting ?? 0) + (q.active ?? 0));
    for (const outcome of ['stalled', 'retried', 'failed'] as const) if (q[outcome] !== undefined) metrics.botJobs.set({ outcome }, q[outcome]);
  });
  log.info({ port, mode, recovered, instance }, 'boardroom listening');

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    http,
    io,
    service,
    mode,
    async close() {
      closing = true;
      clearInterval(pairingTimer);
      await retention.stop();
      await sweeper.stop();
      await new Promise<void>((resolve) => io.close(() => resolve()));
      await analysisJobs.close();
      await botTurns.close();
      await timers.close();
      await store.close();
      for (const close of closers) await close().catch(() => undefined);
    },
  };
}

/** Waits until every connection is ready, saying once in a while that Redis is out of reach. */
async function untilReady(clients: Redis[], url: string, log: Logger): Promise<void> {
  const shown = url.replace(/\/\/[^@]*@/, '//…@');
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
