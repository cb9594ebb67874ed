import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, sideways, type AxeViolation } from './audit.js';
import { createRoom, myTurnOrEnd, SCREEN } from './drive.js';
import { ADMIN_TOKEN, ARTIFACTS, startStack, type Stack } from './stack.js';

// Globals of the page, used inside page.evaluate callbacks (the project's tsconfig has no DOM lib).
declare const document: any, window: any, getComputedStyle: any; // eslint-disable-line @typescript-eslint/no-explicit-any

// Every page of the client as a new player and an admin meet it, on a 375 px phone and on a
// desktop: nothing scrolls sideways, one heading names the page, axe-core finds nothing; the
// header shows what each may use; the keyboard reaches the lobby's primary actions first; the
// leaderboard explains its figures; a rated result reads plainly.
let stack: Stack;
beforeAll(async () => {
  stack = await startStack('browser-pages');
}, 60_000);
afterAll(async () => {
  await stack?.close();
}, 30_000);

const PHONE = { viewport: { width: 375, height: 812 }, mobile: true };

interface Health {
  readonly overflow: number;
  readonly widest: string | null;
  readonly headingsOne: number;
  readonly violations: AxeViolation[];
}

async function health(page: Page): Promise<Health> {
  await page.waitForTimeout(150); // the page's last render
  const { overflow, widest } = await sideways(page);
  const headingsOne = await page.locator('h1').count();
  return { overflow, widest: overflow > 0 ? widest : null, headingsOne, violations: await axeViolations(page) };
}

const HEALTHY: Health = { overflow: 0, widest: null, headingsOne: 1, violations: [] };

async function signUp(page: Page, name: string): Promise<void> {
  const res = await page.request.post('/api/account/signup', { data: { name, password: 'a long enough password' } });
  expect(res.status()).toBe(201);
}

async function adminSession(page: Page): Promise<void> {
  const res = await page.request.post('/admin/api/session', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(res.status()).toBe(201);
}

/** Visits every page (lobby, account, a live game, its result, its replay, leaderboard, profile, admin console) and reports each one's health. */
async function walk(page: Page, label: string): Promise<Record<string, Health>> {
  const found: Record<string, Health> = {};
  const visit = async (name: string, ready: string) => {
    await page.waitForSelector(ready);
    found[name] = await health(page);
    await page.screenshot({ path: `${ARTIFACTS}/pages-${label}-${name}.png` });
  };
  await page.goto('/');
  await page.locator('[data-testid="seat-black"] option[value^="bot:"]').first().waitFor({ state: 'attached' });
  await visit('lobby', '[data-testid="net-status"][data-state="online"]');
  // The header's ends stay on the screen.
  for (const testid of ['sign-in-link', 'net-status']) {
    const box = (await page.locator(`[data-testid="${testid}"]`).boundingBox())!;
    expect(box.x + box.width, `${testid} on a ${label}`).toBeLessThanOrEqual(await page.evaluate(() => window.innerWidth));
  }
  await page.goto('/account');
  await visit('account', '[data-testid="account-name"]');

  const name = `Page${label}${Math.floor(Math.random() * 1e5)}`;
  await signUp(page, name);
  await page.goto('/');
  const gameId = await createRoom(page, { game: 'minichess', black: 'bot:random', white: 'human', sit: 'white', name });
  await myTurnOrEnd(page);
  await visit('game', `${SCREEN}[data-status="live"]`);
  await page.click('[data-testid="resign"]');
  await page.click('[data-testid="resign"]');
  await visit('result', '[data-testid="result"]:not([hidden])');
  await page.goto(`/replay/${gameId}`);
  await visit('replay', `${SCREEN}`);
  await page.goto('/ratings/minichess');
  await visit('ratings', '[data-testid="leaderboard"]');
  await page.goto(`/players/${name}`);
  await visit('profile', '[data-testid="profile"]');
  // A live game for the console's table: the player's first move is not due on a game without a clock.
  await createRoom(page, { game: 'othello', black: 'human', white: 'bot:random', sit: 'black', time: 'none', name });
  await adminSession(page);
  await page.goto('/admin');
  await visit('admin', '[data-testid="game-row"]');
  return found;
}

describe('every page, on a phone and on a desktop', () => {
  it('at 375 px nothing scrolls sideways, each page has one h1, and axe-core finds no violation of any impact', async () => {
    const { page, context } = await stack.newPage(PHONE);
    const found = await walk(page, 'phone');
    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((k) => [k, HEALTHY])));
    expect(Object.keys(found)).toHaveLength(8);
    // The console's table fits the phone without scrolling inside its frame, and the header's parts do not overlap.
    expect(await page.$eval('.live-scroll', (el: any) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0); // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(await page.evaluate(() => { const all = [...document.querySelectorAll('.brand, .top-nav a, .account-box > *, .net-status')].map((e: any) => e.getBoundingClientRect()); return all.some((a: any, i: number) => all.some((b: any, j: number) => i < j && a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom && b.top < a.bottom)); })).toBe(false); // eslint-disable-line @typescript-eslint/no-explicit-any
    await context.close();
  }, 90_000);

  it('at 1280 px the same pages have one h1 and no axe-core violation', async () => {
    const { page, context } = await stack.newPage();
    const found = await walk(page, 'desktop');
    expect(found).toEqual(Object.fromEntries(Object.keys(found).map((k) => [k, HEALTHY])));
    await context.close();
  }, 90_000);
});

describe('the header', () => {
  it('shows the Admin link to admins only', async () => {
    const { page, context } = await stack.newPage();
    await page.goto('/');
    await page.waitForSelector('[data-testid="net-status"][data-state="online"]');
    expect(await page.locator('[data-testid="nav-admin"]').count()).toBe(0);
    await signUp(page, `NotAdmin${Math.floor(Math.random() * 1e5)}`);
    await page.reload();
    await page.waitForSelector('[data-testid="account-name-link"]');
    expect(await page.locator('[data-testid="nav-admin"]').count()).toBe(0);
    await adminSession(page);
    await page.reload();
    await page.waitForSelector('[data-testid="nav-admin"]');
    // Signing out of the console takes it away again.
    await page.request.post('/admin/api/signout');
    await page.reload();
    await page.waitForSelector('[data-testid="net-status"][data-state="online"]');
    expect(await page.locator('[data-testid="nav-admin"]').count()).toBe(0);
    await context.close();
  }, 30_000);
});

describe('the lobby by keyboard', () => {
  it('a skip link comes first, "You vs a bot" is one Tab past it, and "Create room" a few more', async () => {
    const { page, context } = await stack.newPage();
    await page.goto('/');
    await page.locator('[data-testid="seat-black"] option[value^="bot:"]').first().waitFor({ state: 'attached' });
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.textContent ?? null);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('skip-link');
    await page.waitForFunction(() => document.activeElement.getBoundingClientRect().top >= 0, undefined, { timeout: 2000 }); // shown when focused
    await page.keyboard.press('Enter');
    const tabsTo = async (testid: string, most: number): Promise<number> => {
      for (let n = 1; n <= most; n++) {
        await page.keyboard.press('Tab');
        if ((await focused()) === testid) return n;
      }
      return Infinity;
    };
    expect(await tabsTo('preset-bot', 3)).toBe(1);
    await page.keyboard.press('Enter');
    const toCreate = await tabsTo('create', 12);
    expect(toCreate).toBeLessThanOrEqual(9);
    // The arrow keys move within a group, whose one Tab stop follows the choice.
    await page.focus('[data-testid="game-picker"] [data-value="othello"]');
    await page.keyboard.press('ArrowRight');
    expect(await page.evaluate(() => document.activeElement.getAttribute('data-value'))).toBe('gomoku');
    expect(await page.getAttribute('[data-testid="game-picker"] [data-value="gomoku"]', 'aria-checked')).toBe('true');
    expect(await page.locator('[data-testid="game-picker"] [tabindex="0"]').count()).toBe(1);
    await context.close();
  }, 30_000);
});

describe('ratings explained', () => {
  it('the leaderboard and a profile say what "?" and RD mean', async () => {
    const { page, context } = await stack.newPage();
    await page.goto('/ratings/othello');
    await page.waitForSelector('[data-testid="leaderboard"]');
    const legend = await page.textContent('[data-testid="rating-legend"]');
    expect(legend).toMatch(/\?.*provisional/i);
    expect(legend).toMatch(/RD.*rating deviation/i);
    expect(await page.getAttribute('[data-testid="leaderboard"] th abbr', 'title')).toMatch(/rating deviation/i);
    await page.goto('/players/random');
    await page.waitForSelector('[data-testid="profile"]');
    expect(await page.textContent('[data-testid="rating-legend"]')).toMatch(/RD.*rating deviation/i);
    await context.close();
  }, 30_000);
});

describe('a rated result', () => {
  it('reads in one column, and its "not rated in the end" note is as legible as the rest of the banner', async () => {
    const { page, context } = await stack.newPage(PHONE);
    const name = `Banner${Math.floor(Math.random() * 1e5)}`;
    await signUp(page, name);
    await page.goto('/');
    await page.waitForSelector('[data-testid="rated"]');
    await page.check('[data-testid="rated"]');
    await createRoom(page, { game: 'othello', black: 'human', white: 'bot:random', sit: 'black', name });
    await page.click('[data-testid="resign"]');
    await page.click('[data-testid="resign"]');
    await page.waitForSelector('[data-testid="result"]:not([hidden])');
    const banner = await page.evaluate(() => {
      const b = document.querySelector('[data-testid="result"]');
      const note = b.querySelector('[data-testid="rating-note"]');
      const lines = [...b.children].map((c: any) => c.getBoundingClientRect()); // eslint-disable-line @typescript-eslint/no-explicit-any
      return {
        note: note?.textContent ?? null,
        noteColor: note ? getComputedStyle(note).color : null,
        bannerColor: getComputedStyle(b).color,
        stacked: lines.every((r: any, i: number) => i === 0 || r.top >= lines[i - 1].bottom - 1), // eslint-disable-line @typescript-eslint/no-explicit-any
      };
    });
    await page.screenshot({ path: `${ARTIFACTS}/pages-rated-result.png` });
    expect(banner.note).toMatch(/not rated/i);
    expect(banner.noteColor).toBe(banner.bannerColor);
    expect(banner.stacked).toBe(true);
    await context.close();
  }, 30_000);
});
