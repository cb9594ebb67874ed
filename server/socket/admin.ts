import { timingSafeEqual } from 'node:crypto';
import type { Namespace, Socket } from 'socket.io';
import { adminSessionFromCookie, type AdminSessions } from '../accounts/admin-sessions.js';
import type { GameService } from '../games/service.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics.js';
import { authError } from './agents.js';
import { ADMINS, type SocketBroadcaster } from './broadcaster.js';
import { guard } from './guard.js';

export function adminTokenMatches(given: unknown, expected: string | undefined): boolean {
  if (!expected || typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The admin namespace (`auth: { token: ADMIN_TOKEN }`): every live game with the bots' latest
 * thinking, every move and thought as it happens, and the power to end a game.
 */
export function attachAdmin(
  ns: Namespace,
  service: GameService,
  broadcaster: SocketBroadcaster,
  adminToken: string | undefined,
  sessions: AdminSessions,
  queueStats: () => Promise<Record<string, number>>,
  log: Logger,
  metrics: Metrics,
): void {
  ns.use((socket, next) => {
    if (!adminToken) return next(authError('auth/required', 'The admin is off: start the server with ADMIN_TOKEN set.'));
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    if (token !== undefined && token !== '') return next(adminTokenMatches(token, adminToken) ? undefined : authError('auth/bad_token', 'That admin token is wrong.'));
    // The console's session cookie (signed in with POST /admin/api/session).
    void sessions.valid(adminSessionFromCookie(socket.handshake.headers.cookie)).then(
      (ok) => next(ok ? undefined : authError('auth/required', 'Sign in to the admin console, or connect with auth: { token } holding ADMIN_TOKEN.')),
      () => next(authError('auth/required', 'The session store cannot be read; connect with auth: { token }.')),
    );
  });
  ns.on('connection', (socket: Socket) => {
    metrics.connections.inc({ namespace: '/admin' });
    void socket.join(ADMINS);
    const handle = guard(socket, 10_000, log, metrics);
    handle('admin:games', async () => {
      const games = await service.liveViews();
      return { ok: true, value: { games, thinking: games.map((g) => broadcaster.latestThinking.get(g.id)).filter((t) => t !== undefined) } };
    });
    handle('admin:end', (payload) => service.adminEnd(payload));
    handle('admin:queue', async () => ({ ok: true, value: { queue: await queueStats() } }));
    socket.on('disconnect', () => metrics.connections.dec({ namespace: '/admin' }));
  });
}
