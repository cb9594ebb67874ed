import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GAMES } from '../../shared/games.js';
import type { MiniChessPosition } from '../../shared/minichess/index.js';
import { BOARD, clickCell, createRoom, myTurnOrEnd, ply, SCREEN } from './drive.js';
import { ARTIFACTS, startStack, type Stack } from './stack.js';

// MiniChess has no check: a king left where it can be taken ends the game. A new player's board
// says so before the move (King warnings, on by default), and the end shows the king taken.
let stack: Stack;
beforeAll(async () => {
  stack = await startStack('browser-minichess-king');
}, 60_000);
afterAll(async () => {
  await stack?.close();
}, 30_000);

const { rules } = GAMES.minichess;

async function game(gameId: string): Promise<{ moves: string[]; position: string; result: { winner: string | null; reason: string } | null }> {
  return (await (await fetch(`${stack.url}/api/games/${gameId}`)).json()) as never;
}

/** The position after `moves` from the start, by the shared rules. */
function replay(moves: readonly string[]): MiniChessPosition {
  let position = rules.start() as MiniChessPosition;
  for (const m of moves) {
    const parsed = rules.parseMove(m);
    if (!parsed.ok) throw new Error(parsed.error.message);
    position = rules.play(position, parsed.value) as MiniChessPosition;
  }
  return position;
}

const exposes = (position: MiniChessPosition, move: string): boolean => {
  const parsed = rules.parseMove(move);
  return parsed.ok && rules.outcome(rules.play(position, parsed.value))?.reason === 'king-capture';
};

async function destinations(page: Page): Promise<{ to: string; exposes: boolean }[]> {
  return page.$$eval(`${BOARD} [data-dest="true"]`, (els) => els.map((e) => ({ to: e.getAttribute('data-cell')!, exposes: e.getAttribute('data-exposes-king') === 'true' })));
}

describe('MiniChess kings', () => {
  it('marks each move that would leave the king to be taken, and when it is played, shows the king taken', async () => {
    const { page, context } = await stack.newPage();
    let warned = 0;
    let fallen = false;
    // A game against random may end by our own capture before any move of ours was marked: play on until both were seen.
    for (let attempt = 0; attempt < 8 && !(fallen && warned > 0); attempt++) {
      await page.goto('/');
      const gameId = await createRoom(page, { game: 'minichess', black: 'bot:random', white: 'human', sit: 'white', time: 'none', name: 'Kit' });
      while (await myTurnOrEnd(page)) {
        const position = replay((await game(gameId)).moves);
        const movable = await page.$$eval(`${BOARD} [data-movable="true"]`, (els) => els.map((e) => e.getAttribute('data-cell')!));
        // Every piece's destinations: marked exactly when the rules say the king could then be taken.
        let unsafe: string | undefined;
        for (const from of movable) {
          await clickCell(page, from);
          await page.waitForSelector(`${BOARD} [data-cell="${from}"][data-selected="true"]`);
          for (const d of await destinations(page)) {
            expect(d.exposes, `${from}${d.to} after ${position.board}`).toBe(exposes(position, from + d.to));
            if (d.exposes) unsafe ??= from + d.to;
          }
        }
        if (unsafe) warned++;
        // Once warned, play the marked move: the game ends with the king taken on the board.
        const move = unsafe ?? rules.formatMove(rules.legalMoves(position)[Math.floor(Math.random() * rules.legalMoves(position).length)]!);
        if (unsafe) await page.screenshot({ path: `${ARTIFACTS}/minichess-king-warning.png` });
        const before = await ply(page);
        if ((await page.getAttribute(`${BOARD} [data-cell="${move.slice(0, 2)}"]`, 'data-selected')) !== 'true') await clickCell(page, move.slice(0, 2));
        await clickCell(page, move.slice(2, 4));
        await page.waitForFunction(([sel, n]) => Number(document.querySelector(sel as string)?.getAttribute('data-ply')) > (n as number), [SCREEN, before] as const);
      }
      const ended = await game(gameId);
      if (ended.result?.reason !== 'king-capture') continue;
      fallen = true;
      await page.waitForSelector(`${BOARD} [data-king-taken="true"]`);
      const loser = ended.result.winner === 'white' ? 'b' : 'w';
      const winner = ended.result.winner === 'white' ? 'w' : 'b';
      const pieces = await page.$$eval(`${BOARD} [data-cell]`, (els) => els.map((e) => e.getAttribute('data-piece')));
      expect(pieces).not.toContain(`${loser}K`);
      expect(await page.getAttribute(`${BOARD} [data-king-taken="true"]`, 'data-piece')).toMatch(new RegExp(`^${winner}`));
      expect(await page.textContent('[data-testid="result"]')).toMatch(/king/i);
      await page.screenshot({ path: `${ARTIFACTS}/minichess-king-taken.png` });
    }
    expect(fallen).toBe(true);
    expect(warned).toBeGreaterThan(0);
    await context.close();
  }, 240_000);
});

// Globals of the page, used inside page.evaluate callbacks (the project's tsconfig has no DOM lib).
declare const document: any; // eslint-disable-line @typescript-eslint/no-explicit-any
