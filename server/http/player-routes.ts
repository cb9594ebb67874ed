import express, { type Request, type Response, type Router } from 'express';
import { GAME_IDS, isGameId, type GameId } from '../../shared/rules.js';
import type { RatingView } from '../../shared/protocol/index.js';
import type { Bots } from '../games/ports.js';
import { SESSION_MS, sessionFromCookie, type Accounts } from '../accounts/accounts.js';
import { isProvisional, ratingKnown, type Identity, type RatingRecord } from '../ratings/rating.js';
import { leaderboard, rankOn } from './leaderboard.js';
import type { AgentStore } from '../store/agents.js';
import type { PlatformStore } from '../store/platform.js';
import type { GameStore } from '../store/store.js';
import { gameRecord } from './routes.js';

export interface PlayerRouteDeps {
  readonly accounts: Accounts;
  readonly platform: PlatformStore;
  readonly store: GameStore;
  readonly agents: AgentStore;
  readonly bots: Bots;
  /** A session was signed out: its open connections, in every process, stop acting as its account. */
  readonly signedOut: (key: string) => void;
}

function refusal(res: Response, status: number, error: { code: string; message: string; retryAfterMs?: number }): void {
  if (error.retryAfterMs !== undefined) res.setHeader('Retry-After', String(Math.ceil(error.retryAfterMs / 1000)));
  res.status(status).json({ ok: false, error });
}

const STATUS: Record<string, number> = { 'auth/rate_limited': 429, 'account/name_taken': 409, 'auth/bad_credentials': 401 };

function setSession(req: Request, res: Response, session: string): void {
  res.cookie('boardroom_session', session, { httpOnly: true, sameSite: 'lax', secure: req.secure, path: '/', maxAge: SESSION_MS });
}

export function ratingView(record: RatingRecord, rank: number): RatingView {
  return {
    rank,
    name: record.name,
    kind: record.kind,
    rating: Math.round(record.rating),
    rd: Math.round(record.rd),
    provisional: isProvisional(record),
    games: record.games,
    wins: record.wins,
    draws: record.draws,
    losses: record.losses,
  };
}

/** Accounts (sign-up, sign-in, sign-out), leaderboards and player profiles. */
export function playerRoutes(deps: PlayerRouteDeps): Router {
  const router = express.Router();
  const address = (req: Request): string => req.ip ?? req.socket.remoteAddress ?? 'unknown';

  router.post('/api/account/signup', async (req, res) => {
    const made = await deps.accounts.signUp(req.body, address(req));
    if (!made.ok) return refusal(res, STATUS[made.error.code] ?? 400, made.error);
    setSession(req, res, made.value.session);
    res.status(201).json({ ok: true, account: { name: made.value.name } });
  });
  router.post('/api/account/signin', async (req, res) => {
    const signed = await deps.accounts.signIn(req.body, address(req));
    if (!signed.ok) return refusal(res, STATUS[signed.error.code] ?? 400, signed.error);
    setSession(req, res, signed.value.session);
    res.json({ ok: true, account: { name: signed.value.name } });
  });
  router.post('/api/account/signout', async (req, res) => {
    const ended = await deps.accounts.signOut(sessionFromCookie(req.headers.cookie));
    if (ended) deps.signedOut(ended);
    res.clearCookie('boardroom_session', { path: '/' });
    res.json({ ok: true });
  });
  router.get('/api/account', async (req, res) => {
    const name = await deps.accounts.whoIs(sessionFromCookie(req.headers.cookie));
    res.json({ ok: true, account: name ? { name } : null });
  });

  router.get('/api/ratings/:game', async (req, res) => {
    const game = req.params.game;
    if (!isGameId(game)) return refusal(res, 404, { code: 'route/not_found', message: `There is no game "${game}": ${GAME_IDS.join(', ')}.` });
    const limit = Math.min(Math.max(Number(req.query.limit) || 100, 1), 500);
    const records = await leaderboard(deps.store, game, limit);
    res.json({ ok: true, game, ratings: records.map((r, i) => ratingView(r, i + 1)) });
  });

  router.get('/api/players/:name', async (req, res) => {
    const identity = await findIdentity(deps, req.params.name);
    if (!identity) return refusal(res, 404, { code: 'player/not_found', message: `No player, agent or bot is named "${req.params.name}".` });
    const records = (await Promise.all(GAME_IDS.map((game) => deps.store.ratings(game, [identity])))).flat().filter(ratingKnown);
    const ranks = await Promise.all(records.map((r) => rankOn(deps.store, r)));
    const recentIds = await deps.store.recentGames(identity, 20);
    const recent = (await Promise.all(recentIds.map((id) => deps.store.get(id)))).filter((g) => g !== undefined);
    res.json({
      ok: true,
      name: identity.name,
      kind: identity.kind,
      ratings: Object.fromEntries(records.map((r, i) => [r.game as GameId, ratingView(r, ranks[i] ?? 0)])),
      recent: recent.map((g) => ({ ...gameRecord(g), rated: g.rated, ratingChange: g.ratingChange })),
    });
  });
  return router;
}

/** A name's identity: an account first, then an agent, then a roster bot. */
async function findIdentity(deps: PlayerRouteDeps, name: string): Promise<Identity | undefined> {
  const account = await deps.platform.account(name);
  if (account) return { kind: 'person', name: account.name };
  const agent = await deps.agents.agentNamed(name);
  if (agent) return { kind: 'agent', name: agent.name };
  const bot = deps.bots.named(name);
  return bot === undefined ? undefined : { kind: 'bot', name: bot };
}
