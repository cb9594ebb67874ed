import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { myTurnOrEnd, playOne, ply, SCREEN } from './drive.js';
import { startStack, type Stack } from './stack.js';

// Two people signed up as two accounts use quick pairing for the same game. The second seek is
// paired at once, so its page hears `seek:paired` before the seek's answer: both pages must still
// reach the game and play it.
let stack: Stack;
beforeAll(async () => {
  stack = await startStack('browser-pairing');
}, 60_000);
afterAll(async () => {
  await stack?.close();
}, 30_000);

async function signedUpPage(name: string): Promise<Page> {
  const { page, context } = await stack.newPage();
  const made = await context.request.post('/api/account/signup', { data: { name, password: 'a long enough password' } });
  expect(made.status()).toBe(201);
  await page.goto('/');
  await page.waitForSelector(`[data-testid="account-name-link"]:text-is("${name}")`);
  return page;
}

async function seekGomoku(page: Page): Promise<void> {
  await page.selectOption('[data-testid="seek-game"]', 'gomoku');
  expect(await page.isChecked('[data-testid="seek-rated"]')).toBe(true);
  await page.click('[data-testid="seek"]');
}

describe('quick pairing between two people in Chromium', () => {
  it('both pages reach the same game and each sees the move the other makes', async () => {
    const suffix = Math.floor(Math.random() * 1e4);
    const pages = [await signedUpPage(`Ann${suffix}`), await signedUpPage(`Bob${suffix}`)];
    await seekGomoku(pages[0]!);
    await pages[0]!.waitForSelector('[data-testid="seek-waiting"]');
    await seekGomoku(pages[1]!); // the pairing is made at once, by this seek
    for (const page of pages) await page.waitForURL(/\/game\/[^/]+$/, { timeout: 5000 });
    expect(pages[0]!.url()).toBe(pages[1]!.url());
    for (const page of pages) await page.waitForSelector(`${SCREEN}[data-status="live"]`);

    for (let moves = 0; moves < 2; moves++) {
      const [mover, other] = (await pages[0]!.getAttribute(SCREEN, 'data-my-turn')) === 'true' ? [pages[0]!, pages[1]!] : [pages[1]!, pages[0]!];
      expect(await myTurnOrEnd(mover)).toBe(true);
      await playOne(mover, 'gomoku');
      await other.waitForSelector(`${SCREEN}[data-ply="${moves + 1}"]`);
      expect(await ply(other)).toBe(moves + 1);
    }
  }, 60_000);
});
