import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoom, SCREEN } from './drive.js';
import { startStack, type Stack } from './stack.js';

// A game nobody starts, seen in Chromium: both players' pages say it was aborted, and no one won.
let stack: Stack;

beforeAll(async () => {
  stack = await startStack('abort', { FIRST_MOVE_GRACE_MS: '2000' });
}, 60_000);

afterAll(async () => {
  await stack?.close();
}, 30_000);

describe('a game whose first move never comes, in Chromium', () => {
  it('is aborted on both players’ pages, and the lobby and the replay name no winner', async () => {
    const ann = await stack.newPage();
    const bob = await stack.newPage();
    await bob.page.goto('/');
    await bob.page.waitForSelector('[data-testid="rooms-open"]');
    const gameId = await createRoom(ann.page, { game: 'othello', black: 'human', white: 'human', sit: 'black', time: 'bank', name: 'Ann' });
    const row = bob.page.locator(`[data-room="${gameId}"]`);
    await row.waitFor();
    await bob.page.fill('[data-testid="name"]', 'Bob');
    await row.locator('[data-testid="join"]').click();
    await bob.page.waitForSelector(`${SCREEN}[data-my-color="white"][data-status="live"]`);

    for (const { page } of [ann, bob]) {
      await page.waitForSelector(`${SCREEN}[data-status="finished"] [data-testid="result"][data-outcome="aborted"]`, { timeout: 10_000 });
      expect(await page.textContent('[data-testid="result"] .headline')).toBe('No result');
      expect(await page.textContent('[data-testid="result"] .detail')).toContain('Aborted: no first move');
    }

    await bob.page.goto('/');
    const finished = bob.page.locator(`[data-testid="rooms-finished"] [data-room="${gameId}"]`);
    await finished.waitFor();
    expect(await finished.textContent()).toContain('aborted: no first move');
    expect(await finished.textContent()).not.toMatch(/won|draw/);

    await ann.page.goto(`/replay/${gameId}`);
    await ann.page.waitForSelector('[data-testid="result"]');
    expect(await ann.page.textContent('[data-testid="result"] .headline')).toBe('No result');
    await ann.context.close();
    await bob.context.close();
  }, 60_000);
});
