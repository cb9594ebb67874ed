import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import type { Queue } from 'bullmq';
import cors from 'cors';
import express from 'express';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { adminOnly } from '../http/routes.js';
import type { AdminSessions } from '../accounts/admin-sessions.js';
import { STORE_UNAVAILABLE } from '../socket/guard.js';
import { isStoreUnavailable } from '../store/store.js';

/** The largest request body or socket message taken. */
export const MAX_PAYLOAD_BYTES = 16 * 1024;
// From dist/server/start/ or from server/start/ (tests, tsx): the project root either way.
const CLIENT_DIST = fileURLToPath(new URL(import.meta.url.includes('/dist/server/') ? '../../../client-demo/dist' : '../../client-demo/dist', import.meta.url));

/** The origins `CORS_ORIGIN` lets in: any (`*`), a list, or none but the server's own. */
export function corsOrigins(config: Config): true | string[] | false {
  return config.CORS_ORIGIN === '*' ? true : config.CORS_ORIGIN ? config.CORS_ORIGIN.split(',').map((o) => o.trim()) : false;
}

/**
 * CORS does not cover WebSockets: a browser page from another site is refused here unless
 * CORS_ORIGIN allows it. Programs (agents, the load test) send no Origin and are let in.
 */
export function allowSocketRequest(origins: true | string[] | false) {
  return (req: { headers: Record<string, string | string[] | undefined> }, callback: (err: string | null, ok: boolean) => void): void => {
    const origin = req.headers.origin;
    if (typeof origin !== 'string') return callback(null, true);
    const sameSite = URL.canParse(origin) && new URL(origin).host === req.headers.host;
    callback(null, sameSite || origins === true || (Array.isArray(origins) && origins.includes(origin)));
  };
}

/** The Express app before its routes: proxies trusted, CORS, JSON bodies up to the limit. */
export function httpApp(config: Config): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  app.use(cors({ origin: corsOrigins(config) }));
  app.use(express.json({ limit: MAX_PAYLOAD_BYTES }));
  return app;
}

/**
 * After the routes: BullMQ's dashboard at /admin/queues (admins only; none embedded), the built
 * web client and its pages, and the error handler answering every failure with a code.
 */
export function mountEnd(app: express.Express, { config, log, dashboardQueues, adminSessions }: { config: Config; log: Logger; dashboardQueues: readonly Queue[]; adminSessions: AdminSessions }): void {
  if (dashboardQueues.length > 0) {
    const board = new ExpressAdapter();
    board.setBasePath('/admin/queues');
    // The bot queues share a name: several are told apart by their prefixes (the dashboard keeps one queue a name).
    const named = (q: Queue) => (dashboardQueues.length > 1 ? { prefix: `${q.opts.prefix}:` } : {});
    createBullBoard({ queues: dashboardQueues.map((q) => new BullMQAdapter(q, named(q))), serverAdapter: board });
    app.use('/admin/queues', adminOnly(config.ADMIN_TOKEN, adminSessions), board.getRouter());
  }
  if (existsSync(CLIENT_DIST)) {
    app.use(express.static(CLIENT_DIST));
    app.get(['/admin', '/account', '/ratings', '/game/{*rest}', '/replay/{*rest}', '/ratings/{*rest}', '/players/{*rest}', '/tournaments', '/tournaments/{*rest}'], (_req, res) => res.sendFile(`${CLIENT_DIST}/index.html`));
  }
  app.use((err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    if (isStoreUnavailable(err)) return void res.status(503).json({ ok: false, error: STORE_UNAVAILABLE });
    const status = (err as { status?: number }).status ?? 500;
    if (status >= 500) log.error({ err }, 'http request failed');
    res.status(status).json({ ok: false, error: { code: status === 413 ? 'payload/too_large' : 'payload/invalid', message: status === 413 ? 'The request body is too large.' : 'The request could not be read.' } });
  });
}
