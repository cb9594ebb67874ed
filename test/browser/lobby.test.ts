import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { RedisStore } from '../../server/store/redis-store.js';
import { seedWaitingRooms } from '../load/lobby-latency.js';
import { Client, expectOk } from '../support/server.js';
import { ARTIFACTS, startStack, type Stack } from './stack.js';

// Globals of the page, used inside page.evaluate callbacks (the project's tsconfig has no DOM lib).
declare const document: any; // eslint-disable-line @typescript-eslint/no-explicit-any

// The lobby's pages in Chromium: 120 waiting rooms written straight into the store, shown a page
// at a time, filtered by game, with the quick-pairing card first throughout.
let stack: Stack;
let seeded: string[];
const ROOMS = 120;

beforeAll(async () => {
  stack = await startStack('lobbypages');
  seeded = await seedWaitingRooms(new RedisStore(stack.redis.client(), 'lobbypages:'), ROOMS, Date.now() - 3_600_000);
}, 60_000);

afterAll(async () => {
  await stack?.close();
}, 30_000);

const OPEN_ROOMS = '[data-testid="rooms-open"] li.room';
const shownRooms = (page: Page) => page.locator(OPEN_ROOMS).evaluateAll((items) => items.map((li) => li.getAttribute('data-room') ?? ''));
const firstCard = (page: Page) => page.locator('.room-lists > *').first().getAttribute('data-testid');

describe('the lobby in pages', () => {
  it('shows one page of the open rooms, the next page the rest, and a filter by game only that game; the quick-pairing card stays first', async () => {
    const { page } = await stack.newPage();
    await page.goto('/');
    await page.waitForSelector('[data-testid="net-status"][data-state="online"]');
    await page.waitForFunction((selector) => document.querySelectorAll(selector).length > 0, OPEN_ROOMS);
    expect(await firstCard(page)).toBe('quick-pair');
    const first = await shownRooms(page);
    expect(first.length).toBeLessThan(ROOMS);
    expect(first).toEqual([...seeded].reverse().slice(0, first.length));
    expect(await page.locator('[data-testid="rooms-open"]').locator('xpath=..').locator('.count-pill').textContent()).toBe(String(ROOMS));

    await page.click('[data-testid="rooms-open-next"]');
    await page.waitForFunction((id) => !document.querySelector(`[data-testid="rooms-open"] li[data-room="${id}"]`), first[0]);
    const second = await shownRooms(page);
    expect([...first, ...second]).toEqual([...seeded].reverse());
    expect(await page.isDisabled('[data-testid="rooms-open-next"]')).toBe(true);
    await page.screenshot({ path: `${ARTIFACTS}/lobby-second-page.png` });

    await page.selectOption('[data-testid="filter-game"]', 'gomoku');
    await page.waitForFunction((selector) => [...document.querySelectorAll(selector)].every((li: any) => li.querySelector('.icon-gomoku')), OPEN_ROOMS);
    const gomoku = await shownRooms(page);
    expect(gomoku).toEqual([...seeded].reverse().filter((_, i) => (ROOMS - 1 - i) % 3 === 1)); // seeded othello, gomoku, minichess in turn
    expect(await firstCard(page)).toBe('quick-pair');

    // A new room that matches comes first on the page shown; one that does not stays off it.
    const ann = await new Client(stack.url).connected();
    const seats = { black: { kind: 'human' }, white: { kind: 'human' } };
    expectOk(await ann.ask('room:create', { game: 'othello', seats, sit: { name: 'Ann', color: 'black' } }));
    const made = expectOk(await ann.ask<{ gameId: string }>('room:create', { game: 'gomoku', seats, sit: { name: 'Ann', color: 'black' } }));
    await page.waitForSelector(`${OPEN_ROOMS}[data-room="${made.gameId}"]`);
    expect((await shownRooms(page))[0]).toBe(made.gameId);
    expect(await page.locator(`${OPEN_ROOMS} .icon-othello`).count()).toBe(0);
    await page.screenshot({ path: `${ARTIFACTS}/lobby-filtered.png` });
    ann.socket.close();
  }, 60_000);
});
