import { parseArgs } from 'node:util';
import { BOT_CATALOG } from '../../bots/registry.js';
import type { RatingView } from '../../shared/protocol/index.js';
import { GAME_IDS, isGameId, type GameId } from '../../shared/rules.js';
import { ADMIN_TOKEN, startServer } from '../support/server.js';
import { writeRosterRatings } from './roster-ratings-file.js';

const HELP = `Usage: npm run ladder -- [--games N] [--game G] [--bots A,B,...] [--concurrent N]
                          [--server URL --admin-token TOKEN] [--json] [--write-provisional]

Fills the rated leaderboard of the roster bots: enters them on the bot ladder of each game, waits
until N rated ladder games of that game have finished, and prints its leaderboard. Without
--server it starts an embedded server of its own (games in memory, gone when it stops).
Takes the measuring lock (/tmp/boardroom-measure.lock) with the bench: run nothing else heavy.

  --games N        rated games to finish in each game (default 200)
  --game G         othello, gomoku or minichess (default: the three, one after another)
  --bots LIST      the roster bots to enter (default: every bot of the game)
  --concurrent N   ladder games at once (default 2; a server caps it at half its bot threads)
  --server URL     a running server instead (its admin needs --admin-token)
  --json           one JSON line per game with its leaderboard
  --write-provisional  writes the bots' ratings to server/ratings/roster-ratings.ts, where the
                   server starts each roster bot not yet rated (the games not run keep theirs)`;

const { values } = parseArgs({
  options: {
    games: { type: 'string', default: '200' },
    game: { type: 'string' },
    bots: { type: 'string' },
    concurrent: { type: 'string', default: '2' },
    server: { type: 'string' },
    'admin-token': { type: 'string' },
    json: { type: 'boolean' },
    'write-provisional': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(HELP);
  process.exit(0);
}
const target = Number(values.games);
const concurrent = Number(values.concurrent);
if (!Number.isInteger(target) || target < 1 || !Number.isInteger(concurrent) || concurrent < 1) {
  console.error('--games and --concurrent take whole numbers, 1 or more.');
  process.exit(2);
}
if (values.game !== undefined && !isGameId(values.game)) {
  console.error(`--game takes ${GAME_IDS.join(', ')}, not "${values.game}".`);
  process.exit(2);
}
if (values.server && !values['admin-token']) {
  console.error('--server needs --admin-token: the ladder is entered through the admin API.');
  process.exit(2);
}
const games: GameId[] = values.game ? [values.game as GameId] : [...GAME_IDS];

const embedded = values.server ? undefined : await startServer({ BOT_THREADS: String(concurrent * 2), LOG_LEVEL: 'warn' });
const url = values.server?.replace(/\/+$/, '') ?? embedded!.url;
const token = values['admin-token'] ?? ADMIN_TOKEN;

async function setLadder(game: GameId, bots: readonly string[], at: number): Promise<void> {
  const res = await fetch(`${url}/admin/api/ladder`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ game, bots, concurrent: at }) });
  const body = (await res.json()) as { ok: boolean; error?: { message: string } };
  if (!body.ok) throw new Error(`The server refused the ladder: ${body.error?.message}`);
}

async function board(game: GameId): Promise<RatingView[]> {
  return ((await (await fetch(`${url}/api/ratings/${game}`)).json()) as { ratings: RatingView[] }).ratings;
}

const measured: Partial<Record<GameId, RatingView[]>> = {};
try {
  for (const game of games) {
    const bots = values.bots ? values.bots.split(',').map((b) => b.trim()) : BOT_CATALOG[game].map((b) => b.name);
    const played = (rows: RatingView[]): number => rows.filter((r) => bots.includes(r.name)).reduce((n, r) => n + r.games, 0) / 2;
    const before = played(await board(game));
    const started = Date.now();
    await setLadder(game, bots, concurrent);
    let done = 0;
    while (done < target) {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      done = played(await board(game)) - before;
      const elapsed = (Date.now() - started) / 1000;
      const eta = done > 0 ? Math.round((elapsed / done) * (target - done)) : NaN;
      process.stderr.write(`\r${game}: ${done}/${target} rated games, ${Math.round(elapsed)} s${Number.isFinite(eta) ? `, about ${eta} s to go` : ''}   `);
    }
    await setLadder(game, [], 0);
    process.stderr.write('\n');
    const rows = (await board(game)).filter((r) => bots.includes(r.name));
    measured[game] = rows;
    if (values.json) console.log(JSON.stringify({ game, games: done, ratings: rows }));
    else {
      console.log(`\n${game}: ${done} rated ladder games\n\n| rank | bot | rating | RD | games | W-D-L |\n|---|---|---|---|---|---|`);
      rows.forEach((r, i) => console.log(`| ${i + 1} | ${r.name} | ${r.rating}${r.provisional ? '?' : ''} | ${r.rd} | ${r.games} | ${r.wins}-${r.draws}-${r.losses} |`));
    }
  }
  if (values['write-provisional']) writeRosterRatings(measured, `npm run ladder -- ${process.argv.slice(2).join(' ')}, ${new Date().toISOString().slice(0, 10)}`);
} finally {
  await embedded?.close();
}
