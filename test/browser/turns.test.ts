import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GAMES } from '../../shared/games.js';
import { seededRandom } from '../../shared/random.js';
import { Client, expectOk } from '../support/server.js';
import { clickCell, createRoom, myTurnOrEnd, playOne, SCREEN } from './drive.js';
import { startStack, type Stack } from './stack.js';

// The turns the server plays or answers for a player, seen in Chromium: Othello's forced pass
// and a bot's answer to a draw offer.
let stack: Stack;

beforeAll(async () => {
  stack = await startStack('turns');
}, 60_000);

afterAll(async () => {
  await stack?.close();
}, 30_000);

interface GameRecord {
  status: string;
  moves: string[];
  moveMs: (number | null)[];
  result: { winner: string | null; reason: string } | null;
}

async function record(gameId: string): Promise<GameRecord> {
  return (await (await fetch(`${stack.url}/api/games/${gameId}`)).json()) as GameRecord;
}

/** The first seeded random Othello line, of an even length, after which Black can only pass. */
function lineToBlacksPass(): string[] {
  const { rules } = GAMES.othello;
  const random = seededRandom(11);
  for (let attempt = 0; attempt < 2000; attempt++) {
    let position = rules.start();
    const moves: string[] = [];
    while (rules.outcome(position) === null) {
      const legal = rules.legalMoves(position);
      if (rules.formatMove(legal[0]!) === 'pass') {
        if (moves.length % 2 === 0) return moves;
        break;
      }
      const move = legal[Math.floor(random() * legal.length)]!;
      moves.push(rules.formatMove(move));
      position = rules.play(position, move);
    }
  }
  throw new Error('no line to a pass of Black found');
}

describe('turns the server takes for a player, in Chromium', () => {
  it('an Othello player with no move is passed at once: the turn comes back, no clock charged for the pass', async () => {
    const line = lineToBlacksPass();
    const { page } = await stack.newPage();
    await page.goto('/');
    const gameId = await createRoom(page, { game: 'othello', black: 'human', white: 'human', sit: 'black', time: 'bank', name: 'Ada' });
    const friend = await new Client(stack.url).connected();
    try {
      const seat = expectOk(await friend.ask<{ seat: { token: string } }>('room:join', { gameId, name: 'Wim', color: 'white' })).seat;
      await page.waitForSelector(`${SCREEN}[data-status="live"]`);
      for (const [ply, move] of line.entries()) {
        if (ply % 2 === 0) {
          await page.waitForSelector(`${SCREEN}[data-ply="${ply}"][data-my-turn="true"]`);
          await clickCell(page, move);
        } else {
          expectOk(await friend.ask('move', { gameId, token: seat.token, ply, move }));
        }
        await page.waitForSelector(`${SCREEN}[data-ply="${ply + 1}"], ${SCREEN}[data-ply="${ply + 2}"]`);
      }
      // White's last move left Black without a move: the server passed for Black, White is to move.
      await page.waitForSelector(`${SCREEN}[data-ply="${line.length + 1}"][data-my-turn="false"]`);
      const played = await record(gameId);
      expect(played.moves).toEqual([...line, 'pass']);
      // The pass is played the moment White's move lands: its time is the server's few milliseconds.
      expect(played.moveMs.at(-1)).toBeLessThan(100);
      expect(await page.$('[data-clock="black"].running')).toBeNull();
      expect(await page.$('[data-clock="white"].running')).not.toBeNull();
      expect(await page.$('[data-testid="pass"]')).toBeNull();
    } finally {
      friend.close();
    }
  }, 90_000);

  it('a draw offered to a bot is answered at once: accepted (the game ends by agreement) or declined (and the player is told)', async () => {
    const { page } = await stack.newPage();
    await page.goto('/');
    const gameId = await createRoom(page, { game: 'othello', black: 'human', white: 'bot:engine-1', sit: 'black', name: 'Dee' });
    expect(await myTurnOrEnd(page)).toBe(true);
    await playOne(page, 'othello');
    expect(await myTurnOrEnd(page)).toBe(true); // the bot has answered, with an evaluation behind it
    await page.click('[data-testid="draw-offer"]');
    await page.waitForSelector(`.toast:has-text("declined your draw offer"), ${SCREEN}[data-status="finished"]`, { timeout: 5000 });
    const after = await record(gameId);
    if (after.status === 'finished') {
      expect(after.result).toEqual({ winner: null, reason: 'agreement' });
    } else {
      expect(after.status).toBe('live');
      await page.waitForSelector('[data-testid="draw-offer"]:not([disabled])');
    }
  }, 60_000);
});
