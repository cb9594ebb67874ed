import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { myTurnOrEnd, playOne, ply, SCREEN } from './drive.js';
import { ADMIN_TOKEN, ARTIFACTS, startStack, type Stack } from './stack.js';

// Globals of the page, used inside page.evaluate callbacks (the project's tsconfig has no DOM lib).
declare const document: any; // eslint-disable-line @typescript-eslint/no-explicit-any

// A new player signs up, gets a rated game against a bot from quick pairing, and sees its rating
// move in the result banner, on the leaderboard and on its profile.
let stack: Stack;
beforeAll(async () => {
  stack = await startStack('browser-ratings');
}, 60_000);
afterAll(async () => {
  await stack?.close();
}, 30_000);

describe('accounts and ratings in Chromium', () => {
  it('sign up, quick pairing falls back to a bot, a rated game, the rating change in the banner and on the leaderboard', async () => {
    const { page, context } = await stack.newPage();
    const name = `Rita${Math.floor(Math.random() * 1e4)}`;
    await page.goto('/');
    await page.click('[data-testid="sign-in-link"]');
    await page.waitForURL(/\/account/);
    await page.fill('[data-testid="account-name"]', name);
    await page.fill('[data-testid="account-password"]', 'short');
    await page.click('[data-testid="sign-up"]');
    await page.waitForSelector('[data-testid="account-error"]:not([hidden])');
    expect(await page.textContent('[data-testid="account-error"]')).toMatch(/at least 8/);
    await page.fill('[data-testid="account-password"]', 'a long enough password');
    await page.click('[data-testid="sign-up"]');
    await page.waitForURL((url) => url.pathname === '/');
    expect(await page.textContent('[data-testid="account-name-link"]')).toBe(name);
    // The session is a cookie the page's scripts cannot read.
    expect(await page.evaluate(() => document.cookie)).not.toContain('boardroom_session');
    expect((await context.cookies()).find((c) => c.name === 'boardroom_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });

    await page.selectOption('[data-testid="seek-game"]', 'othello');
    expect(await page.isChecked('[data-testid="seek-rated"]')).toBe(true);
    await page.click('[data-testid="seek"]');
    await page.waitForSelector('[data-testid="seek-waiting"]');
    await page.waitForSelector('[data-testid="seek-bot"]:not([hidden])', { timeout: 15_000 });
    await page.click('[data-testid="seek-bot"]');
    await page.waitForURL(/\/game\/[^/]+$/);
    await page.waitForSelector(`${SCREEN}[data-status="live"]`);
    const gameId = page.url().split('/').pop()!;

    // Both sides move (so the game counts), then the player resigns.
    while ((await ply(page)) < 2) {
      if (await myTurnOrEnd(page)) await playOne(page, 'othello');
      await page.waitForFunction((n) => Number(document.querySelector('.game-screen')?.getAttribute('data-ply')) > n, await ply(page), { timeout: 20_000 }).catch(() => undefined);
    }
    await page.click('[data-testid="resign"]');
    await page.click('[data-testid="resign"]');
    await page.waitForSelector('[data-testid="result"][data-reason="resignation"]');
    const change = await page.textContent('[data-testid="rating-change"]');
    expect(change).toContain(`${name} 1500 → `);
    expect(change).toMatch(/\(−\d+\)/); // a loss lowers the player's rating
    await page.screenshot({ path: `${ARTIFACTS}/rated-result.png` });

    const record = (await (await fetch(`${stack.url}/api/games/${gameId}`)).json()) as { players: Record<string, { kind: string; name: string }> };
    const bot = Object.values(record.players).find((p) => p.kind === 'bot')!.name;
    await page.click('[data-testid="nav-ratings"]');
    await page.click('[data-testid="ratings-tab-othello"]');
    await page.waitForSelector('[data-testid="leaderboard"]');
    expect(await page.getAttribute(`[data-testid="leaderboard-row"][data-name="${name}"]`, 'data-kind')).toBe('person');
    expect(await page.getAttribute(`[data-testid="leaderboard-row"][data-name="${bot}"]`, 'data-kind')).toBe('bot');
    const rows = await page.$$eval('[data-testid="leaderboard-row"]', (els) => els.map((e) => e.getAttribute('data-name')));
    expect(rows.indexOf(bot)).toBeLessThan(rows.indexOf(name)); // the winner above the loser
    await page.screenshot({ path: `${ARTIFACTS}/leaderboard.png` });

    await page.click(`[data-testid="leaderboard-row"][data-name="${name}"] a`);
    await page.waitForSelector('[data-testid="profile"]');
    expect(await page.textContent('[data-testid="profile-ratings"]')).toContain('Othello');
    expect(await page.textContent('[data-testid="profile-games"]')).toContain(bot);
    await page.screenshot({ path: `${ARTIFACTS}/profile.png` });
    await context.close();
  }, 90_000);

  it('signing out on one page shows the other open page of the session signed out, with the reason', async () => {
    const { page, context } = await stack.newPage();
    const name = `Sol${Math.floor(Math.random() * 1e4)}`;
    expect((await context.request.post('/api/account/signup', { data: { name, password: 'a long enough password' } })).status()).toBe(201);
    await page.goto('/');
    expect(await page.textContent('[data-testid="account-name-link"]')).toBe(name);
    const other = await context.newPage();
    await other.goto('/ratings');
    expect(await other.textContent('[data-testid="account-name-link"]')).toBe(name);
    await page.click('[data-testid="sign-out"]');
    await other.waitForSelector('[data-testid="sign-in-link"]');
    expect(await other.textContent('[data-testid="session-ended"]')).toMatch(/signed out/);
  });
});

describe('a store that came back empty, in the admin console', () => {
  it('shows a banner that stays, on an open console and on one opened after it', async () => {
    const signIn = async () => {
      const { page } = await stack.newPage();
      expect((await page.request.post('/admin/api/session', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).status()).toBe(201);
      await page.goto('/admin');
      await page.waitForSelector('.conn-online');
      return page;
    };
    const open = await signIn();
    expect(await open.$('[data-testid="store-emptied"]')).toBeNull();
    await stack.redis.client().flushall();
    await open.waitForSelector('[data-testid="store-emptied"]', { timeout: 10_000 });
    expect(await open.textContent('[data-testid="store-emptied"]')).toMatch(/accounts, sessions, ratings and agents are gone/);
    // It stays: through another page and back to the console.
    await open.click('[data-testid="nav-lobby"]');
    await open.click('[data-testid="nav-admin"]');
    await open.waitForSelector('[data-testid="store-emptied"]');
    const late = await signIn();
    await late.waitForSelector('[data-testid="store-emptied"]');
    await open.screenshot({ path: `${ARTIFACTS}/admin-store-emptied.png` });
  });
});
