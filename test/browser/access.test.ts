import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { Client, expectOk } from '../support/server.js';
import { axeViolations } from './audit.js';
import { BOARD, createRoom, myTurnOrEnd, ply, SCREEN } from './drive.js';
import { ADMIN_TOKEN, ARTIFACTS, startStack, type Stack } from './stack.js';

// Globals of the page, used inside page.evaluate callbacks (the project's tsconfig has no DOM lib).
declare const document: any, window: any, localStorage: any; // eslint-disable-line @typescript-eslint/no-explicit-any

// The board by keyboard and screen reader, move confirmation and zoom on a phone, sound, and
// axe-core's verdict (no violation of any impact) on the lobby, a game and the admin console, in Debian's Chromium.
let stack: Stack;
const GRID = `${BOARD} [role="grid"]`;

beforeAll(async () => {
  stack = await startStack('access');
}, 60_000);

afterAll(async () => {
  await stack?.close();
}, 30_000);

const shot = (page: Page, name: string) => page.screenshot({ path: `${ARTIFACTS}/${name}.png` });

async function recordMoves(gameId: string): Promise<string[]> {
  return ((await (await fetch(`${stack.url}/api/games/${gameId}`)).json()) as { moves: string[] }).moves;
}

/** Counts the oscillators the page starts: one per move sound. */
async function countTones(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.__tones = 0;
    const proto = window.AudioContext?.prototype;
    if (!proto) return;
    const make = proto.createOscillator;
    proto.createOscillator = function (this: unknown) {
      window.__tones++;
      return make.call(this);
    };
  });
}

const tones = (page: Page): Promise<number> => page.evaluate(() => window.__tones as number);

describe('accessibility and touch', () => {
  it('plays an Othello move with the keyboard alone, each square a labelled button, each move announced', async () => {
    const { page, context } = await stack.newPage();
    await countTones(page);
    await page.goto('/');
    const gameId = await createRoom(page, { game: 'othello', black: 'human', white: 'bot:random', sit: 'black', name: 'Kay' });
    expect(await myTurnOrEnd(page)).toBe(true);

    // 64 buttons in an ARIA grid, one of them in the tab order.
    expect(await page.locator(`${GRID} [role="row"]`).count()).toBe(8);
    expect(await page.locator(`${GRID} [role="gridcell"] button`).count()).toBe(64);
    expect(await page.locator(`${GRID} button[tabindex="0"]`).count()).toBe(1);
    expect(await page.getAttribute(`${GRID} [data-square="d3"]`, 'aria-label')).toBe('d3, empty, legal move');
    expect(await page.getAttribute(`${GRID} [data-square="d4"]`, 'aria-label')).toBe('d4, white disc');
    expect(await page.getAttribute(`${GRID} [data-square="a1"]`, 'aria-label')).toBe('a1, empty');

    // Tab from the page's start reaches the board's one tab stop, a legal square.
    await page.evaluate(() => document.activeElement?.blur());
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-square') ?? null);
    for (let i = 0; i < 40 && (await focused()) === null; i++) await page.keyboard.press('Tab');
    const start = await focused();
    expect(start).not.toBeNull();
    expect(await page.evaluate(() => document.activeElement.getAttribute('aria-label'))).toMatch(/, empty, legal move$/);

    // Arrows move the focus and the tab stop with it; Home goes to the row's start.
    await page.keyboard.press('ArrowRight');
    const right = await focused();
    expect(right).not.toBe(start);
    expect(right![1]).toBe(start![1]);
    expect(await page.getAttribute(`${GRID} [data-square="${right}"]`, 'tabindex')).toBe('0');
    expect(await page.getAttribute(`${GRID} [data-square="${start}"]`, 'tabindex')).toBe('-1');
    await page.keyboard.press('Home');
    expect(await focused()).toBe(`a${start![1]}`);
    await page.keyboard.press('End');
    expect(await focused()).toBe(`h${start![1]}`);

    // Walk to d3 (a legal first move) and play it with Enter.
    const walk = async (target: string) => {
      for (let i = 0; i < 16; i++) {
        const at = (await focused())!;
        if (at === target) return;
        const key = at[0]! < target[0]! ? 'ArrowRight' : at[0]! > target[0]! ? 'ArrowLeft' : at[1]! < target[1]! ? 'ArrowDown' : 'ArrowUp';
        await page.keyboard.press(key);
      }
    };
    await walk('d3');
    expect(await focused()).toBe('d3');
    await page.keyboard.press('Enter');
    await page.waitForFunction((sel) => Number(document.querySelector(sel)?.getAttribute('data-ply')) >= 1, SCREEN);
    expect((await recordMoves(gameId))[0]).toBe('d3');
    // The focus stays on the board, on the square just played, now a black disc.
    expect(await focused()).toBe('d3');
    await page.waitForFunction((sel) => /^d3, black disc/.test(document.querySelector(sel)?.getAttribute('aria-label') ?? ''), `${GRID} [data-square="d3"]`);

    // The live region says each move: ours, then the bot's.
    await page.waitForFunction((sel) => Number(document.querySelector(sel)?.getAttribute('data-ply')) >= 2, SCREEN);
    const said = await page.textContent('[data-testid="announcer"]');
    const moves = await recordMoves(gameId);
    expect(said).toMatch(new RegExp(`^White ${moves[1]}, \\d+ flipped`));
    expect(await page.getAttribute('[data-testid="announcer"]', 'aria-live')).toBe('polite');
    // Sound is on by default with a mouse: a tone for each move.
    expect(await tones(page)).toBeGreaterThanOrEqual(2);

    // Space plays too.
    expect(await myTurnOrEnd(page)).toBe(true);
    const legal = await page.$$eval(`${BOARD} [data-legal="true"]`, (els) => els.map((e) => e.getAttribute('data-cell')!));
    await page.focus(`${GRID} [data-square="${await focused()}"]`);
    await walk(legal[0]!);
    const before = await ply(page);
    await page.keyboard.press('Space');
    await page.waitForFunction(([sel, n]) => Number(document.querySelector(sel)?.getAttribute('data-ply')) > n, [SCREEN, before] as const);
    expect((await recordMoves(gameId))[before]).toBe(legal[0]);
    await shot(page, 'keyboard-play');
    await context.close();
  }, 60_000);

  it('on a phone: Gomoku moves are confirmed, the board zooms to 44 px points, the "15" stays clear, settings persist', async () => {
    const { page, context } = await stack.newPage({ viewport: { width: 375, height: 812 }, mobile: true });
    await countTones(page);
    await page.goto('/');
    const gameId = await createRoom(page, { game: 'gomoku', black: 'human', white: 'bot:random', sit: 'black', name: 'Pia' });
    expect(await myTurnOrEnd(page)).toBe(true);

    // On a touch screen, confirmation is on and sound off by default.
    await page.click('[data-testid="settings"] summary');
    expect(await page.isChecked('[data-setting="confirm"]')).toBe(true);
    expect(await page.isChecked('[data-setting="sound"]')).toBe(false);
    await page.click('[data-testid="settings"] summary');

    // Points are small at this width: 21.5 px apart.
    const pitch = async () => (await page.locator(`${GRID} [data-square="h8"]`).boundingBox())!.width;
    expect(await pitch()).toBeLessThan(30);

    // A first tap marks the point: a ghost stone and a Confirm button, nothing sent.
    await page.tap(`${BOARD} [data-cell="h8"]`);
    await page.waitForSelector(`${BOARD} [data-cell="h8"][data-marked="true"] .ghost.marked`);
    expect(await page.textContent('[data-testid="confirm-move"]')).toBe('Play h8');
    expect(await page.getAttribute(`${GRID} [data-square="h8"]`, 'aria-label')).toContain('marked');
    // Another tap elsewhere moves the mark; Confirm plays it.
    await page.tap(`${BOARD} [data-cell="g9"]`);
    expect(await page.locator(`${BOARD} [data-marked="true"]`).count()).toBe(1);
    expect(await page.getAttribute(`${BOARD} [data-cell="g9"]`, 'data-marked')).toBe('true');
    expect(await recordMoves(gameId)).toEqual([]);
    await shot(page, 'phone-gomoku-marked');
    await page.tap('[data-testid="confirm-move"]');
    await page.waitForFunction((sel) => Number(document.querySelector(sel)?.getAttribute('data-ply')) >= 1, SCREEN);
    expect((await recordMoves(gameId))[0]).toBe('g9');
    expect(await page.locator('[data-testid="confirm-move"]').count()).toBe(0);

    // Zoomed, points are 44 px apart and the board pans inside its frame; the page does not scroll sideways.
    await page.tap('[data-testid="zoom"]');
    expect(await page.getAttribute('[data-testid="zoom"]', 'aria-pressed')).toBe('true');
    await page.waitForFunction((sel) => document.querySelector(sel).getBoundingClientRect().width >= 44, `${GRID} [data-square="h8"]`);
    expect(await pitch()).toBeGreaterThanOrEqual(44);
    // The view pans to the last move, which shows whole inside the board's frame.
    const last = (await recordMoves(gameId)).at(-1)!;
    await page.waitForFunction(([port, sel]) => {
      const p = document.querySelector(port).getBoundingClientRect();
      const b = document.querySelector(sel).getBoundingClientRect();
      return b.left >= p.left && b.right <= p.right && b.top >= p.top && b.bottom <= p.bottom;
    }, [`${BOARD} .board-viewport`, `${GRID} [data-square="${last}"]`] as const);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    // A second tap on the same point plays it, here a15 in the corner, panned into view.
    expect(await myTurnOrEnd(page)).toBe(true);
    if (!(await page.getAttribute(`${BOARD} [data-cell="a15"]`, 'data-stone'))) {
      const n = await ply(page);
      await page.tap(`${BOARD} [data-cell="a15"]`);
      await page.tap(`${BOARD} [data-cell="a15"]`);
      await page.waitForFunction(([sel, p]) => Number(document.querySelector(sel)?.getAttribute('data-ply')) > p, [SCREEN, n] as const);
      expect((await recordMoves(gameId))[n]).toBe('a15');
    }
    // The rank label "15" and the stone on a15 do not overlap.
    const overlap = await page.evaluate((board) => {
      const label = [...document.querySelectorAll(`${board} .coord`)].find((t: any) => t.textContent === '15'); // eslint-disable-line @typescript-eslint/no-explicit-any
      const stone = document.querySelector(`${board} [data-cell="a15"] .stone`);
      const a = label.getBoundingClientRect();
      const b = stone.getBoundingClientRect();
      return { gap: b.left - a.right, vertical: a.top < b.bottom && b.top < a.bottom };
    }, BOARD);
    expect(overlap.vertical).toBe(true);
    expect(overlap.gap).toBeGreaterThan(0);
    await myTurnOrEnd(page);
    await shot(page, 'phone-gomoku-zoomed');
    expect(await tones(page)).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    // Confirmation off: one tap plays; the choice outlives a reload.
    await page.tap('[data-testid="zoom"]');
    await page.click('[data-testid="settings"] summary');
    await page.uncheck('[data-setting="confirm"]');
    expect(await page.evaluate(() => localStorage.getItem('boardroom:settings'))).toBe('{"confirm":false}');
    await page.click('[data-testid="settings"] summary');
    expect(await myTurnOrEnd(page)).toBe(true);
    const m = await ply(page);
    const free = await page.$$eval(`${BOARD} [data-legal="true"]`, (els) => els.map((e) => e.getAttribute('data-cell')!).filter((c) => /^[f-j](6|7|8|9|10)$/.test(c)));
    await page.tap(`${BOARD} [data-cell="${free[0]}"]`);
    await page.waitForFunction(([sel, p]) => Number(document.querySelector(sel)?.getAttribute('data-ply')) > p, [SCREEN, m] as const);
    expect((await recordMoves(gameId))[m]).toBe(free[0]);
    await page.reload();
    await page.waitForSelector(`${SCREEN}[data-my-color="black"]`);
    await page.click('[data-testid="settings"] summary');
    expect(await page.isChecked('[data-setting="confirm"]')).toBe(false);
    await context.close();
  }, 60_000);

  it('premove: a Gomoku move chosen in the opponent\'s turn is played as the turn comes, or dropped when taken', async () => {
    const { page, context } = await stack.newPage();
    await page.goto('/');
    const gameId = await createRoom(page, { game: 'gomoku', black: 'human', white: 'human', sit: 'black', name: 'Pam' });
    const friend = await new Client(stack.url).connected();
    try {
      const seat = expectOk(await friend.ask<{ seat: { token: string } }>('room:join', { gameId, name: 'Wes', color: 'white' })).seat;
      const friendMoves = (ply: number, move: string) => friend.ask('move', { gameId, token: seat.token, ply, move }).then(expectOk);
      // Off by default; turned on in the settings.
      await page.click('[data-testid="settings"] summary');
      expect(await page.isChecked('[data-setting="premove"]')).toBe(false);
      await page.check('[data-setting="premove"]');
      await page.click('[data-testid="settings"] summary');
      expect(await myTurnOrEnd(page)).toBe(true);
      await page.click(`${BOARD} [data-cell="h8"]`);
      await page.waitForSelector(`${SCREEN}[data-ply="1"]`);

      // In White's turn a click chooses a premove: shown, named, nothing sent.
      await page.click(`${BOARD} [data-cell="j10"]`);
      await page.waitForSelector(`${BOARD} [data-cell="j10"][data-premove="true"]`);
      expect(await page.getAttribute(`${GRID} [data-square="j10"]`, 'aria-label')).toBe('j10, empty, premove');
      expect(await page.textContent('[data-testid="cancel-premove"]')).toBe('Cancel premove j10');
      expect(await recordMoves(gameId)).toEqual(['h8']);
      // White moves: the premove goes at once.
      await friendMoves(1, 'i9');
      await page.waitForSelector(`${SCREEN}[data-ply="3"]`);
      expect(await recordMoves(gameId)).toEqual(['h8', 'i9', 'j10']);

      // A premove on the point White then takes is dropped, and said so; the turn is the player's.
      await page.click(`${BOARD} [data-cell="k11"]`);
      await page.waitForSelector(`${BOARD} [data-cell="k11"][data-premove="true"]`);
      await friendMoves(3, 'k11');
      await page.waitForSelector(`${SCREEN}[data-ply="4"][data-my-turn="true"]`);
      expect(await page.textContent('[data-testid="announcer"]')).toBe('White k11. Premove k11 is not legal now: dropped');
      expect(await page.locator(`${BOARD} [data-premove="true"]`).count()).toBe(0);
      expect(await recordMoves(gameId)).toEqual(['h8', 'i9', 'j10', 'k11']);
    } finally {
      friend.close();
    }
    await context.close();
  }, 60_000);

  it('axe-core finds no violation of any impact on the lobby, a game and the admin console, light and dark', async () => {
    const dark = await stack.newPage({ colorScheme: 'dark' });
    await dark.page.goto('/');
    await dark.page.waitForSelector('[data-testid="net-status"][data-state="online"]');
    const darkLobby = await axeViolations(dark.page);
    await createRoom(dark.page, { game: 'minichess', black: 'bot:random', white: 'human', sit: 'white', name: 'Noir' });
    await myTurnOrEnd(dark.page);
    expect({ lobby: darkLobby, game: await axeViolations(dark.page) }).toEqual({ lobby: [], game: [] });
    await dark.context.close();

    const { page, context } = await stack.newPage();
    await page.goto('/');
    await page.waitForSelector('[data-testid="net-status"][data-state="online"]');
    await page.locator('[data-testid="seat-black"] option[value^="bot:"]').first().waitFor({ state: 'attached' });
    const found: Record<string, unknown> = {};
    found.lobby = await axeViolations(page);

    await createRoom(page, { game: 'gomoku', black: 'human', white: 'bot:random', sit: 'black', name: 'Axel' });
    await myTurnOrEnd(page);
    await page.click(`${BOARD} [data-cell="h8"]`);
    await page.waitForFunction((sel) => Number(document.querySelector(sel)?.getAttribute('data-ply')) >= 2, SCREEN);
    // The bot's answer redraws the clocks as axe reads them: a violation must still be there half a second later.
    found.game = (await axeViolations(page)).length === 0 ? [] : await page.waitForTimeout(500).then(() => axeViolations(page));
    // Finished: the result banner is a status the screen reader reads out.
    await page.click('[data-testid="resign"]');
    await page.click('[data-testid="resign"]');
    await page.waitForSelector('[data-testid="result"][role="status"]:not([hidden])');
    found.finished = await axeViolations(page);

    await page.goto('/admin');
    await page.fill('[data-testid="admin-token"]', ADMIN_TOKEN);
    await page.press('[data-testid="admin-token"]', 'Enter');
    await page.waitForSelector('[data-testid="game-row"]');
    await page.waitForSelector('[data-testid="queue-waiting"]');
    found.admin = await axeViolations(page);
    expect(found).toEqual({ lobby: [], game: [], finished: [], admin: [] });
    await context.close();
  }, 60_000);
});
