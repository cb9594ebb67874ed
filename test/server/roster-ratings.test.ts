import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_CATALOG } from '../../bots/jobs/contract.js';
import type { RatingView, SeekPaired } from '../../shared/protocol/index.js';
import { GAME_IDS } from '../../shared/rules.js';
import type { Boardroom } from '../../server/app.js';
import { freshRecord, isProvisional } from '../../server/ratings/rating.js';
import { ROSTER_RATINGS } from '../../server/ratings/roster-ratings.js';
import { Client, expectOk, startServer } from '../support/server.js';

// The roster bots start at the ratings a run of the bot ladder measured (server/ratings/roster-ratings.ts),
// so on a new server "a bot of my rating" is near a new player's 1500, not whichever bot is listed first.
let server: Boardroom;
const clients: Client[] = [];
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  for (const c of clients) c.close();
  await server?.close();
});

describe('provisional ratings of the roster', () => {
  for (const game of GAME_IDS) {
    it(`${game}: measured bots are roster bots, spread out, and start there, provisional`, () => {
      const measured = Object.entries(ROSTER_RATINGS.ratings[game]);
      const roster = BOT_CATALOG[game].map((b) => b.name);
      expect(measured.length).toBeGreaterThanOrEqual(3);
      for (const [name, { rating }] of measured) {
        expect(roster).toContain(name);
        const record = freshRecord(game, { kind: 'bot', name });
        expect(record.rating).toBe(rating);
        expect(isProvisional(record)).toBe(true);
      }
      const ratings = measured.map(([, r]) => r.rating);
      expect(Math.max(...ratings) - Math.min(...ratings)).toBeGreaterThan(200);
      expect(ROSTER_RATINGS.made).toMatch(/npm run ladder/);
    });
  }

  it('a new server lists the measured bots on its leaderboard, marked provisional', async () => {
    const body = (await (await fetch(`${server.url}/api/ratings/othello`)).json()) as { ratings: RatingView[] };
    const names = Object.keys(ROSTER_RATINGS.ratings.othello);
    expect(body.ratings.map((r) => r.name).sort()).toEqual([...names].sort());
    expect(body.ratings.every((r) => r.provisional && r.games === 0)).toBe(true);
    expect(body.ratings.map((r) => r.rating)).toEqual([...body.ratings.map((r) => r.rating)].sort((a, b) => b - a));
  });

  it('"a bot of my rating" for a new player is the measured bot nearest 1500', async () => {
    for (const game of GAME_IDS) {
      const player = await new Client(server.url).connected();
      clients.push(player);
      const sought = expectOk(await player.ask<{ seekId: string }>('seek', { game, timeControl: { kind: 'per-move', moveMs: 10_000 }, rated: false, name: 'Newcomer' }));
      const paired = expectOk(await player.ask<SeekPaired>('seek:bot', { seekId: sought.seekId }));
      const bot = [paired.view.seats.black, paired.view.seats.white].find((s) => s.kind === 'bot')!;
      const measured = Object.entries(ROSTER_RATINGS.ratings[game]);
      const nearest = measured.reduce((best, r) => (Math.abs(r[1].rating - 1500) < Math.abs(best[1].rating - 1500) ? r : best))[0];
      expect(bot.name, game).toBe(nearest);
    }
  });
});
