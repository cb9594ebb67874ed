import type { Page } from 'playwright-core';

// Globals of the page, used inside page.evaluate callbacks (the project's tsconfig has no DOM lib).
declare const document: any, window: any, localStorage: any, sessionStorage: any; // eslint-disable-line @typescript-eslint/no-explicit-any


/** Helpers that play through the page the way a person does: by reading the board and clicking. */

export const SCREEN = '.game-screen';
export const BOARD = '.game-screen .board';

export type Seat = 'black' | 'white' | 'random' | 'watch';

/** Fills the lobby's form and creates the room; resolves with the new game's id once its page shows. */
export async function createRoom(
  page: Page,
  options: { game: 'othello' | 'gomoku' | 'minichess'; black: string; white: string; sit: Seat; time?: 'none' | 'per-move' | 'bank'; name?: string },
): Promise<string> {
  if (!page.url().endsWith('/')) await page.goto('/');
  await page.click(`[data-testid="game-picker"] [data-value="${options.game}"]`);
  await page.locator('[data-testid="seat-black"] option[value^="bot:"]').first().waitFor({ state: 'attached' });
  await page.selectOption('[data-testid="seat-black"]', options.black);
  await page.selectOption('[data-testid="seat-white"]', options.white);
  await page.click(`[data-testid="sit"] [data-value="${options.sit}"]`);
  if (options.time) await page.click(`[data-testid="time"] [data-value="${options.time}"]`);
  if (options.name) await page.fill('[data-testid="name"]', options.name);
  await page.click('[data-testid="create"]');
  await page.waitForURL(/\/game\/[^/]+$/);
  await page.waitForSelector(`${SCREEN}[data-status]`);
  return page.url().split('/').pop()!;
}

/** Waits until the seated player may move, or the game is over; true when it is the player's move. */
export async function myTurnOrEnd(page: Page, timeout = 20_000): Promise<boolean> {
  await page.waitForSelector(`${SCREEN}[data-my-turn="true"], ${SCREEN}[data-status="finished"]`, { timeout });
  return (await page.getAttribute(SCREEN, 'data-status')) !== 'finished';
}

export async function ply(page: Page): Promise<number> {
  return Number(await page.getAttribute(SCREEN, 'data-ply'));
}

/** Clicks a point of the large board, and again when the first click only marked the move (the confirm setting, on by default on phones). */
export async function clickCell(page: Page, cell: string): Promise<void> {
  await page.click(`${BOARD} [data-cell="${cell}"]`);
  if (await page.$(`${BOARD} [data-cell="${cell}"][data-marked="true"]`)) await page.click(`${BOARD} [data-cell="${cell}"]`);
}

/** Plays one move from the page's own hints and waits for the board to take it; returns the move. */
export async function playOne(page: Page, game: 'othello' | 'gomoku' | 'minichess', random: () => number = Math.random): Promise<string> {
  const before = await ply(page);
  let move: string;
  if (game === 'othello') {
    // A forced pass is the server's to play: the page never offers it.
    const legal = await page.$$eval(`${BOARD} [data-legal="true"]`, (els) => els.map((e) => e.getAttribute('data-cell')!));
    if (legal.length === 0) throw new Error('no legal move shown on the Othello board');
    move = legal[Math.floor(random() * legal.length)]!;
    await clickCell(page, move);
  } else if (game === 'gomoku') {
    move = await gomokuChoice(page);
    await clickCell(page, move);
  } else {
    const movable = await page.$$eval(`${BOARD} [data-movable="true"]`, (els) => els.map((e) => e.getAttribute('data-cell')!));
    if (movable.length === 0) throw new Error('no movable piece shown on the MiniChess board');
    // Look at a few pieces' destinations (as a person would) and prefer a capture.
    let best: { from: string; to: string; capture: boolean } | undefined;
    for (const from of shuffle(movable, random).slice(0, 4)) {
      await clickCell(page, from);
      await page.waitForSelector(`${BOARD} [data-cell="${from}"][data-selected="true"]`);
      const dests = await page.$$eval(`${BOARD} [data-dest="true"]`, (els) => els.map((e) => ({ to: e.getAttribute('data-cell')!, capture: e.getAttribute('data-capture') === 'true' })));
      const pick = dests.find((d) => d.capture) ?? dests[Math.floor(random() * dests.length)];
      if (pick && (!best || (pick.capture && !best.capture))) best = { from, to: pick.to, capture: pick.capture };
      if (best?.capture) break;
    }
    if (!best) throw new Error('no MiniChess destination shown');
    if ((await page.getAttribute(`${BOARD} [data-cell="${best.from}"]`, 'data-selected')) !== 'true') await clickCell(page, best.from);
    await clickCell(page, best.to);
    move = best.from + best.to;
  }
  await page.waitForFunction(
    ([sel, n]) => {
      const el = document.querySelector(sel as string);
      return !el || Number(el.getAttribute('data-ply')) > (n as number) || el.getAttribute('data-status') === 'finished';
    },
    [SCREEN, before] as const,
  );
  return move;
}

/** Gomoku, read from the stones on the page: win if possible, block a four, else extend the longest own line. */
async function gomokuChoice(page: Page): Promise<string> {
  const stones = await page.$$eval(`${BOARD} [data-cell]`, (els) => els.map((e) => [e.getAttribute('data-cell')!, e.getAttribute('data-stone') ?? ''] as const));
  const mine = (await page.getAttribute(SCREEN, 'data-my-color')) as 'black' | 'white';
  const at = new Map(stones);
  const get = (f: number, r: number) => (f < 0 || f > 14 || r < 1 || r > 15 ? 'edge' : (at.get(`${String.fromCharCode(97 + f)}${r}`) ?? 'edge'));
  const runThrough = (f: number, r: number, color: string) => {
    let best = 0;
    for (const [df, dr] of [
      [1, 0],
      [0, 1],
      [1, 1],
      [1, -1],
    ] as const) {
      let n = 1;
      for (const sign of [1, -1]) for (let k = 1; get(f + df * k * sign, r + dr * k * sign) === color; k++) n++;
      best = Math.max(best, n);
    }
    return best;
  };
  const theirs = mine === 'black' ? 'white' : 'black';
  let choice = { cell: 'h8', score: -1 };
  for (const [cell, stone] of stones) {
    if (stone) continue;
    const f = cell.charCodeAt(0) - 97;
    const r = Number(cell.slice(1));
    const own = runThrough(f, r, mine);
    const block = runThrough(f, r, theirs);
    const centre = -(Math.abs(f - 7) + Math.abs(r - 8)) / 100;
    const score = (own >= 5 ? 1000 : 0) + (block >= 5 ? 500 : 0) + (block >= 4 ? 50 : 0) + own * 10 + block + centre;
    if (score > choice.score) choice = { cell, score };
  }
  return choice.cell;
}

function shuffle<T>(items: T[], random: () => number): T[] {
  const a = [...items];
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}

/** Plays until the result banner shows; returns the number of moves the page played. */
export async function playToEnd(page: Page, game: 'othello' | 'gomoku' | 'minichess', maxMoves = 200): Promise<number> {
  let played = 0;
  while (played < maxMoves && (await myTurnOrEnd(page))) {
    await playOne(page, game);
    played++;
  }
  await page.waitForSelector('[data-testid="result"]:not([hidden])');
  return played;
}

