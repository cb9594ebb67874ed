import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import cors from 'cors';
import express from 'express';
import { Server } from 'socket.io';
import { Accounts } from './accounts/accounts.js';
import { AdminSessions } from './accounts/admin-sessions.js';
import { playerRoutes } from './http/player-routes.js';
import { Ladder } from './pairing/ladder.js';
import { Matchmaker } from './pairing/matchmaker.js';
import type { Config } from './config.js';
import { GameService } from './games/service.js';
import { adminOnly, apiRoutes } from './http/routes.js';
import type { Logger } from './log.js';
import { Metrics } from './metrics.js';
import { createRuntime } from './runtime/runtime.js';
import { Retention } from './runtime/retention.js';
import { Sweeper } from './runtime/sweeper.js';
import { attachAdmin } from './socket/admin.js';
import { limitConnections } from './socket/connection-quota.js';
import { AdminFeed } from './admin/feed.js';
import { LiveTable } from './admin/live-table.js';
import { PROTOCOL_VERSION, type ClientToServerEvents, type ServerToClientEvents, type StoreEmptied } from '../shared/protocol/index.js';
import { attachAgents, authError } from './socket/agents.js';
import { agentRoom, gameRoom, seatRoom, seekRoom } from './socket/broadcaster.js';
import { adminNamespace, agentNamespace, playerNamespace, type BoardroomServer, type ConnectionData, type NoServerEvents } from './socket/namespaces.js';
import { attachPlayers } from './socket/players.js';
import { announceLostGames, storeEmptied } from './socket/lost-games.js';
import { announceSignOut, endAllSessions } from './socket/sessions.js';
import { isStoreUnavailable } from './store/store.js';
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
  const onError = (error: unknown): void => log.error({ err: error }, 'background task failed');
  const closers: (() => Promise<unknown>)[] = [];

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
  const runtime = await createRuntime({
    config,
    log,
    metrics,
    instance,
    onError,
    io: (adapter) => new Server<ClientToServerEvents, ServerToClientEvents, NoServerEvents, ConnectionData>(http, { maxHttpBufferSize: MAX_PAYLOAD_BYTES, cors: { origin: origins }, allowRequest, ...(adapter ? { adapter } : {}) }),
  });
  const { store, platform, io, broadcaster, quotas, bots, service, analysis, queueStats, dashboardQueues, mode } = runtime;
  const accounts = new Accounts(platform, { perName: config.LOGIN_LIMIT, perAddress: config.LOGIN_LIMIT * 5 }, async (name) => bots.named(name) !== undefined || (await store.agentNamed(name)) !== undefined);
  const matchmaker = new Matchmaker({
    platform,
    store,
    service,
    instance,
    bots,
    // A process that does not answer in time must not stop all pairing: its seekers count as there.
    reachable: (seekId) => io.in(seekRoom(seekId)).fetchSockets().then((sockets) => sockets.length > 0, () => true),
    notify: (paired) => {
      // The seeker's connection holds the seat from now: were it to go before taking the seat, the seat is away.
      io.in(seekRoom(paired.seekId)).socketsJoin([gameRoom(paired.gameId), seatRoom(paired.gameId, paired.seat.color)]);
      io.to(seekRoom(paired.seekId)).emit('seek:paired', paired);
    },
  });
  // The ladder's share of the bot workers: half of this process's threads, at least one game.
  const ladder = new Ladder({ platform, store, service, instance, bots, maxConcurrent: Math.max(1, Math.floor(config.BOT_THREADS / 2)), log });

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
  for (const ns of [players, agents] as const) {
    ns.use((socket: { data: ConnectionData }, next: () => void) => {
      socket.data.instance = instance;
      next();
    });
    limitConnections(ns, { quotas, platform, instance, liveInstances, trustProxy: config.TRUST_PROXY, onError });
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
  /** The latest time this process found the store empty, told to admins who connect later too. */
  let emptied: StoreEmptied | undefined;
  attachAdmin(admins, { service, broadcaster, feed: adminFeed, adminToken: config.ADMIN_TOKEN, sessions: adminSessions, queueStats, storeEmptied: () => emptied }, log, metrics);

  app.use(cors({ origin: origins }));
  app.use(express.json({ limit: MAX_PAYLOAD_BYTES }));
  app.use(playerRoutes({ accounts, platform, store, bots, signedOut: (key) => announceSignOut(players, key) }));
  app.use(apiRoutes({ service, bots, analysis, liveTable, store, platform, ladder, adminSessions, metrics, broadcaster, adminToken: config.ADMIN_TOKEN, mode, queueStats, started }));
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
  // The live games are re-armed while the process already serves: a request that touches one first is harmless.
  const recovery = new AbortController();
  const recoveryStarted = Date.now();
  const recovered = service
    .recover({ signal: recovery.signal, onFailed: (gameId, error) => log.warn({ gameId, err: error }, 'could not re-arm a live game') })
    .then(
      (games) => log.info({ games, ms: Date.now() - recoveryStarted, stopped: recovery.signal.aborted }, 'live games re-armed'),
      (error: unknown) => log.error({ err: error }, 're-arming the live games failed'),
    );
  const sweeper = new Sweeper({
    store,
    service,
    instance,
    log,
    onLiveCount: (count) => metrics.liveGames.set(count),
    onStoreEmptied: async () => {
      emptied = storeEmptied(Date.now());
      admins.local.emit('store:emptied', emptied);
      const signedOut = endAllSessions(players);
      const lost = await announceLostGames(io, store);
      log.error({ lost, signedOut }, 'games announced lost to their players, signed-in connections told their sessions ended');
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
  log.info({ port, mode, instance }, 'boardroom listening');

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
      recovery.abort();
      await recovered;
      await retention.stop();
      await sweeper.stop();
      await new Promise<void>((resolve) => io.close(() => resolve()));
      await runtime.close();
      for (const close of closers) await close().catch(() => undefined);
    },
  };
}
