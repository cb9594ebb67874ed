import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { AdminQuerySchema, type AdminPage, type StoreEmptied } from '../../shared/protocol/index.js';
import { adminSessionFromCookie, type AdminSessions } from '../accounts/admin-sessions.js';
import type { AdminFeed } from '../admin/feed.js';
import { parse, refuse } from '../refuse.js';
import type { GameService } from '../games/service.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics.js';
import { authError } from './agents.js';
import { gameRoom, type SocketBroadcaster } from './broadcaster.js';
import { guard } from './guard.js';
import type { AdminNamespace, AdminSocket } from './namespaces.js';

/** Games one admin connection may follow move by move at once. */
export const ADMIN_OPEN_MAX = 8;
const OpenSchema = z.object({ gameId: z.string().min(1).max(64) });

export function adminTokenMatches(given: unknown, expected: string | undefined): boolean {
  if (!expected || typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface AdminDeps {
  readonly service: GameService;
  readonly broadcaster: SocketBroadcaster;
  readonly feed: AdminFeed;
  readonly adminToken: string | undefined;
  readonly sessions: AdminSessions;
  readonly queueStats: () => Promise<Record<string, number>>;
  /** The latest notice that the store came back empty, if this process has seen one. */
  readonly storeEmptied: () => StoreEmptied | undefined;
}

/**
 * The admin namespace (`auth: { token: ADMIN_TOKEN }` or the console's session cookie): a page of
 * the live-games table kept current once a second (`admin:list`), the moves and thinking of the
 * few games it opens (`admin:open`), and the power to end a game. A connection made after the
 * store came back empty is told so (`store:emptied`) at once.
 */
export function attachAdmin(ns: AdminNamespace, deps: AdminDeps, log: Logger, metrics: Metrics): void {
  const { service, broadcaster, feed, adminToken, sessions } = deps;
  ns.use((socket, next) => {
    if (!adminToken) return next(authError('auth/required', 'The admin is off: start the server with ADMIN_TOKEN set.'));
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    if (token !== undefined && token !== '') return next(adminTokenMatches(token, adminToken) ? undefined : authError('auth/bad_token', 'That admin token is wrong.'));
    void sessions.valid(adminSessionFromCookie(socket.handshake.headers.cookie)).then(
      (ok) => next(ok ? undefined : authError('auth/required', 'Sign in to the admin console, or connect with auth: { token } holding ADMIN_TOKEN.')),
      () => next(authError('auth/required', 'The session store cannot be read; connect with auth: { token }.')),
    );
  });
  ns.on('connection', (socket: AdminSocket) => {
    metrics.connections.inc({ namespace: '/admin' });
    const emptied = deps.storeEmptied();
    if (emptied) socket.emit('store:emptied', emptied);
    const sink = { send: (page: AdminPage) => socket.emit('admin:page', page) };
    const open = new Set<string>();
    const handle = guard(socket, 10_000, log, metrics);
    handle('admin:list', async (payload) => {
      const query = parse(AdminQuerySchema, payload ?? {});
      if (!query.ok) return query;
      return { ok: true, value: { page: await feed.follow(sink, query.value) } };
    });
    handle('admin:unlist', async () => {
      feed.unfollow(sink);
      return { ok: true, value: {} };
    });
    handle('admin:open', async (payload) => {
      const request = parse(OpenSchema, payload);
      if (!request.ok) return request;
      const { gameId } = request.value;
      if (!open.has(gameId) && open.size >= ADMIN_OPEN_MAX) {
        return refuse('admin/too_many_open', `One admin connection follows at most ${ADMIN_OPEN_MAX} games at once; close one first (admin:close).`);
      }
      const view = await service.view(gameId);
      if (!view.ok) return view;
      open.add(gameId);
      await socket.join(gameRoom(gameId));
      return { ok: true, value: { view: view.value, thinking: broadcaster.latestThinking(gameId) ?? null } };
    });
    handle('admin:close', async (payload) => {
      const request = parse(OpenSchema, payload);
      if (!request.ok) return request;
      open.delete(request.value.gameId);
      await socket.leave(gameRoom(request.value.gameId));
      return { ok: true, value: {} };
    });
    handle('admin:end', (payload) => service.adminEnd(payload));
    handle('admin:queue', async () => ({ ok: true, value: { queue: await deps.queueStats() } }));
    socket.on('disconnect', () => {
      feed.unfollow(sink);
      metrics.connections.dec({ namespace: '/admin' });
    });
  });
}
