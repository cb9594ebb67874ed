import { copyFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { AnalysisStatus, GameView } from '../../shared/protocol/index.js';
import { Client, expectOk, playScripted } from '../support/server.js';
import { ARTIFACTS, startStack, type Stack } from './stack.js';

// A finished game's analysis in Debian's Chromium, against the built server, a redis-server and a
// BullMQ bot worker (which runs the analysis job), at 20 ms a position.
let stack: Stack;

beforeAll(async () => {
  stack = await startStack('analysis', { ANALYSIS_PLY_MS: '20' });
}, 60_000);

afterAll(async () => {
  await stack?.close();
}, 30_000);

const step = (page: Page) => page.textContent('[data-testid="step"]');

describe('post-game analysis in Chromium', () => {
  it('a finished game gets its graph, one point per ply, and the unblocked three marked ?? with the move that stops it', async () => {
    // Black makes an open three (h8 i8 j8); white plays a5 on the edge and black's four wins.
    const moves = ['h8', 'a1', 'i8', 'a3', 'j8', 'a5', 'k8', 'a7', 'l8'];
    const { gameId, view } = await playScripted(stack.url, 'gomoku', moves);
    expect(view.status).toBe('finished');
    const { page } = await stack.newPage();
    await page.goto(`/replay/${gameId}`);
    await page.click('[data-testid="analyse"]');
    await page.waitForSelector('[data-testid="analysis-graph"]', { timeout: 30_000 });

    // One clickable point per ply (the start and each move), as the server's analysis has.
    const status = (await (await fetch(`${stack.url}/api/games/${gameId}/analysis`)).json()) as { status: AnalysisStatus };
    expect(status.status.state).toBe('done');
    const analysis = (status.status as Extract<AnalysisStatus, { state: 'done' }>).analysis;
    expect(analysis.evaluations).toHaveLength(moves.length + 1);
    expect(await page.locator('.analysis-hit').count()).toBe(moves.length + 1);

    // The move list carries the marks the analysis gave, the blunder among them, with its best move.
    const marked = analysis.moves.filter((m) => m.mark);
    expect(await page.locator('[data-testid="moves"] .move-mark').count()).toBe(marked.length);
    const blunder = page.locator('[data-testid="moves"] .mv[data-step="6"] .move-mark');
    expect(await blunder.getAttribute('data-mark')).toBe('blunder');
    expect(await blunder.textContent()).toBe('??');
    expect(['g8', 'k8', 'f8', 'l8']).toContain(await blunder.getAttribute('data-best'));

    // A click on the graph goes to that ply; the line under the graph names the better move.
    await page.click('.analysis-hit[data-ply="6"]', { force: true });
    expect(await step(page)).toBe(`move 6 of ${moves.length}`);
    expect(await page.textContent('[data-testid="analysis-note"]')).toContain('Blunder');
    expect(await page.textContent('[data-testid="best-move"]')).toBe(await blunder.getAttribute('data-best'));
    await page.click('.analysis-hit[data-ply="2"]', { force: true });
    expect(await step(page)).toBe(`move 2 of ${moves.length}`);

    // Opened again, the cached analysis shows at once: no button, the same graph.
    await page.reload();
    await page.waitForSelector('[data-testid="analysis-graph"]');
    expect(await page.locator('[data-testid="analyse"]').count()).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS}/analysis-gomoku.png` });
  });

  it('a longer game: the engine against the random bot, graph and marks, for the README', async () => {
    const host = await new Client(stack.url).connected();
    const created = expectOk(await host.ask<{ gameId: string }>('room:create', { game: 'minichess', seats: { black: { kind: 'bot', bot: 'engine-1' }, white: { kind: 'bot', bot: 'random' } } }));
    await host.waitFor<{ view: GameView }>('ended', (e) => e.view.id === created.gameId, 60_000);
    host.close();
    const { page } = await stack.newPage();
    await page.goto(`/replay/${created.gameId}`);
    await page.click('[data-testid="analyse"]');
    await page.waitForSelector('[data-testid="analysis-graph"]', { timeout: 30_000 });
    expect(await page.locator('[data-testid="moves"] .move-mark').count()).toBeGreaterThan(0);
    const marked = page.locator('[data-testid="moves"] .move-mark').first();
    await marked.click();
    expect(await page.textContent('[data-testid="analysis-note"]')).toMatch(/best was/);
    await page.screenshot({ path: `${ARTIFACTS}/analysis.png` });
    if (process.env.UPDATE_SCREENSHOTS === '1') copyFileSync(`${ARTIFACTS}/analysis.png`, fileURLToPath(new URL('../../docs/screenshots/analysis.png', import.meta.url)));
  });
});
