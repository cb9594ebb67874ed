import { describe, expect, it } from 'vitest';
import { BOT_CATALOG } from '../../bots/jobs/contract.js';
import { catalogBots } from './catalog-bots.js';

describe('catalogBots: a bot by name, for the whole server', () => {
  const bots = catalogBots();

  it("a room seats a bot by the catalog's exact name, for the game it plays", () => {
    expect(bots.entry('othello', 'engine-3')?.budgetMs).toBe(300);
    expect(bots.entry('othello', 'Engine-3')).toBeUndefined();
    expect(bots.entry('othello', 'seed-004')).toBeUndefined();
    expect(bots.entry('minichess', 'seed-004')?.name).toBe('seed-004');
  });

  it('a name is a bot\'s in any letter case and any game, answered as the catalog spells it', () => {
    expect(bots.named('SEED-004')).toBe('seed-004');
    expect(bots.named('Random')).toBe('random');
    expect(bots.named('nobody')).toBeUndefined();
  });

  it("lists each game's bots in catalog order", () => {
    expect(bots.names('gomoku')).toEqual(BOT_CATALOG.gomoku.map((b) => b.name));
    expect(bots.catalog).toBe(BOT_CATALOG);
  });
});
