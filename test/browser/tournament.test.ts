import type { Page } from 'playwright-core';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TournamentView } from '../../shared/protocol/index.js';
import { adminPost } from '../support/tournaments.js';
import { playToEnd } from './drive.js';
import { startStack, type Stack } from './stack.js';

declare const document: any; // eslint-disable-line @typescript-eslint/no-explicit-any

// A person signs up, finds a Swiss in the lobby's list, joins it, and plays each of its games
// against the roster bots from the tournament page's "Play your game"; the standings and the
// crosstable change as the games end. The finished page is the README's screenshot.
const SHOTS = fileURLToPath(new URL('../../docs/screenshots', import.meta.url));
let stack: Stack;
beforeAll(async () => {
  stack = await startStack('browser-tournament', { TOURNAMENT_TICK_MS: '200' });
}, 60_000);
afterAll(async () => {
  await stack?.close();
}, 30_000);

const crossCells = async (page: Page): Promise<string[]> => page.$$eval('[data-testid="cross-cell"]', (cells) => cells.map((c) => c.textContent ?? ''));
const myPoints = async (page: Page, me: string): Promise<string | null> => page.getAttribute(`[data-testid="standing-row"][data-id="${me}"]`, 'data-points');

describe('a Swiss in Chromium', () => {
  it('sign up, join from the lobby, play every game against bots, watch standings and crosstable change', async () => {
    const name = `Swiss${Math.floor(Math.random() * 1e4)}`;
    const me = `person:${name.toLowerCase()}`;
    const { tournament } = await adminPost<{ tournament: TournamentView }>(stack.url, '/tournaments', { name: 'Evening Swiss', game: 'othello', format: 'swiss', rounds: 2, timeControl: { kind: 'per-move', moveMs: 20_000 }, bots: ['random', 'engine-1', 'engine-2'] });
    const { page, context } = await stack.newPage();
    expect((await context.request.post('/api/account/signup', { data: { name, password: 'a long enough password' } })).status()).toBe(201);
    await page.goto('/');
    await page.click(`[data-testid="tournament-line"][data-id="${tournament.id}"] [data-testid="tournament-link"]`);
    await page.waitForURL(`**/tournaments/${tournament.id}`);
    await page.click('[data-testid="tournament-join"]');
    await page.waitForSelector(`[data-testid="standing-row"][data-id="${me}"]`);
    await page.waitForSelector('[data-testid="tournament-withdraw"]');
    await adminPost(stack.url, `/tournaments/${tournament.id}/start`, {});

    let before = await crossCells(page);
    expect(before.filter((c) => c !== '')).toEqual([]);
    for (let round = 1; round <= 2; round++) {
      await page.click('[data-testid="tournament-play"]', { timeout: 20_000 });
      await page.waitForURL(/\/game\/[^/]+$/);
      await playToEnd(page, 'othello');
      await page.goto(`/tournaments/${tournament.id}`);
      // Each round's two games fill four cells, once this page has heard them end (the bots' game may still be on).
      await page.waitForFunction((n) => [...document.querySelectorAll('[data-testid="cross-cell"]')].filter((c: { textContent: string }) => c.textContent !== '').length >= n, round * 4, { timeout: 60_000 });
      const after = await crossCells(page);
      expect(after.filter((c) => c !== '').length, `round ${round}`).toBe(round * 4);
      expect(after).not.toEqual(before);
      before = after;
    }
    await page.waitForSelector('[data-testid="tournament-status"]:has-text("finished")', { timeout: 60_000 });
    const final = await (await fetch(`${stack.url}/api/tournaments/${tournament.id}`)).json() as { tournament: TournamentView };
    const row = final.tournament.standings.find((r) => r.id === me)!;
    expect(row.games).toBe(2);
    expect(await myPoints(page, me)).toBe(String(row.points));
    expect(await page.textContent('[data-testid="standings"]')).toContain(name);
    await page.screenshot({ path: `${SHOTS}/tournament.png`, fullPage: true });
  }, 170_000);
});
