/**
 * Takes the README's screenshots (docs/screenshots/*.png): the lobby, each board mid-game, a
 * Gomoku win, a phone-width game, and the admin console. Needs `npm run build` first.
 *
 *   npx tsx test/browser/screenshots.ts [outDir] [players] [phone] [admin] [ratings] [material]
 *
 * Naming sections takes only those screenshots.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { applyMoved, type GameView, type MovedEvent } from '../../shared/protocol/index.js';
import { Client, expectOk, playMove } from '../support/server.js';
import { seededRandom } from '../../shared/random.js';
import { clickCell, createRoom, myTurnOrEnd, ply, SCREEN } from './drive.js';
import { seedGames } from '../load/seed-games.js';
import { ADMIN_TOKEN, startStack } from './stack.js';

// Globals of the page, used inside page.evaluate callbacks (the project's tsconfig has no DOM lib).
declare const document: any, window: any, localStorage: any, sessionStorage: any; // eslint-disable-line @typescript-eslint/no-explicit-any


const out = process.argv[2] ?? fileURLToPath(new URL('../../docs/screenshots', import.meta.url));
const only = new Set(process.argv.slice(3));
const want = (section: 'players' | 'phone' | 'admin' | 'ratings' | 'material'): boolean => only.size === 0 || only.has(section);
mkdirSync(out, { recursive: true });

/** A seed whose random MiniChess moves still go on at ply 34, white ahead on material. */
const SEED_MATERIAL = 18;

type Created = { gameId: string; seat: { color: 'black' | 'white'; token: string } | null; view: GameView };

const stack = await startStack('shots', { RATE_LIMIT: '10000' });
const guests: Client[] = [];
try {
  const host = await new Client(stack.url).connected();
  guests.push(host);

  // Some life in the lobby: finished games, bots at work, a room waiting for a second player.
  for (const game of ['othello', 'minichess', 'gomoku'] as const) {
    const c = expectOk(await host.ask<Created>('room:create', { game, seats: { black: { kind: 'bot', bot: 'random' }, white: { kind: 'bot', bot: 'random' } } }));
    await host.waitFor<{ view: GameView }>('ended', (e) => e.view.id === c.gameId, 30_000);
  }
  const botGames = async (games: readonly (readonly ['othello' | 'gomoku' | 'minichess', string, string])[]) => {
    for (const [game, a, b] of games) {
      expectOk(await host.ask<Created>('room:create', { game, timeControl: { kind: 'none' }, seats: { black: { kind: 'bot', bot: a }, white: { kind: 'bot', bot: b } } }));
    }
  };
  await botGames([
    ['othello', 'engine-4', 'seed-003'],
    ['minichess', 'engine-4', 'seed-004'],
    ['gomoku', 'engine-4', 'seed-001'],
  ]);
  expectOk(await host.ask<Created>('room:create', { game: 'gomoku', seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: 'Noor', color: 'black' } }));
  expectOk(await host.ask<Created>('room:create', { game: 'othello', timeControl: { kind: 'bank', initialMs: 300_000, incrementMs: 3000 }, seats: { black: { kind: 'human' }, white: { kind: 'bot', bot: 'engine-3' } }, sit: { name: 'Kenji', color: 'black' } }));

  // The Othello ladder plays rated bot games while the other screenshots are taken.
  const ladder = (bots: string[]) =>
    fetch(`${stack.url}/admin/api/ladder`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` }, body: JSON.stringify({ game: 'othello', bots, concurrent: 2 }) });
  await ladder(['random', 'seed-000', 'seed-003', 'engine-1', 'engine-2']);

  // ——— the lobby ———
  if (want('players')) {
    const { page } = await stack.newPage({ viewport: { width: 1360, height: 900 } });
    await page.goto('/');
    await page.fill('[data-testid="name"]', 'Ada');
    await page.locator('[data-testid="name"]').dispatchEvent('change');
    await page.waitForSelector('[data-testid="rooms-live"] .room');
    await page.waitForSelector('[data-testid="seat-black"] option[value^="bot:"]', { state: 'attached' });
    await page.locator('[data-testid="name"]').blur();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${out}/lobby.png` });
    await page.context().close();
  }

  if (want('players')) {
  // ——— Othello against a person (a socket client), mid-game ———
  await twoPlayers('othello', 22, seededRandom(7), async (page) => {
    await page.screenshot({ path: `${out}/othello.png` });
  });

  // ——— Gomoku: mid-game, then the same game won by the page's player (white) ———
  const gomokuLine = ['h8', 'i8', 'i7', 'h7', 'g7', 'g6', 'f5', 'j9', 'k10', 'i9', 'k9', 'f6', 'h9', 'e6', 'h6', 'j8', 'd6', 'k8', 'l8', 'j10', 'j7', 'k7', 'h10', 'h11', 'j11', 'i10', 'l7', 'g12'];
  await twoPlayers('gomoku', 22, () => 0, async (page) => {
    await page.screenshot({ path: `${out}/gomoku.png` });
  }, gomokuLine);
  await twoPlayers('gomoku', gomokuLine.length, () => 0, async (page) => {
    await page.waitForSelector('[data-testid="result"]:not([hidden])');
    await page.screenshot({ path: `${out}/gomoku-win.png` });
  }, gomokuLine, 'white');

  // ——— MiniChess: a piece picked up, its moves shown ———
  await twoPlayers('minichess', 12, seededRandom(11), async (page) => {
    const movable = await page.$$eval('.game-screen .board [data-movable="true"]', (els) => els.map((e) => e.getAttribute('data-cell')!));
    const knightOrQueen = await page.$$eval('.game-screen .board [data-movable="true"]', (els) => els.filter((e) => /[QNB]$/.test(e.getAttribute('data-piece') ?? '')).map((e) => e.getAttribute('data-cell')!));
    await clickCell(page, knightOrQueen[0] ?? movable[0]!);
    await page.waitForTimeout(150);
    await page.screenshot({ path: `${out}/minichess.png` });
  });

  }

  // ——— a phone, 375 px wide: the lobby, a game, the leaderboard ———
  if (want('phone')) {
    const { page } = await stack.newPage({ viewport: { width: 375, height: 812 }, mobile: true });
    await page.goto('/');
    await page.locator('[data-testid="seat-black"] option[value^="bot:"]').first().waitFor({ state: 'attached' });
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${out}/lobby-phone.png` });
    const gameId = await createRoom(page, { game: 'othello', black: 'human', white: 'bot:random', sit: 'black', time: 'per-move', name: 'Ada' });
    for (let i = 0; i < 9 && (await myTurnOrEnd(page)); i++) {
      const legal = await page.$$eval('.game-screen .board [data-legal="true"]', (els) => els.map((e) => e.getAttribute('data-cell')!));
      const n = await ply(page);
      await clickCell(page, legal[i % legal.length]!);
      await page.waitForFunction(([sel, p]) => Number(document.querySelector(sel as string)?.getAttribute('data-ply')) > (p as number), [SCREEN, n] as const);
    }
    await myTurnOrEnd(page);
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${out}/phone.png` });
    void gameId;
    await page.goto('/ratings/othello');
    await page.waitForSelector('[data-testid="leaderboard"]');
    await page.screenshot({ path: `${out}/leaderboard-phone.png` });
    await page.context().close();
  }

  // ——— Gomoku on a phone: a move marked, waiting for its confirmation; then zoomed to 44 px points ———
  if (want('phone')) {
    const gomokuLine = ['h8', 'i8', 'i7', 'h7', 'g7', 'g6', 'f5', 'j9', 'k10', 'i9', 'k9', 'f6', 'h9', 'e6', 'h6'];
    await twoPlayers('gomoku', 14, () => 0, async (page) => {
      await page.tap(`${SCREEN} .board [data-cell="h6"]`);
      await page.waitForSelector('[data-testid="confirm-move"]');
      await page.screenshot({ path: `${out}/gomoku-phone.png` });
      await page.tap('[data-testid="zoom"]');
      await page.waitForTimeout(300);
      await page.screenshot({ path: `${out}/gomoku-phone-zoom.png` });
    }, gomokuLine, 'black', { width: 375, height: 812 });
  }

  // ——— the admin console: a table of 300 live games, a row's board on hover, a phone, one game large ———
  if (want('admin')) {
    await botGames([
      ['gomoku', 'engine-4', 'seed-002'],
      ['minichess', 'engine-4', 'engine-3'],
      ['othello', 'engine-5', 'engine-4'],
      ['gomoku', 'seed-001', 'engine-4'],
    ]);
    const seeded = await seedGames(stack.url, 300, 100);
    await new Promise((r) => setTimeout(r, 4000));
    const { page } = await stack.newPage({ viewport: { width: 1360, height: 900 } });
    await page.goto('/admin');
    await page.fill('[data-testid="admin-token"]', ADMIN_TOKEN);
    await page.press('[data-testid="admin-token"]', 'Enter');
    await page.selectOption('[data-testid="sort"]', 'ply');
    await page.click('[data-testid="sort-dir"]');
    await page.waitForSelector('[data-testid="game-row"]');
    await page.waitForSelector('[data-testid="queue-waiting"]');
    await page.hover('[data-testid="game-row"]:nth-child(6)');
    await page.waitForSelector('[data-testid="preview"] .board');
    await page.waitForTimeout(600);
    await page.screenshot({ path: `${out}/admin.png` });
    await page.mouse.move(0, 0);
    await page.selectOption('[data-testid="filter-kind"]', 'bot');
    await page.click('[data-testid="game-row"][data-thinking="true"]', { timeout: 20_000 });
    await page.waitForSelector('[data-testid="think-depth"]', { timeout: 20_000 });
    await page.waitForTimeout(400);
    await page.screenshot({ path: `${out}/admin-watch.png` });
    await page.context().close();
    const phone = await stack.newPage({ viewport: { width: 375, height: 812 }, mobile: true });
    await phone.page.goto('/admin');
    await phone.page.fill('[data-testid="admin-token"]', ADMIN_TOKEN);
    await phone.page.press('[data-testid="admin-token"]', 'Enter');
    await phone.page.waitForSelector('[data-testid="game-row"]');
    await phone.page.waitForTimeout(600);
    await phone.page.screenshot({ path: `${out}/admin-phone.png` });
    await phone.context.close();
    await seeded.stop();
  }
  // ——— MiniChess late in a game: both sides' material and the plies left before it decides ———
  if (want('material')) {
    await twoPlayers('minichess', 34, seededRandom(SEED_MATERIAL), async (page) => {
      await page.waitForSelector('[data-testid="material"]');
      await page.screenshot({ path: `${out}/minichess-material.png` });
    });
  }
  if (want('ratings')) {
  // ——— the leaderboard, and a profile linked from it ———
  await ladder([]);
  {
    const { page } = await stack.newPage({ viewport: { width: 1100, height: 620 } });
    await page.goto('/ratings/othello');
    await page.waitForSelector('[data-testid="leaderboard-row"]');
    await page.screenshot({ path: `${out}/leaderboard.png` });
    await page.click('[data-testid="leaderboard-row"] a');
    await page.waitForSelector('[data-testid="profile-games"]');
    await page.screenshot({ path: `${out}/profile.png` });
    await page.context().close();
  }
  }
  console.log(`screenshots written to ${out}`);
} finally {
  for (const g of guests) g.close();
  await stack.close();
}

/**
 * The page plays `game` as the first mover against a socket client; both sides play `script`
 * (or seeded random legal moves) for `plies` plies, then `shoot` runs with the page's player to move;
 * `phone` gives the page a phone's viewport and touch screen.
 */
async function twoPlayers(
  game: 'othello' | 'gomoku' | 'minichess',
  plies: number,
  random: () => number,
  shoot: (page: Page) => Promise<void>,
  script: string[] = [],
  pageColor?: 'black' | 'white',
  phone?: { width: number; height: number },
): Promise<void> {
  const { page } = await stack.newPage(phone ? { viewport: phone, mobile: true } : { viewport: { width: 1360, height: 900 } });
  await page.goto('/');
  const first = pageColor ?? (game === 'minichess' ? 'white' : 'black');
  const second = first === 'white' ? 'black' : 'white';
  const gameId = await createRoom(page, {
    game,
    black: 'human',
    white: 'human',
    sit: first,
    time: game === 'othello' ? 'bank' : 'per-move',
    name: game === 'othello' ? 'Ada' : game === 'gomoku' ? 'Noor' : 'Ada',
  });
  const friend = await new Client(stack.url).connected();
  guests.push(friend);
  const names = { othello: 'Grace', gomoku: 'Linus', minichess: 'Magnus' };
  const joined = expectOk(await friend.ask<{ seat: { token: string }; view: GameView }>('room:join', { gameId, name: names[game], color: second }));
  let view = joined.view;
  for (let i = 0; i < plies; i++) {
    const legal = view.legal;
    const wanted = script[i];
    const move = wanted && legal.includes(wanted) ? wanted : legal[Math.floor(random() * legal.length)]!;
    if (view.toMove === first) {
      await myTurnOrEnd(page);
      if (move === 'pass') { /* a forced pass: the server plays it */ }
      else if (game !== 'minichess') await clickCell(page, move);
      else {
        await clickCell(page, move.slice(0, 2));
        await clickCell(page, move.slice(2, 4));
      }
      await page.waitForFunction(([sel, p]) => Number(document.querySelector(sel as string)?.getAttribute('data-ply')) > (p as number), [SCREEN, view.ply] as const);
      const before = view;
      view = applyMoved(before, await friend.waitFor<MovedEvent>('moved', (e) => e.ply === before.ply))!;
    } else {
      view = await playMove(friend, view, joined.seat.token, move);
    }
    if (view.status === 'finished') break;
  }
  await page.waitForFunction(([sel, p]) => Number(document.querySelector(sel as string)?.getAttribute('data-ply')) >= (p as number), [SCREEN, view.ply] as const);
  await page.waitForTimeout(400);
  await shoot(page);
  await page.context().close();
}
