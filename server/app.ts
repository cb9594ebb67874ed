import { randomBytes } from 'node:crypto';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '../shared/protocol/index.js';
import type { Config } from './config.js';
import type { GameService } from './games/service.js';
import { apiRoutes } from './http/routes.js';
import { playerRoutes } from './http/player-routes.js';
import type { Logger } from './log.js';
import { Metrics } from './metrics.js';
import { createRuntime } from './runtime/runtime.js';
import type { BoardroomServer, ConnectionData, NoServerEvents } from './socket/namespaces.js';
import { announceSignOut } from './socket/sessions.js';
import { startBackground } from './start/background.js';
import { allowSocketRequest, corsOrigins, httpApp, MAX_PAYLOAD_BYTES, mountEnd } from './start/http-app.js';
import { attachSockets } from './start/sockets.js';
import { adminOnly } from './http/routes.js';
import { tournamentRoutes } from './http/tournament-routes.js';

export interface Boardroom {
  readonly url: string;
  readonly port: number;
  readonly http: HttpServer;
  readonly io: BoardroomServer;
  readonly service: GameService;
  readonly mode: 'redis' | 'embedded';
  close(): Promise<void>;
}

/**
 * Builds and starts the whole server from its configuration, in order: the HTTP app, the runtime
 * (store, queues, timers, services), the namespaces, the routes, listening, then the periodic work.
 */
export async function startBoardroom(config: Config, log: Logger): Promise<Boardroom> {
  const started = Date.now();
  const context = {
    config,
    log,
    metrics: new Metrics(),
    instance: `${process.pid}-${randomBytes(4).toString('hex')}`,
    onError: (error: unknown): void => log.error({ err: error }, 'background task failed'),
  };
  const app = httpApp(config);
  const http = createServer(app);
  const runtime = await createRuntime({
    ...context,
    io: (adapter) => new Server<ClientToServerEvents, ServerToClientEvents, NoServerEvents, ConnectionData>(http, { maxHttpBufferSize: MAX_PAYLOAD_BYTES, cors: { origin: corsOrigins(config) }, allowRequest: allowSocketRequest(corsOrigins(config)), ...(adapter ? { adapter } : {}) }),
  });
  const { store, agents, platform, io, bots, service, lobby, analysis, broadcaster, queueStats, dashboardQueues, mode } = runtime;
  const sockets = attachSockets(runtime, context);
  const { accounts, adminSessions, ladder, liveTable } = sockets;
  app.use(playerRoutes({ accounts, platform, store, agents, bots, signedOut: (key) => announceSignOut(sockets.players, key) }));
  const tournamentHttp = tournamentRoutes(sockets.entries, store);
  app.use(tournamentHttp.public);
  app.use('/admin/api', adminOnly(config.ADMIN_TOKEN, adminSessions), tournamentHttp.admin);
  app.use(apiRoutes({ service, lobby, bots, analysis, liveTable, store, agents, platform, ladder, adminSessions, metrics: context.metrics, broadcaster, adminToken: config.ADMIN_TOKEN, mode, queueStats, started }));
  mountEnd(app, { config, log, dashboardQueues, adminSessions });
  const port = await listen(http, config);
  const stopBackground = await startBackground(runtime, sockets, context);
  log.info({ port, mode, instance: context.instance }, 'boardroom listening');

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    http,
    io,
    service,
    mode,
    async close() {
      sockets.closing();
      await stopBackground();
      await new Promise<void>((resolve) => io.close(() => resolve()));
      await runtime.close();
      await sockets.close().catch(() => undefined);
    },
  };
}

/** Listens on the configured port (0: any free one) and answers the port taken. */
async function listen(http: HttpServer, config: Config): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(config.PORT, config.HOST, () => resolve());
  });
  return (http.address() as AddressInfo).port;
}
