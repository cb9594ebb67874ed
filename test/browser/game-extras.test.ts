import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { GAMES } from '../../shared/games.js';
import { MiniChessBoard, type MiniChessPosition } from '../../shared/minichess/index.js';
import { STEP_LIMIT } from '../../shared/minichess/index.js';
import type { GameView } from '../../shared/protocol/index.js';
import { Client, expectOk, playMove, playScripted } from '../support/server.js';
import { createRoom, myTurnOrEnd, playOne, playToEnd, ply, SCREEN } from './drive.js';
import { ARTIFACTS, startStack, type Stack } from './stack.js';

// Globals of the page, used inside page.evaluate callbacks (the project's tsconfig has no DOM lib).
declare const document: any, localStorage: any, navigator: any; // eslint-disable-line @typescript-eslint/no-explicit-any

// What a game page shows beside the board: MiniChess's material race, the position text, the
// record to download, the replay's score, a name asked on joining by link, the Moves card, who
// is watching, and each move's time. Debian's Chromium against the built server, a real redis-server and a bot worker.
let stack: Stack;
beforeAll(async () => {
  stack = await startStack('extras');
}, 60_000);
afterAll(async () => {
  await stack?.close();
}, 30_000);

const shot = (page: Page, name: string) => page.screenshot({ path: `${ARTIFACTS}/${name}.png` });
type Record = { status: string; moves: string[]; position: string; result: { winner: string | null; reason: string } | null; players: { black: { name: string }; white: { name: string } } };
const record = async (gameId: string): Promise<Record> => (await (await fetch(`${stack.url}/api/games/${gameId}`)).json()) as Record;
const text = (page: Page, testid: string) => page.textContent(`[data-testid="${testid}"]`);

/** MiniChess material by the rules, from the server's record: what the page should say. */
function material(position: string): { white: number; black: number } {
  const parsed = GAMES.minichess.rules.parsePosition(position);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const board = MiniChessBoard.fromPosition(parsed.value as MiniChessPosition);
  return { white: board.material('white'), black: board.material('black') };
}

describe('beside the board', () => {
  it('MiniChess shows both sides’ material and the plies toward the limit, live, in the replay and in the result', async () => {
    const { page, context } = await stack.newPage();
    await page.goto('/');
    const gameId = await createRoom(page, { game: 'minichess', black: 'bot:random', white: 'human', sit: 'white', name: 'Mia' });
    await myTurnOrEnd(page);
    expect(await page.getAttribute('[data-testid="material"]', 'data-limit')).toBe(String(STEP_LIMIT));
    expect(await text(page, 'ply-count')).toBe(`0 of ${STEP_LIMIT} plies played`);
    const check = async () => {
      const rec = await record(gameId);
      const want = material(rec.position);
      await page.waitForSelector(`${SCREEN}[data-ply="${rec.moves.length}"]`);
      expect(await page.textContent('[data-testid="material-white"] b')).toBe(String(want.white));
      expect(await page.textContent('[data-testid="material-black"] b')).toBe(String(want.black));
      expect(await page.textContent('[data-testid="count-white"]')).toBe(String(want.white));
      expect(await text(page, 'ply-count')).toBe(`${Math.min(rec.moves.length, STEP_LIMIT)} of ${STEP_LIMIT} plies played`);
      return { rec, want };
    };
    for (let i = 0; i < 6 && (await myTurnOrEnd(page)); i++) await playOne(page, 'minichess');
    await myTurnOrEnd(page);
    const mid = await check();
    // Six plies in, unless a random king fell first (the game then ends, which the checks above still cover).
    if (mid.rec.status === 'live') expect(mid.rec.moves.length).toBeGreaterThanOrEqual(6);
    else expect(mid.rec.status).toBe('finished');
    await shot(page, 'minichess-material');
    await playToEnd(page, 'minichess');
    const end = await check();
    expect(await page.textContent('[data-testid="result"] .detail')).toContain(`Material ${end.want.white} – ${end.want.black}`);

    // The replay counts the material at each step: the start is level.
    await page.click('[data-testid="replay-link"]');
    await page.waitForSelector('[data-testid="step"]');
    expect(await page.textContent('[data-testid="material-white"] b')).toBe(String(end.want.white));
    await page.keyboard.press('Home');
    expect(await page.textContent('[data-testid="material-white"] b')).toBe('151');
    expect(await page.textContent('[data-testid="material-black"] b')).toBe('151');
    expect(await text(page, 'ply-count')).toBe(`0 of ${STEP_LIMIT} plies played`);
    // Its position text follows the steps.
    expect(await text(page, 'position-text')).toBe('kqbnr/ppppp/5/5/PPPPP/RNBQK w 1');
    await page.keyboard.press('End');
    expect(await text(page, 'position-text')).toBe(end.rec.position);
    await context.close();
  }, 90_000);

  it('a finished Othello game: the record downloads as GGF from the game and the replay, whose banner keeps the disc score; the position text is the game’s', async () => {
    const { page, context } = await stack.newPage();
    await page.goto('/');
    const gameId = await createRoom(page, { game: 'othello', black: 'human', white: 'bot:random', sit: 'black', name: 'Oda' });
    await myTurnOrEnd(page);
    expect(await text(page, 'position-text')).toBe(GAMES.othello.rules.formatPosition(GAMES.othello.rules.start()));
    await playOne(page, 'othello');
    await myTurnOrEnd(page);
    expect(await text(page, 'position-text')).toBe((await record(gameId)).position);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.click('[data-testid="copy-position"]');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe((await record(gameId)).position);
    await playToEnd(page, 'othello');
    const rec = await record(gameId);
    const board = rec.position.slice(0, 64);
    const score = `${[...board].filter((c) => c === 'X').length} – ${[...board].filter((c) => c === 'O').length}`;
    expect(await page.textContent('[data-testid="result"] .detail')).toMatch(new RegExp(`^${score} · `));

    const download = async () => {
      expect(await page.getAttribute('[data-testid="download-record"]', 'href')).toBe(`/api/games/${gameId}?format=ggf`);
      const [file] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="download-record"]')]);
      expect(file.suggestedFilename()).toBe(`boardroom-othello-${gameId}.ggf`);
      const body = await (await page.request.get(`/api/games/${gameId}?format=ggf`)).text();
      expect(body).toMatch(/^\(;GM\[Othello\]PC\[Boardroom\].*PB\[Oda\]PW\[random\]/);
      expect([...body.matchAll(/[BW]\[([A-Z0-9]+)\/\/[\d.]+\]/g)].length).toBe(rec.moves.length); // each with its seconds
    };
    await download();
    await page.click('[data-testid="replay-link"]');
    await page.waitForSelector('[data-testid="step"]');
    expect(await page.textContent('[data-testid="result"] .detail')).toMatch(new RegExp(`^${score} · `));
    await download();
    await shot(page, 'othello-replay-score');
    await context.close();
  }, 90_000);

  it('joining by link asks for a name, prefilled with the one this browser used, and sits down under it', async () => {
    const ann = await new Client(stack.url).connected();
    try {
      const room = () =>
        ann.ask<{ gameId: string }>('room:create', { game: 'gomoku', seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: 'Ann', color: 'black' } }).then((a) => expectOk(a).gameId);
      // A browser that never chose a name: an empty field, which does not sit down.
      const first = await room();
      const bea = await stack.newPage();
      await bea.page.goto(`/game/${first}`);
      await bea.page.click('[data-testid="sit-white"]');
      await bea.page.waitForSelector('[data-testid="name-prompt"]');
      expect(await bea.page.inputValue('[data-testid="join-name"]')).toBe('');
      await bea.page.click('[data-testid="join-name-ok"]');
      await bea.page.waitForSelector('[data-testid="name-prompt"] [role="status"]:has-text("Give a name")');
      await shot(bea.page, 'join-name');
      await bea.page.fill('[data-testid="join-name"]', 'Bea');
      await bea.page.press('[data-testid="join-name"]', 'Enter');
      await bea.page.waitForSelector(`${SCREEN}[data-my-color="white"][data-status="live"]`);
      expect((await record(first)).players.white.name).toBe('Bea');
      expect(await bea.page.evaluate(() => localStorage.getItem('boardroom:name'))).toBe('Bea');

      // The next room by link: the prompt offers Bea; cancelling keeps her a spectator.
      const second = await room();
      await bea.page.goto(`/game/${second}`);
      await bea.page.waitForSelector(`${SCREEN}[data-game-id="${second}"]`).catch(async (e) => {
        await shot(bea.page, 'join-debug');
        console.log(bea.page.url(), await bea.page.textContent('body'));
        throw e;
      });
      await bea.page.click('[data-testid="sit-white"]');
      expect(await bea.page.inputValue('[data-testid="join-name"]')).toBe('Bea');
      await bea.page.click('[data-testid="join-name-cancel"]');
      expect(await bea.page.locator('[data-testid="name-prompt"]').count()).toBe(0);
      expect(await bea.page.getAttribute(SCREEN, 'data-my-color')).toBe('');
      expect((await record(second)).players.white.name).toBeNull();
      await bea.page.click('[data-testid="sit-white"]');
      await bea.page.click('[data-testid="join-name-ok"]');
      await bea.page.waitForSelector(`${SCREEN}[data-my-color="white"]`);
      expect((await record(second)).players.white.name).toBe('Bea');
      await bea.context.close();
    } finally {
      ann.close();
    }
  }, 60_000);

  it('spectators see “You are watching” and the count, which players see too; the Moves card shows no half row', async () => {
    const ann = await new Client(stack.url).connected();
    const bob = await new Client(stack.url).connected();
    try {
      const created = expectOk(await ann.ask<{ gameId: string; seat: { token: string } }>('room:create', { game: 'gomoku', seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: 'Ann', color: 'black' } }));
      const gameId = created.gameId;
      const joined = expectOk(await bob.ask<{ seat: { token: string }; view: GameView }>('room:join', { gameId, name: 'Bob', color: 'white' }));
      // 31 moves, far apart: 16 rows in a card of 9.
      let view = joined.view;
      for (let i = 0; i < 31; i++) {
        const move = `${'abcdefghijklmno'[i % 15]}${i < 15 ? 1 : i < 30 ? 8 : 15}`;
        view = await playMove(i % 2 === 0 ? ann : bob, view, i % 2 === 0 ? created.seat.token : joined.seat.token, move);
      }
      const one = await stack.newPage();
      await one.page.goto(`/game/${gameId}`);
      await one.page.waitForSelector(`${SCREEN}[data-ply="31"]`);
      expect(await text(one.page, 'watching')).toBe('You are watching');
      await one.page.waitForSelector('[data-testid="spectators"][data-count="1"]');
      const two = await stack.newPage({ viewport: { width: 390, height: 844 }, mobile: true });
      await two.page.goto(`/game/${gameId}`);
      await one.page.waitForSelector('[data-testid="spectators"][data-count="2"]');
      await two.page.waitForSelector('[data-testid="spectators"][data-count="2"]');
      expect(await one.page.textContent('[data-testid="spectators"]')).toBe(' · 2 watching');
      // A player's page: no label, the same count.
      const player = await stack.newPage();
      await player.page.goto('/');
      await player.page.evaluate(([id, token]) => localStorage.setItem(`boardroom:seat:${id}`, JSON.stringify({ token, color: 'white' })), [gameId, joined.seat.token] as const);
      await player.page.goto(`/game/${gameId}`);
      await player.page.waitForSelector(`${SCREEN}[data-my-color="white"]`);
      await player.page.waitForSelector('[data-testid="spectators"][data-count="2"]');
      expect(await player.page.locator('[data-testid="watching"]').count()).toBe(0);
      await two.context.close();
      await one.page.waitForSelector('[data-testid="spectators"][data-count="1"]');

      // Every row of the Moves card is wholly in view or wholly out of it, at the end of the list and after a scroll.
      for (const page of [one.page, player.page]) {
        const clipped = () =>
          page.$eval('[data-testid="moves"]', (list) => {
            const box = list.getBoundingClientRect();
            const rows = [...list.querySelectorAll('li')].map((li) => li.getBoundingClientRect());
            return { overflow: list.scrollHeight > list.clientHeight, half: rows.filter((r) => r.bottom > box.top + 0.5 && r.top < box.top - 0.5).length };
          });
        expect(await clipped()).toEqual({ overflow: true, half: 0 });
        await page.hover('[data-testid="moves"]');
        await page.mouse.wheel(0, -70);
        await page.waitForFunction(() => {
          const list = document.querySelector('[data-testid="moves"]');
          return list.scrollTop % 26 === 0 && list.scrollTop < list.scrollHeight - list.clientHeight;
        });
        expect((await clipped()).half).toBe(0);
      }
      await shot(one.page, 'spectating');
      await one.context.close();
      await player.context.close();
    } finally {
      ann.close();
      bob.close();
    }
  }, 60_000);
});

/** Black makes five along rank 8 (h8 to l8); white answers on the a-file. */
const FIVE = ['h8', 'a1', 'i8', 'a2', 'j8', 'a3', 'k8', 'a4', 'l8'];

describe('the clock history', () => {
  it('the replay shows one time per move, the server’s, with a bar each; the game page too; a phone keeps each row on one line', async () => {
    const { gameId, view } = await playScripted(stack.url, 'gomoku', FIVE);
    expect(view.status).toBe('finished');
    const record = (await (await fetch(`${stack.url}/api/games/${gameId}`)).json()) as { moves: string[]; moveMs: (number | null)[] };
    expect(record.moveMs).toHaveLength(FIVE.length);
    expect(record.moveMs).toEqual(view.moveMs); // the deltas the players applied carried the same times

    const { page, context } = await stack.newPage();
    await page.goto(`/replay/${gameId}`);
    await page.waitForSelector('[data-testid="times-graph"]');
    const shown = await page.$$eval('[data-testid="moves"] .mv[data-step]', (cells) =>
      cells.map((c) => ({ step: Number(c.getAttribute('data-step')), ms: c.querySelector('.mv-time')?.getAttribute('data-ms') ?? null, text: c.querySelector('.mv-time')?.textContent ?? '' })),
    );
    expect(shown.map((c) => c.step)).toEqual(FIVE.map((_, i) => i + 1));
    expect(shown.map((c) => Number(c.ms))).toEqual(record.moveMs);
    for (const c of shown) expect(c.text).toMatch(/^\d+(\.\d)?s$|^\d+:\d\d$/);
    expect(await page.$$eval('[data-testid="times-graph"] .times-bar', (bars) => bars.length)).toBe(FIVE.length);
    expect(await page.textContent('[data-testid="move-times"] .card-title')).toBe('Time per move');
    // A bar's column goes to its move.
    await page.locator('[data-testid="times-graph"] .times-hit').nth(2).click();
    expect(await page.textContent('[data-testid="step"]')).toBe(`move 3 of ${FIVE.length}`);
    expect(await page.getAttribute('[data-testid="times-graph"] .times-bar.current', 'data-step')).toBe('3');

    // The finished game's own page lists the same times.
    await page.goto(`/game/${gameId}`);
    await page.waitForSelector(`${SCREEN} [data-testid="moves"] .mv-time`);
    expect(await page.$$eval(`${SCREEN} [data-testid="moves"] .mv-time`, (tags) => tags.map((t) => Number(t.getAttribute('data-ms'))))).toEqual(record.moveMs);
    await context.close();

    // On a 375 px phone every row of the move list stays one line, its times inside it.
    const phone = await stack.newPage({ viewport: { width: 375, height: 740 }, mobile: true });
    await phone.page.goto(`/replay/${gameId}`);
    await phone.page.waitForSelector('[data-testid="times-graph"]');
    const rows = await phone.page.$$eval('[data-testid="moves"] li', (items) => items.map((li) => ({ height: li.getBoundingClientRect().height, overflow: li.scrollWidth - li.clientWidth })));
    expect(rows.length).toBe(Math.ceil(FIVE.length / 2));
    for (const row of rows) {
      expect(row.height).toBeLessThanOrEqual(26);
      expect(row.overflow).toBeLessThanOrEqual(0);
    }
    await phone.page.locator('[data-testid="move-times"]').scrollIntoViewIfNeeded();
    await phone.page.screenshot({ path: `${ARTIFACTS}/move-times-phone.png`, fullPage: true });
    await phone.context.close();
  }, 90_000);
});
