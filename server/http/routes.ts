import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { GAMES } from '../../shared/games.js';
import { RECORD_FORMATS } from '../../shared/records/index.js';
import { ADMIN_MARK_COOKIE, AdminQuerySchema } from '../../shared/protocol/index.js';
import type { LiveTable } from '../admin/live-table.js';
import { parse } from '../refuse.js';
import type { AnalysisService } from '../games/analysis.js';
import type { Bots } from '../games/ports.js';
import type { Lobby } from '../games/lobby.js';
import type { GameService } from '../games/service.js';
import { newToken, hashToken } from '../games/tokens.js';
import { toSummary } from '../games/game.js';
import type { Metrics } from '../metrics.js';
import { ADMIN_SESSION_MS, adminSessionFromCookie, type AdminSessions } from '../accounts/admin-sessions.js';
import { adminTokenMatches } from '../socket/admin.js';
import type { SocketBroadcaster } from '../socket/broadcaster.js';
import type { Ladder } from '../pairing/ladder.js';
import type { AgentStore } from '../store/agents.js';
import type { PlatformStore } from '../store/platform.js';
import type { GameStore, StoredGame } from '../store/store.js';

export interface RouteDeps {
  readonly service: GameService;
  readonly lobby: Lobby;
  readonly bots: Bots;
  readonly analysis: AnalysisService;
  readonly liveTable: LiveTable;
  readonly store: GameStore;
  readonly agents: AgentStore;
  readonly platform: PlatformStore;
  readonly ladder: Ladder;
  readonly adminSessions: AdminSessions;
  readonly metrics: Metrics;
  readonly broadcaster: SocketBroadcaster;
  readonly adminToken: string | undefined;
  readonly mode: 'redis' | 'embedded';
  readonly queueStats: () => Promise<Record<string, number>>;
  readonly started: number;
}

function refusal(res: Response, status: number, code: string, message: string): void {
  res.status(status).json({ ok: false, error: { code, message } });
}

/** A finished or live game as a record: players, result, and the moves in the game's notation. */
export function gameRecord(game: StoredGame) {
  const player = (c: 'black' | 'white') => ({ kind: game.seats[c].kind, name: game.seats[c].name });
  return {
    id: game.id,
    game: game.game,
    options: game.options,
    status: game.status,
    players: { black: player('black'), white: player('white') },
    result: game.result,
    start: game.start,
    moves: game.moves,
    moveMs: game.moveMs,
    timeControl: game.timeControl,
    record: game.moves.join(' '),
    position: GAMES[game.game].rules.formatPosition(game.position),
    createdAt: game.createdAt,
    updatedAt: game.updatedAt,
  };
}

export function apiRoutes(deps: RouteDeps): Router {
  const router = express.Router();
  router.get('/health', (_req, res) => {
    res.json({ ok: true, mode: deps.mode, uptimeSeconds: Math.round((Date.now() - deps.started) / 1000) });
  });
  router.get('/metrics', async (_req, res) => {
    res.type(deps.metrics.registry.contentType).send(await deps.metrics.scrape());
  });
  router.get('/api/bots', (_req, res) => {
    res.json({ ok: true, bots: deps.bots.catalog });
  });
  /** A page of the lobby: the query of `rooms:list`, as URL parameters. */
  router.get('/api/rooms', async (req, res) => {
    const listed = await deps.lobby.listRooms(lobbyQueryOf(req.query));
    if (!listed.ok) return refusal(res, 400, listed.error.code, listed.error.message);
    res.json({ ok: true, ...listed.value });
  });
  router.get('/api/games', async (req, res) => {
    const limit = Math.min(Math.max(Number(req.query.limit) || 20, 1), 200);
    const games = await deps.lobby.recentGames(limit);
    res.json({ ok: true, games: games.map((g) => ({ ...toSummary(g), record: g.moves.join(' ') })) });
  });
  /** The record as JSON, or with `?format=` as the game's file (GGF, PSQ, PGN) to download. */
  router.get('/api/games/:id', async (req, res) => {
    const format = req.query.format ?? 'json';
    const known = ['json', ...Object.values(RECORD_FORMATS).map((f) => f.name)];
    if (typeof format !== 'string' || !known.includes(format)) {
      return refusal(res, 400, 'record/bad_format', `Ask for format=${known.join(', ')} (each game has its own besides json).`);
    }
    const game = await deps.store.get(req.params.id);
    if (!game) return refusal(res, 404, 'room/not_found', `There is no game "${req.params.id}".`);
    if (format === 'json') return void res.json({ ok: true, ...gameRecord(game) });
    const wanted = RECORD_FORMATS[game.game];
    if (format !== wanted.name) return refusal(res, 400, 'record/bad_format', `A ${game.game} record comes as format=${wanted.name} (${wanted.label}) or json.`);
    res.attachment(`boardroom-${game.game}-${game.id}.${wanted.extension}`);
    res.type('text/plain; charset=utf-8').send(wanted.format(gameRecord(game)));
  });
  // A finished game's analysis: POST asks for it (202 while pending), GET reads where it stands.
  const analysisStatus = { 'room/not_found': 404, 'analysis/not_finished': 409, 'quota/bot_seconds': 429 } as Record<string, number>;
  for (const method of ['post', 'get'] as const) {
    router[method]('/api/games/:id/analysis', async (req, res) => {
      // A new analysis is charged to the caller's address, as a guest's rooms are.
      const owner = `address:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
      const asked = await (method === 'post' ? deps.analysis.request({ gameId: req.params.id }, owner) : deps.analysis.status({ gameId: req.params.id }));
      if (!asked.ok) return void res.status(analysisStatus[asked.error.code] ?? 400).json({ ok: false, error: asked.error });
      res.status(method === 'post' && asked.value.status.state === 'pending' ? 202 : 200).json({ ok: true, ...asked.value });
    });
  }
  router.use('/admin/api', adminOnly(deps.adminToken, deps.adminSessions), adminRoutes(deps));
  // A program calling the API gets the JSON error format for a path or method that is not there.
  router.use(['/api', '/admin/api'], (req, res) => refusal(res, 404, 'route/not_found', `There is no ${req.method} ${req.originalUrl.split('?')[0]} here.`));
  return router;
}

/**
 * Admin calls carry `Authorization: Bearer ADMIN_TOKEN`, or the admin session cookie that
 * `POST /admin/api/session` (or the dashboard's `?token=` once) sets: a random id kept in the
 * store, HttpOnly, SameSite=Strict, Secure over HTTPS, never the token itself.
 */
export function adminOnly(adminToken: string | undefined, sessions: AdminSessions) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (!adminToken) return refusal(res, 403, 'auth/required', 'The admin is off: start the server with ADMIN_TOKEN set.');
    const header = req.headers.authorization?.replace(/^Bearer\s+/i, '');
    const query = typeof req.query.token === 'string' ? req.query.token : undefined;
    const byToken = adminTokenMatches(header ?? query, adminToken);
    if (!byToken && !(await sessions.valid(adminSessionFromCookie(req.headers.cookie)).catch(() => false))) {
      return refusal(res, 401, 'auth/bad_token', 'Send Authorization: Bearer <ADMIN_TOKEN>, or sign in to the admin console.');
    }
    if (byToken && query) await setAdminCookie(req, res, sessions);
    next();
  };
}

async function setAdminCookie(req: Request, res: Response, sessions: AdminSessions): Promise<void> {
  res.cookie('boardroom_admin', await sessions.open(), { httpOnly: true, sameSite: 'strict', secure: req.secure, path: '/', maxAge: ADMIN_SESSION_MS });
  res.cookie(ADMIN_MARK_COOKIE, '1', { sameSite: 'strict', secure: req.secure, path: '/', maxAge: ADMIN_SESSION_MS });
}

function adminRoutes(deps: RouteDeps): Router {
  const router = express.Router();
  /** A page of the live-games table: ?game=&kind=&state=&q=&sort=&dir=&offset=&limit= as in admin:list. */
  router.get('/games', async (req, res) => {
    const numbers = new Set(['offset', 'limit']);
    const raw = Object.fromEntries(Object.entries(req.query).map(([k, v]) => [k, numbers.has(k) && typeof v === 'string' && v !== '' ? Number(v) : v]));
    const query = parse(AdminQuerySchema, raw);
    if (!query.ok) return refusal(res, 400, query.error.code, query.error.message);
    res.json({ ok: true, ...(await deps.liveTable.page(query.value)) });
  });
  router.post('/games/:id/end', async (req, res) => {
    const ended = await deps.service.adminEnd({ ...(req.body as object), gameId: req.params.id });
    if (!ended.ok) return refusal(res, ended.error.code === 'room/not_found' ? 404 : 400, ended.error.code, ended.error.message);
    res.json({ ok: true, view: ended.value.view });
  });
  router.post('/agents', async (req, res) => {
    const name = (req.body as { name?: unknown } | undefined)?.name;
    if (typeof name !== 'string' || !/^[\w.-]{1,40}$/.test(name)) {
      return refusal(res, 400, 'payload/invalid', 'Give the agent a name of 1 to 40 letters, digits, ".", "-" or "_".');
    }
    const token = newToken();
    if (deps.bots.named(name) !== undefined || (await deps.platform.account(name)) || !(await deps.agents.putAgent(hashToken(token), { name, createdAt: Date.now() }))) {
      return refusal(res, 409, 'agent/name_taken', `The name "${name}" is taken by a bot, an agent or a player's account; each name has one owner.`);
    }
    res.status(201).json({ ok: true, name, token });
  });
  router.post('/agents/:name/token', async (req, res) => {
    const token = newToken();
    const agent = await deps.agents.agentNamed(req.params.name); // the name as registered, asked in any case
    if (!agent || !(await deps.agents.replaceAgentToken(agent.name, hashToken(token)))) {
      return refusal(res, 404, 'agent/not_found', `There is no agent named "${req.params.name}".`);
    }
    deps.broadcaster.dropAgent(agent.name); // connections made with the old token end
    res.status(201).json({ ok: true, name: agent.name, token });
  });
  router.delete('/agents/:name', async (req, res) => {
    const agent = await deps.agents.agentNamed(req.params.name);
    if (!agent || !(await deps.agents.deleteAgent(agent.name))) return refusal(res, 404, 'agent/not_found', `There is no agent named "${req.params.name}".`);
    deps.broadcaster.dropAgent(agent.name);
    res.json({ ok: true, name: agent.name });
  });
  router.post('/session', async (req, res) => {
    await setAdminCookie(req, res, deps.adminSessions);
    res.status(201).json({ ok: true, expiresInMs: ADMIN_SESSION_MS });
  });
  router.post('/signout', async (req, res) => {
    await deps.adminSessions.revoke(adminSessionFromCookie(req.headers.cookie));
    res.clearCookie('boardroom_admin', { path: '/' });
    res.clearCookie(ADMIN_MARK_COOKIE, { path: '/' });
    res.json({ ok: true });
  });
  router.get('/ladder', async (_req, res) => {
    res.json({ ok: true, ladders: await deps.platform.ladders() });
  });
  router.post('/ladder', async (req, res) => {
    const set = await deps.ladder.configure(req.body);
    if (!set.ok) return refusal(res, 400, set.error.code, set.error.message);
    res.json({ ok: true, ...set.value });
  });
  router.get('/queue', async (_req, res) => {
    res.json({ ok: true, queue: await deps.queueStats() });
  });
  return router;
}

/** `rooms:list`'s query from URL parameters: `limit` a number, `rated` a boolean; the schema judges the rest. */
function lobbyQueryOf(query: Request['query']): Record<string, unknown> {
  const read: Record<string, unknown> = { ...query };
  if (typeof query.limit === 'string' && query.limit !== '') read.limit = Number(query.limit);
  if (query.rated === 'true' || query.rated === 'false') read.rated = query.rated === 'true';
  return read;
}
