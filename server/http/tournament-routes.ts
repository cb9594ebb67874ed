import express, { type Router } from 'express';
import type { GameStore } from '../store/store.js';
import { gameRecord } from './routes.js';
import { standingsCsv } from '../tournaments/csv.js';
import { viewOf, type TournamentEntries } from '../tournaments/entries.js';

const STATUS: Record<string, number> = { 'tournament/not_found': 404, 'tournament/not_allowed': 403, 'tournament/closed': 409, 'tournament/full': 409, 'tournament/too_few': 409, 'payload/invalid': 400 };

/**
 * `GET /api/tournaments` (`?status=`), `/api/tournaments/:id` (standings, pairings, each game's
 * summary), `/api/tournaments/:id/standings` (`?format=csv`) and `/api/tournaments/:id/games`
 * (every game's record); `admin` holds the admin's own: create, enter bots, start.
 */
export function tournamentRoutes(entries: TournamentEntries, games: GameStore): { public: Router; admin: Router } {
  const router = express.Router();
  const answer = (res: express.Response, result: { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } }): void => {
    if (!result.ok) return void res.status(STATUS[result.error.code] ?? 400).json({ ok: false, error: result.error });
    res.json({ ok: true, ...(result.value as object) });
  };
  router.get('/api/tournaments', async (req, res) => answer(res, await entries.list({ status: req.query.status ?? 'all' })));
  router.get('/api/tournaments/:id', async (req, res) => {
    const found = await entries.find({ tournamentId: req.params.id });
    if (!found.ok) return answer(res, found);
    answer(res, { ok: true, value: { tournament: viewOf(found.value) } });
  });
  router.get('/api/tournaments/:id/standings', async (req, res) => {
    const found = await entries.find({ tournamentId: req.params.id });
    if (!found.ok) return answer(res, found);
    const { standings } = viewOf(found.value);
    if (req.query.format !== 'csv') return answer(res, { ok: true, value: { standings } });
    res.attachment(`boardroom-tournament-${found.value.id}-standings.csv`);
    res.type('text/csv; charset=utf-8').send(standingsCsv(standings));
  });
  router.get('/api/tournaments/:id/games', async (req, res) => {
    const found = await entries.find({ tournamentId: req.params.id });
    if (!found.ok) return answer(res, found);
    const ids = found.value.pairings.map((p) => p.gameId).filter((id): id is string => id !== null);
    const records = (await Promise.all(ids.map((id) => games.get(id)))).filter((g) => g !== undefined).map(gameRecord);
    res.attachment(`boardroom-tournament-${found.value.id}-games.json`);
    res.json({ ok: true, games: records });
  });

  const admin = express.Router();
  admin.post('/tournaments', async (req, res) => answer(res, await entries.create(req.body, { kind: 'admin' })));
  admin.post('/tournaments/:id/bots', async (req, res) => answer(res, await entries.addBots({ ...(req.body as object), tournamentId: req.params.id }, { kind: 'admin' })));
  admin.post('/tournaments/:id/start', async (req, res) => answer(res, await entries.start({ tournamentId: req.params.id }, { kind: 'admin' })));
  return { public: router, admin };
}
