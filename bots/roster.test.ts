import { describe, expect, it } from 'vitest';
import { GAMES } from '../shared/games.js';
import { GAME_IDS } from '../shared/rules.js';
import { BOT_CATALOG } from './catalog.js';
import { loadBot, loadEngine } from './load-bot.js';
import { botsFor, engineWithBudget, findBot } from './roster.js';

describe('roster', () => {
  it.each(GAME_IDS)('%s: every catalog entry has its bot, with the same name, game and budget', (game) => {
    const bots = botsFor(game);
    expect(bots.map((b) => [b.name, b.game, b.budgetMs])).toEqual(BOT_CATALOG[game].map((e) => [e.name, game, e.budgetMs]));
  });

  it.each(GAME_IDS)("%s: the command line's per-game loader makes the roster's bots", async (game) => {
    for (const entry of BOT_CATALOG[game]) {
      const loaded = await loadBot(game, entry.name);
      const listed = findBot(game, entry.name)!;
      expect([loaded?.name, loaded?.game, loaded?.budgetMs, loaded?.description]).toEqual([listed.name, listed.game, listed.budgetMs, listed.description]);
    }
    expect(await loadBot(game, 'nobody')).toBeUndefined();
    const engine = await loadEngine(game, 250);
    expect([engine.name, engine.budgetMs, engine.description]).toEqual(['engine-250ms', 250, engineWithBudget(game, 250).description]);
  });

  it('knows no bot of another game', () => {
    expect(findBot('othello', 'seed-004')).toBeUndefined();
    expect(findBot('gomoku', 'nobody')).toBeUndefined();
  });

  it.each(GAME_IDS)('%s: every bot answers a legal move from the start within its budget', (game) => {
    const { rules } = GAMES[game];
    const start = rules.start();
    for (const bot of botsFor(game).filter((b) => b.budgetMs <= 100 || b.name.startsWith('seed'))) {
      const began = performance.now();
      const answer = bot.think(start, { deadline: performance.now() + Math.min(bot.budgetMs, 100) });
      expect(rules.check(start, answer.move), `${bot.name} played ${answer.move}`).toBeUndefined();
      expect(performance.now() - began).toBeLessThan(Math.max(bot.budgetMs, 100) + 400);
    }
  });
});
