import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GAMES } from '../shared/games.js';
import { replay } from '../shared/record.js';
import { GAME_IDS, type GameId } from '../shared/rules.js';
import { main } from './cli/main.js';
import type { Output } from './tool-io.js';
import { BOT_CATALOG, engineWithBudget, findBot, loadBot, loadEngine } from './registry.js';
import { botsFor } from './roster.js';

describe('registry', () => {
  it.each(GAME_IDS)('%s: every catalog entry has its bot, with the same name, game and budget', (game) => {
    const bots = botsFor(game);
    expect(bots.map((b) => [b.name, b.game, b.budgetMs])).toEqual(BOT_CATALOG[game].map((e) => [e.name, game, e.budgetMs]));
  });

  it.each(GAME_IDS)("%s: the command line's per-game loader makes the roster's bots", async (game) => {
    for (const entry of BOT_CATALOG[game]) {
      const loaded = await loadBot(game, entry.name);
      expect(loaded).toBe(findBot(game, entry.name));
      expect(loaded?.name).toBe(entry.name);
    }
    expect(await loadBot(game, 'nobody')).toBeUndefined();
    const engine = await loadEngine(game, 250);
    expect([engine.name, engine.budgetMs, engine.description]).toEqual(['engine-250ms', 250, engineWithBudget(game, 250).description]);
  });

  it('loads no engine when imported (the server reads its catalog): it imports only types, shared/ and the random bot', () => {
    const text = readFileSync(new URL('./registry.ts', import.meta.url), 'utf8');
    const loaded = [...text.matchAll(/^import (?!type )[^;]*?from '([^']+)'/gm)].map((m) => m[1]!);
    expect(loaded.length).toBeGreaterThan(0);
    expect(loaded.filter((path) => !path.startsWith('../shared/') && path !== './random-bot.js')).toEqual([]);
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

/** A position past the opening, as a record from the start, and a depth searched in well under a second. */
const CASES: Record<GameId, { moves: string; depth: number; nodes: number }> = {
  othello: { moves: 'f5 d6 c3 d3 c4 f4', depth: 6, nodes: 20_000 },
  gomoku: { moves: 'h8 h9 i9 g7 i7 i8', depth: 4, nodes: 20_000 },
  minichess: { moves: 'b2b3 d5d4 c2c3', depth: 6, nodes: 20_000 },
};
/** A budget that never binds: the engine bots' factory, stopped by depth or nodes alone. */
const HOUR_MS = 3_600_000;

async function bestmove(args: string[]): Promise<{ move: string; score: number; depth: number; nodes: number; pv: string[] }> {
  const out: string[] = [];
  const output: Output = { out: (l) => out.push(l), err: () => {}, interactive: false };
  expect(await main(['bestmove', ...args, '--json'], output)).toBe(0);
  return JSON.parse(out.at(-1)!) as { move: string; score: number; depth: number; nodes: number; pv: string[] };
}

describe('the command line and the bench search as the bots do', () => {
  it.each(GAME_IDS)('%s: bestmove --depth and --nodes answer as the engine bot thinking to that depth or node count', async (game) => {
    const { rules } = GAMES[game];
    const { moves, depth, nodes } = CASES[game];
    const played = replay(rules, rules.start(), moves);
    if (!played.ok) throw new Error(played.error.message);
    const position = played.value.positions.at(-1)!;
    const asBot = (limits: { maxDepth?: number; nodeLimit?: number }) => {
      const r = engineWithBudget(game, HOUR_MS).think(position, { deadline: Infinity, ...limits });
      return { move: rules.formatMove(r.move), score: r.score, depth: r.depth, nodes: r.nodes, pv: r.pv.map((m) => rules.formatMove(m)) };
    };

    const toDepth = await bestmove([game, '--moves', moves, '--depth', String(depth)]);
    expect(toDepth).toMatchObject(asBot({ maxDepth: depth }));
    expect(toDepth.depth).toBeLessThanOrEqual(depth);
    const toNodes = await bestmove([game, '--moves', moves, '--nodes', String(nodes)]);
    expect(toNodes).toMatchObject(asBot({ nodeLimit: nodes }));
  });
});
