import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { GameView } from '../../shared/protocol/index.js';
import { Client, expectOk } from '../support/server.js';
import { BOARD, createRoom, myTurnOrEnd, playOne, playToEnd, ply, SCREEN } from './drive.js';
import { ADMIN_TOKEN, ARTIFACTS, startStack, type Stack } from './stack.js';

// Globals of the page, used inside page.evaluate callbacks (the project's tsconfig has no DOM lib).
declare const document: any, window: any, localStorage: any, sessionStorage: any; // eslint-disable-line @typescript-eslint/no-explicit-any


// The built web client in Debian's Chromium, against the built server, a real redis-server and
// a BullMQ bot worker. Screenshots of each step land in test-artifacts/browser/.
let stack: Stack;

beforeAll(async () => {
  stack = await startStack('browser');
}, 60_000);

afterAll(async () => {
  await stack?.close();
}, 30_000);

const shot = (page: Page, name: string) => page.screenshot({ path: `${ARTIFACTS}/${name}.png` });

async function record(gameId: string): Promise<{ status: string; moves: string[]; result: { winner: string | null; reason: string } | null; players: Record<string, { kind: string; name: string }> }> {
  return (await (await fetch(`${stack.url}/api/games/${gameId}`)).json()) as never;
}

describe('the web client in Chromium', () => {
  for (const [game, seat] of [
    ['othello', 'black'],
    ['gomoku', 'black'],
    ['minichess', 'white'],
  ] as const) {
    it(`plays a whole ${game} game against the random bot, by clicks, to the result banner`, async () => {
      const { page, context } = await stack.newPage();
      await page.goto('/');
      await page.waitForSelector('[data-testid="net-status"][data-state="online"]');
      const gameId = await createRoom(page, {
        game,
        black: seat === 'black' ? 'human' : 'bot:random',
        white: seat === 'white' ? 'human' : 'bot:random',
        sit: seat,
        name: 'Tess',
      });
      expect(await page.getAttribute(SCREEN, 'data-my-color')).toBe(seat);
      await myTurnOrEnd(page);
      await shot(page, `${game}-start`);
      const played = await playToEnd(page, game);
      expect(played).toBeGreaterThan(0);
      const banner = page.locator('[data-testid="result"]');
      expect(await banner.textContent()).toMatch(/You win|You lose|Draw/);
      await shot(page, `${game}-end`);

      // The page's move list and final position agree with the server's record.
      const rec = await record(gameId);
      expect(rec.status).toBe('finished');
      expect(rec.players[seat]).toMatchObject({ kind: 'human', name: 'Tess' });
      expect(await ply(page)).toBe(rec.moves.length);
      // Each cell is the move, then the time it took.
      const shownMoves = await page.$$eval('[data-testid="moves"] .mv', (els) => els.map((e) => e.firstChild?.textContent).filter((t) => t));
      expect(shownMoves).toEqual(rec.moves);
      if (game === 'gomoku' && rec.result?.reason === 'five') {
        expect(await page.getAttribute(`${BOARD} .win-line`, 'data-win')).toBeTruthy();
        expect(await page.locator(`${BOARD} .num`).count()).toBe(rec.moves.length);
      }

      // The replay of the finished game, step by step with the keyboard.
      await page.click('[data-testid="replay-link"]');
      await page.waitForURL(`**/replay/${gameId}`);
      await page.waitForSelector('[data-testid="step"]');
      expect(await page.textContent('[data-testid="step"]')).toBe(`move ${rec.moves.length} of ${rec.moves.length}`);
      await page.keyboard.press('Home');
      expect(await page.textContent('[data-testid="step"]')).toBe(`start · ${rec.moves.length} moves`);
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      expect(await page.textContent('[data-testid="step"]')).toBe(`move 2 of ${rec.moves.length}`);
      await page.click('[data-testid="prev"]');
      expect(await page.textContent('[data-testid="step"]')).toBe(`move 1 of ${rec.moves.length}`);
      await shot(page, `${game}-replay`);
      await page.click('[data-testid="last"]');
      expect(await page.textContent('[data-testid="step"]')).toBe(`move ${rec.moves.length} of ${rec.moves.length}`);
      await context.close();
    }, 60_000);
  }

  it('keeps the seat through a reload and a dropped connection (phone width, keyboard play)', async () => {
    const { page, context } = await stack.newPage({ viewport: { width: 390, height: 844 }, mobile: true });
    await page.goto('/');
    const gameId = await createRoom(page, { game: 'othello', black: 'human', white: 'bot:random', sit: 'black', name: 'Rae' });
    await myTurnOrEnd(page);

    // The first move with the keyboard: the board's focus lands on a legal square, arrows move it;
    // Enter marks the move (confirmation is on by default on a touch screen), Enter again plays it.
    await page.focus(BOARD);
    const cursorCell = () => page.evaluate(() => document.activeElement?.getAttribute('data-square') ?? null);
    const start = await cursorCell();
    await page.keyboard.press('ArrowRight');
    expect(await cursorCell()).not.toBe(start);
    await page.keyboard.press('ArrowLeft');
    expect(await cursorCell()).toBe(start);
    expect(await page.getAttribute(`${BOARD} [data-cell="${start}"]`, 'data-legal')).toBe('true');
    await page.keyboard.press('Enter');
    expect(await page.getAttribute(`${BOARD} [data-cell="${start}"]`, 'data-marked')).toBe('true');
    await page.keyboard.press('Enter');
    await page.waitForFunction((sel) => Number(document.querySelector(sel)?.getAttribute('data-ply')) >= 1, SCREEN);
    expect((await record(gameId)).moves.length).toBeGreaterThanOrEqual(1);
    for (let i = 0; i < 2 && (await myTurnOrEnd(page)); i++) await playOne(page, 'othello');
    await myTurnOrEnd(page);
    const before = await ply(page);
    const token = await page.evaluate((id) => localStorage.getItem(`boardroom:seat:${id}`), gameId);
    expect(token).toContain('"color":"black"');

    // No sideways scrolling at phone width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    await shot(page, 'phone-before-reload');

    await page.reload();
    await page.waitForSelector(`${SCREEN}[data-my-color="black"]`);
    expect(await ply(page)).toBe(before);
    expect(await page.locator('.player-bar.bottom .badge-you').count()).toBe(1);
    await myTurnOrEnd(page);
    await playOne(page, 'othello');
    await shot(page, 'phone-after-reload');

    // A dropped connection: "Reconnecting…", then the seat is resumed and play goes on.
    await myTurnOrEnd(page);
    const dropped = await page.evaluate(() => {
      const { net } = window.boardroom;
      net.socket.io.engine.close();
      const screen = document.querySelector('.game-screen');
      return { connection: screen.dataset.connection, overlay: !(document.querySelector('.board-overlay')).hidden, myTurn: screen.dataset.myTurn };
    });
    expect(dropped).toEqual({ connection: 'reconnecting', overlay: true, myTurn: 'false' });
    await page.waitForSelector(`${SCREEN}[data-connection="online"]`, { timeout: 15_000 });
    expect(await myTurnOrEnd(page)).toBe(true);
    await playOne(page, 'othello');
    const rec = await record(gameId);
    expect(rec.moves.length).toBeGreaterThan(before + 1);
    expect(await page.getAttribute(SCREEN, 'data-my-color')).toBe('black');
    await context.close();
  }, 60_000);

  it('two people: join from the live lobby, clocks, draw offer declined, resignation, rematch', async () => {
    const ann = await stack.newPage();
    const bob = await stack.newPage();
    await bob.page.goto('/');
    await bob.page.waitForSelector('[data-testid="rooms-open"]');
    const gameId = await createRoom(ann.page, { game: 'othello', black: 'human', white: 'human', sit: 'black', time: 'bank', name: 'Ann' });
    expect(await ann.page.getAttribute(SCREEN, 'data-status')).toBe('waiting');

    // Bob's lobby shows the new room as it appears (rooms:changed), and he joins it.
    const row = bob.page.locator(`[data-room="${gameId}"]`);
    await row.waitFor();
    await bob.page.fill('[data-testid="name"]', 'Bob');
    await row.locator('[data-testid="join"]').click();
    await bob.page.waitForURL(`**/game/${gameId}`);
    await bob.page.waitForSelector(`${SCREEN}[data-my-color="white"][data-status="live"]`);
    await ann.page.waitForSelector(`${SCREEN}[data-status="live"]`);
    expect(await ann.page.textContent('.player-bar.top .name')).toBe('Bob');

    await myTurnOrEnd(ann.page);
    await playOne(ann.page, 'othello');
    await myTurnOrEnd(bob.page);
    await playOne(bob.page, 'othello');
    // A bank clock of 5 minutes, counting down on the side to move.
    expect(await ann.page.textContent('[data-clock="black"]')).toMatch(/^[45]:\d\d$/);
    await ann.page.waitForSelector('[data-clock="black"].running');

    // A draw offer, seen and declined.
    await ann.page.click('[data-testid="draw-offer"]');
    await bob.page.waitForSelector('[data-testid="draw-accept"]');
    await shot(bob.page, 'draw-offered');
    await bob.page.click('[data-testid="draw-decline"]');
    await ann.page.waitForSelector('[data-testid="draw-offer"]:not([disabled])');
    await ann.page.waitForSelector('.toast:has-text("declined your draw offer")'); // and Ann is told

    // Resigning asks twice.
    await ann.page.click('[data-testid="resign"]');
    expect(await ann.page.textContent('[data-testid="resign"]')).toBe('Really resign?');
    await ann.page.click('[data-testid="resign"]');
    await ann.page.waitForSelector('[data-testid="result"][data-reason="resignation"]');
    expect(await ann.page.textContent('[data-testid="result"] .headline')).toBe('You lose');
    await bob.page.waitForSelector('[data-testid="result"][data-reason="resignation"]');
    expect(await bob.page.textContent('[data-testid="result"] .headline')).toBe('You win');

    // Bob asks for a rematch (colours swap); Ann sees it offered and joins.
    await bob.page.click('[data-testid="rematch"]');
    await bob.page.waitForURL((url) => url.pathname.startsWith('/game/') && !url.pathname.endsWith(gameId));
    const rematchId = bob.page.url().split('/').pop()!;
    await bob.page.waitForSelector(`${SCREEN}[data-game-id="${rematchId}"][data-my-color="black"]`);
    await ann.page.waitForSelector('[data-testid="rematch"]:has-text("Join rematch")');
    await ann.page.click('[data-testid="rematch"]');
    await ann.page.waitForURL(`**/game/${rematchId}`);
    await ann.page.waitForSelector(`${SCREEN}[data-my-color="white"][data-status="live"]`);
    await bob.page.waitForSelector(`${SCREEN}[data-status="live"][data-my-turn="true"]`);
    await shot(bob.page, 'rematch');
    await ann.context.close();
    await bob.context.close();
  }, 60_000);

  it('shows two bots playing each other to the end, with their thinking', async () => {
    const { page, context } = await stack.newPage();
    await page.goto('/');
    const gameId = await createRoom(page, { game: 'othello', black: 'bot:engine-1', white: 'bot:engine-1', sit: 'watch' });
    expect(await page.getAttribute(SCREEN, 'data-my-color')).toBe('');
    // A bot's search reports depth, score and its principal variation as it goes (drawn, though two
    // quick bots may have finished, and the panel folded, by the time a loaded machine looks).
    await page.waitForSelector('[data-testid="pv"] .pv-move', { state: 'attached', timeout: 20_000 });
    expect(Number(await page.textContent('[data-testid="think-depth"] b'))).toBeGreaterThan(0);
    expect(await page.locator('[data-testid="pv"] .pv-move').count()).toBeGreaterThan(0);
    await shot(page, 'bots-thinking');
    await page.waitForSelector('[data-testid="result"]:not([hidden])', { timeout: 50_000 });
    expect(await page.textContent('[data-testid="result"] .headline')).toMatch(/^(Black wins|White wins|Draw)$/);
    const rec = await record(gameId);
    expect(rec.status).toBe('finished');
    expect(await ply(page)).toBe(rec.moves.length);
    await shot(page, 'bots-end');
    await context.close();
  }, 60_000);

  it('admin console: asks for the token, lists a live game as it changes, watches it large and ends it', async () => {
    const ann = await new Client(stack.url).connected();
    const bob = await new Client(stack.url).connected();
    try {
      const created = expectOk(
        await ann.ask<{ gameId: string; seat: { token: string }; view: GameView }>('room:create', {
          game: 'gomoku',
          timeControl: { kind: 'none' },
          seats: { black: { kind: 'human' }, white: { kind: 'human' } },
          sit: { name: 'Ann', color: 'black' },
        }),
      );
      const gameId = created.gameId;
      const joined = expectOk(await bob.ask<{ seat: { token: string } }>('room:join', { gameId, name: 'Bob', color: 'white' }));

      const { page, context } = await stack.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto('/admin');
      await page.fill('[data-testid="admin-token"]', 'not-the-token-at-all');
      await page.press('[data-testid="admin-token"]', 'Enter');
      await page.waitForSelector('[data-testid="admin-error"]');
      await page.fill('[data-testid="admin-token"]', ADMIN_TOKEN);
      await page.press('[data-testid="admin-token"]', 'Enter');
      const row = page.locator(`[data-testid="game-row"][data-game-id="${gameId}"]`);
      await row.waitFor();
      // The page keeps no token: an HttpOnly session cookie holds a random id.
      expect(await page.evaluate(() => JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }) + document.cookie)).not.toContain(ADMIN_TOKEN);
      const session = (await context.cookies()).find((c) => c.name === 'boardroom_admin');
      expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
      expect(session!.value).not.toContain(ADMIN_TOKEN);
      await page.waitForSelector('[data-testid="queue-waiting"]');
      expect(await page.getAttribute('[data-testid="dashboard-link"]', 'href')).toBe('/admin/queues');

      // Moves made elsewhere reach the table with its next page; the board shows beside it on hover.
      expectOk(await ann.ask('move', { gameId, token: created.seat.token, ply: 0, move: 'h8' }));
      expectOk(await bob.ask('move', { gameId, token: joined.seat.token, ply: 1, move: 'i9' }));
      await page.waitForSelector(`[data-testid="game-row"][data-game-id="${gameId}"][data-ply="2"]`);
      expect(await row.textContent()).toContain('Ann');
      await row.hover();
      await page.waitForSelector(`[data-testid="preview"][data-game-id="${gameId}"] [data-cell="h8"][data-stone="black"]`);
      await shot(page, 'admin-table');

      // Watched large; a move shows live; then the admin ends it as a draw.
      await row.click();
      await page.waitForURL(`**/admin?watch=${gameId}`);
      await page.waitForSelector(`${SCREEN}[data-ply="2"]`);
      expectOk(await ann.ask('move', { gameId, token: created.seat.token, ply: 2, move: 'g7' }));
      await page.waitForSelector(`${SCREEN}[data-ply="3"]`);
      expect(await page.getAttribute(`${BOARD} [data-cell="g7"]`, 'data-stone')).toBe('black');
      await shot(page, 'admin-watch');
      // Ending takes a result, a reason and a confirmation.
      await page.click('[data-testid="admin-end"]');
      await page.waitForSelector('[data-testid="admin-note"]:has-text("Choose a result")');
      await page.selectOption('[data-testid="admin-winner"]', 'draw');
      await page.fill('[data-testid="admin-reason"]', 'tested');
      await page.click('[data-testid="admin-end"]');
      expect(await page.textContent('.confirm-text')).toContain('a draw: “tested”');
      await page.click('[data-testid="admin-end-cancel"]');
      expect(await page.getAttribute(SCREEN, 'data-status')).toBe('live');
      await page.click('[data-testid="admin-end"]');
      await page.click('[data-testid="admin-end-confirm"]');
      await page.waitForSelector('[data-testid="result"]:not([hidden])');
      expect(await page.getAttribute('[data-testid="result"]', 'data-reason')).toBe('adjudication');
      expect(await page.textContent('[data-testid="result"]')).toContain('tested');
      const ended = await ann.waitFor<{ result: { winner: string | null; reason: string } }>('ended', () => true, 5000);
      expect(ended.result).toMatchObject({ winner: null, reason: 'adjudication' });
      await shot(page, 'admin-ended');

      // Back on the table, a bot game's row says its bot is thinking.
      const host = await new Client(stack.url).connected();
      const bots = expectOk(await host.ask<{ gameId: string }>('room:create', { game: 'othello', timeControl: { kind: 'none' }, seats: { black: { kind: 'bot', bot: 'engine-4' }, white: { kind: 'bot', bot: 'engine-4' } } }));
      await page.click('[data-testid="back"]');
      await page.waitForSelector(`[data-testid="game-row"][data-game-id="${bots.gameId}"][data-thinking="true"]`, { timeout: 30_000 });
      await shot(page, 'admin-thinking');
      host.close();
      await context.close();
    } finally {
      ann.close();
      bob.close();
    }
  }, 60_000);
});
