import { describe, expect, it } from 'vitest';
import { isForcedPass, PASS } from '../../shared/forced-pass.js';
import { GAMES } from '../../shared/games.js';
import { clockAfterMoves, CreateRoomSchema, type CreateRoom } from '../../shared/protocol/index.js';
import { seededRandom } from '../../shared/random.js';
import type { StoredGame } from '../store/store.js';
import * as G from './game.js';

const T0 = 1_000_000;
const room = (overrides: Partial<CreateRoom> = {}): CreateRoom =>
  CreateRoomSchema.parse({ game: 'othello', seats: { black: { kind: 'human' }, white: { kind: 'human' } }, ...overrides });

function must<T>(outcome: { ok: true; value: T } | { ok: false; error: { code: string } }): T {
  if (!outcome.ok) throw new Error(outcome.error.code);
  return outcome.value;
}

function liveGame(overrides: Partial<CreateRoom> = {}): { game: StoredGame; black: string; white: string } {
  const created = must(G.createGame(room(overrides), () => true, T0));
  const b = must(G.sit(created, 'black', { name: 'Ann', via: 'web-1' }, T0));
  const w = must(G.sit(b.game, 'white', { name: 'Bob', via: 'web-1' }, T0));
  return { game: w.game, black: b.token, white: w.token };
}

/** The game after each side's first move (Othello's f5 d6), played at `at`. */
function opened(game: StoredGame, at = T0): StoredGame {
  return must(G.playMove(must(G.playMove(game, 'black', 0, 'f5', at)).game, 'white', 1, 'd6', at)).game;
}

describe('rooms and seats', () => {
  it('starts when every seat is taken, and only then', () => {
    const created = must(G.createGame(room(), () => true, T0));
    expect(created.status).toBe('waiting');
    const one = must(G.sit(created, 'any', { name: 'Ann', via: 'web-1' }, T0));
    expect(one.game.status).toBe('waiting');
    const two = must(G.sit(one.game, 'any', { name: 'Bob', via: 'web-1' }, T0));
    expect(two.game.status).toBe('live');
    expect(two.color).not.toBe(one.color);
    expect(G.seatOfToken(two.game, two.token)).toBe(two.color);
    expect(G.seatOfToken(two.game, 'x'.repeat(43))).toBeUndefined();
  });

  it('starts a room of bots at once', () => {
    const bots = must(G.createGame(room({ seats: { black: { kind: 'bot', bot: 'random' }, white: { kind: 'bot', bot: 'random' } } }), () => true, T0));
    expect(bots.status).toBe('live');
  });

  it('stores only the hash of a seat token', () => {
    const { game, black } = liveGame();
    expect(JSON.stringify(game)).not.toContain(black);
  });

  it.each([
    ['a taken seat', (g: StoredGame) => G.sit(g, 'black', { name: 'Cy', via: 'web-1' }, T0), 'room/full'],
    ['an agent in a human seat', (g: StoredGame) => G.sit(must(G.leave(g, 'black', T0)), 'black', { name: 'bot', agent: true, via: 'web-1' }, T0), 'seat/not_agent'],
  ])('refuses %s', (_name, act, code) => {
    const created = must(G.createGame(room(), () => true, T0));
    const seated = must(G.sit(created, 'black', { name: 'Ann', via: 'web-1' }, T0)).game;
    const outcome = act(seated);
    expect(outcome.ok ? 'ok' : outcome.error.code).toBe(code);
  });

  it('refuses an unknown bot', () => {
    const outcome = G.createGame(room({ seats: { black: { kind: 'bot', bot: 'nobody' }, white: { kind: 'human' } } }), () => false, T0);
    expect(outcome.ok ? 'ok' : outcome.error.code).toBe('room/bad_seat');
  });

  it('keeps agent seats for agents, and a reserved one for its agent', () => {
    const created = must(G.createGame(room({ seats: { black: { kind: 'agent', agent: 'edax' }, white: { kind: 'human' } } }), () => true, T0));
    const human = G.sit(created, 'black', { name: 'Ann', via: 'web-1' }, T0);
    expect(human.ok ? 'ok' : human.error.code).toBe('room/full');
    const stranger = G.sit(created, 'black', { name: 'zebra', agent: true, via: 'web-1' }, T0);
    expect(stranger.ok ? 'ok' : stranger.error).toEqual({ code: 'room/reserved', message: 'The black seat is reserved for the agent edax.' });
    expect(must(G.sit(created, 'black', { name: 'edax', agent: true, via: 'web-1' }, T0)).color).toBe('black');
  });

  it('reserves a seat for an agent named in any letter case, as agent names are', () => {
    const created = must(G.createGame(room({ seats: { black: { kind: 'agent', agent: 'EDAX' }, white: { kind: 'human' } } }), () => true, T0));
    expect(must(G.sit(created, 'black', { name: 'Edax', agent: true, via: 'web-1' }, T0)).color).toBe('black');
    expect(must(G.declineChallenge(created, 'edax', T0)).result).toEqual({ winner: null, reason: 'declined' });
  });
});

describe('moves', () => {
  it('plays a legal move for the side to move at the current ply', () => {
    const { game } = liveGame();
    const { game: after, move } = must(G.playMove(game, 'black', 0, 'F5', T0 + 10));
    expect(move).toBe('f5');
    expect(after).toMatchObject({ version: game.version + 1, moves: ['f5'] });
    expect(G.toView(after, T0 + 10)).toMatchObject({ ply: 1, toMove: 'white' });
  });

  it.each(['othello', 'gomoku', 'minichess'] as const)('%s: the side to move read from the ply is the rules\' own, and a forced pass only where the game has passes, through whole random games', (name) => {
    const { rules, passes } = GAMES[name];
    const random = seededRandom(7);
    let forced = 0;
    for (let games = 0; games < 20; games++) {
      let { game } = liveGame({ game: name });
      while (game.status === 'live') {
        expect(G.toMove(game)).toBe(rules.toMove(game.position));
        const legal = rules.legalMoves(game.position).map((m) => rules.formatMove(m));
        if (isForcedPass(legal)) forced++;
        expect(G.forcedPass(game)).toBe(isForcedPass(legal) ? PASS : undefined);
        game = must(G.playMove(game, G.toMove(game), game.moves.length, legal[Math.floor(random() * legal.length)]!, T0)).game;
      }
    }
    // Othello's random games meet passes; the other games, which never pass, met none.
    expect(forced > 0).toBe(passes);
  });

  it.each([
    ['not your turn', 'white', 0, 'f5', 'move/not_your_turn'],
    ['a stale ply', 'black', 3, 'f5', 'move/stale_ply'],
    ['unreadable', 'black', 0, 'zz', 'move/syntax'],
    ['illegal', 'black', 0, 'a1', 'move/no_flip'],
    ['occupied', 'black', 0, 'd4', 'move/occupied'],
  ] as const)('refuses %s with %s and changes nothing', (_name, color, ply, text, code) => {
    const { game } = liveGame();
    const outcome = G.playMove(game, color, ply, text, T0);
    expect(outcome.ok ? 'ok' : outcome.error.code).toBe(code);
  });

  it('refuses moves before the start and after the end', () => {
    const created = must(G.createGame(room(), () => true, T0));
    const early = G.playMove(created, 'black', 0, 'f5', T0);
    expect(early.ok ? 'ok' : early.error.code).toBe('game/not_live');
    const { game } = liveGame();
    const over = must(G.resign(game, 'black', T0));
    const late = G.playMove(over, 'black', 0, 'f5', T0);
    expect(late.ok ? 'ok' : late.error.code).toBe('game/not_live');
  });

  it('ends the game with the rules\' outcome', () => {
    // Maruo's 9-move wipeout (test/fixtures/records/othello.json).
    let { game } = liveGame();
    'e6 f4 e3 f6 g5 d6 e7 f5 c5'.split(' ').forEach((m, i) => {
      game = must(G.playMove(game, i % 2 === 0 ? 'black' : 'white', i, m, T0)).game;
    });
    expect(game.status).toBe('finished');
    expect(game.result).toEqual({ winner: 'black', reason: 'no-moves' });
  });
});

describe('clocks', () => {
  it('per-move: a move after the limit is refused and the flag ends the game on time', () => {
    const game = opened(liveGame({ timeControl: { kind: 'per-move', moveMs: 5000 } }).game);
    expect(G.flagFall(game, 2, T0 + 4000)).toBeUndefined();
    const late = G.playMove(game, 'black', 2, 'c3', T0 + 5001);
    expect(late.ok ? 'ok' : late.error.code).toBe('clock/flag_fell');
    expect(G.flagFall(game, 2, T0 + 5001)?.result).toEqual({ winner: 'white', reason: 'timeout' });
    const moved = must(G.playMove(game, 'black', 2, 'c3', T0 + 4000)).game;
    expect(G.flagFall(moved, 2, T0 + 9000)).toBeUndefined(); // that ply has passed
    expect(G.toView(moved, T0 + 6000).clock).toMatchObject({ running: 'white', white: 3000, black: 5000 });
  });

  it('each move keeps the time its mover spent, with a time control or without; the clock left follows from it', () => {
    for (const timeControl of [{ kind: 'per-move', moveMs: 5000 }, { kind: 'none' }] as const) {
      const { game } = liveGame({ timeControl });
      const first = must(G.playMove(game, 'black', 0, 'f5', T0 + 1200)).game;
      const second = must(G.playMove(first, 'white', 1, 'd6', T0 + 1200 + 3100));
      expect(second.game.moveMs).toEqual([1200, 3100]);
      expect(G.movedEvent(first, second.game, T0 + 4300).spentMs).toBe(3100);
      const view = G.toView(second.game, T0 + 4300);
      expect(clockAfterMoves(timeControl, view.moveMs, 'black')).toEqual(timeControl.kind === 'none' ? [null, null] : [3800, 1900]);
    }
    // A game stored before times were kept: its old moves' times are unknown, the new ones known.
    const { game } = liveGame();
    const old = { ...must(G.playMove(game, 'black', 0, 'f5', T0 + 10)).game, moveMs: [] };
    expect(must(G.playMove(old, 'white', 1, 'd6', T0 + 510)).game.moveMs).toEqual([null, 500]);
  });

  it('bank + increment: time spent comes off the bank and the increment goes on', () => {
    const { game } = liveGame({ timeControl: { kind: 'bank', initialMs: 60_000, incrementMs: 2000 } });
    const moved = must(G.playMove(game, 'black', 0, 'f5', T0 + 10_000)).game;
    expect(moved.clock).toMatchObject({ black: 52_000, white: 60_000, turnStartedAt: T0 + 10_000 });
    const answered = must(G.playMove(moved, 'white', 1, 'd6', T0 + 10_000)).game;
    expect(G.flagFall(answered, 2, T0 + 10_000 + 54_000)?.result?.reason).toBe('timeout');
  });

  it('a bot whose move the platform still owes at its flag is given time, counted, then the game is drawn', () => {
    const { game } = liveGame({ timeControl: { kind: 'bank', initialMs: 10_000, incrementMs: 0 } });
    expect(G.owedBotFlag(game, 0, T0 + 9000, 1000, 3000)).toBeUndefined(); // not due
    const given = G.owedBotFlag(game, 0, T0 + 10_500, 1000, 3000)!;
    expect(given.status).toBe('live');
    expect(G.toView(given, T0 + 10_500).clock.black).toBe(1000);
    expect(given.clock.outageMs).toBe(1500);
    const again = G.owedBotFlag(given, 0, T0 + 12_000, 1000, 3000)!;
    expect(again.clock.outageMs).toBe(3000);
    expect(G.owedBotFlag(again, 0, T0 + 13_000, 1000, 3000)?.result).toMatchObject({ winner: null, reason: 'adjudication' });
    const moved = must(G.playMove(again, 'black', 0, 'f5', T0 + 12_500)).game;
    expect(moved.clock).toMatchObject({ black: 500, outageMs: 0 }); // the next turn starts owing nothing
  });

  it('a bot’s answer is given back the time the platform lost, less what its flag was given, and a late one the time past its flag', () => {
    const created = must(G.createGame(room({ timeControl: { kind: 'bank', initialMs: 10_000, incrementMs: 0 }, seats: { black: { kind: 'bot', bot: 'engine-5' }, white: { kind: 'human' } } }), () => true, T0));
    const game = must(G.sit(created, 'white', { name: 'Ann', via: 'web-1' }, T0)).game;
    const credited = G.creditBotAnswer(game, 0, T0 + 7000, 4000);
    expect(must(G.playMove(credited, 'black', 0, 'f5', T0 + 7000)).game).toMatchObject({ moveMs: [3000], clock: { black: 7000 } });
    const given = G.owedBotFlag(game, 0, T0 + 10_500, 1000, 60_000)!; // 1500 given at the flag
    expect(G.creditBotAnswer(given, 0, T0 + 11_000, 4000).clock.outageMs).toBe(4000);
    const late = G.creditBotAnswer(game, 0, T0 + 12_000, 0);
    expect(must(G.playMove(late, 'black', 0, 'f5', T0 + 12_000)).game).toMatchObject({ moveMs: [10_000], status: 'live' });
    expect(G.creditBotAnswer(liveGame({ timeControl: { kind: 'bank', initialMs: 10_000, incrementMs: 0 } }).game, 0, T0 + 12_000, 4000).clock.outageMs).toBeUndefined(); // people are not credited
  });
});

describe('presence', () => {
  it('a seat whose holding process is gone is away from then, unless another process holds it since', () => {
    const { game } = liveGame();
    expect(game.seats.white).toMatchObject({ connected: true, connectedVia: 'web-1' });
    const lost = G.presenceLost(game, 'white', 'web-1', T0 + 500);
    expect(lost.seats.white).toMatchObject({ connected: false, connectedVia: null, awaySince: T0 + 500 });
    expect(lost.version).toBe(game.version + 1);
    const moved = G.setConnected(game, 'white', true, T0 + 300, 'web-2');
    expect(moved.seats.white).toMatchObject({ connected: true, connectedVia: 'web-2', awaySince: null });
    expect(G.presenceLost(moved, 'white', 'web-1', T0 + 500)).toBe(moved);
    expect(G.setConnected(moved, 'white', true, T0 + 600, 'web-2')).toBe(moved);
  });
});

describe('draws, resignation, abandonment, adjudication, rematch', () => {
  it('a draw offer is accepted by the opponent only, and a move declines it', () => {
    const { game } = liveGame();
    const offered = must(G.offerDraw(game, 'black', T0));
    const self = G.acceptDraw(offered, 'black', T0);
    expect(self.ok ? 'ok' : self.error.code).toBe('game/no_draw_offer');
    expect(must(G.acceptDraw(offered, 'white', T0)).result).toEqual({ winner: null, reason: 'agreement' });
    // white has not moved; black moves, then white's reply clears black's offer
    const afterBlack = must(G.playMove(offered, 'black', 0, 'f5', T0)).game;
    expect(afterBlack.drawOffer).toBe('black');
    const afterWhite = must(G.playMove(afterBlack, 'white', 1, 'd6', T0)).game;
    expect(afterWhite.drawOffer).toBeNull();
  });

  it('a seat away past the grace loses, unless it came back', () => {
    const game = opened(liveGame().game);
    const away = G.setConnected(game, 'white', false, T0 + 100, null);
    expect(G.abandon(away, 'white', T0 + 100, T0 + 60_100)?.result).toEqual({ winner: 'black', reason: 'abandonment' });
    const back = G.setConnected(away, 'white', true, T0 + 200, 'web-1');
    expect(G.abandon(back, 'white', T0 + 100, T0 + 60_100)).toBeUndefined();
  });

  it('an admin adjudicates; a rematch swaps the colours', () => {
    const created = must(G.createGame(room({ seats: { black: { kind: 'human' }, white: { kind: 'bot', bot: 'engine-1' } } }), () => true, T0));
    const game = must(G.sit(created, 'black', { name: 'Ann', via: 'web-1' }, T0)).game;
    expect(game.status).toBe('live');
    expect(must(G.adjudicate(game, 'white', 'won endgame', T0)).result).toEqual({ winner: 'white', reason: 'adjudication', note: 'won endgame' });
    const fresh = G.rematchOf(game, T0);
    expect(G.linkRematch(game, fresh.id, T0).rematch).toBe(fresh.id);
    expect(G.linkRematch(G.linkRematch(game, fresh.id, T0), 'other', T0).rematch).toBe(fresh.id);
    expect(fresh.seats.black).toMatchObject({ kind: 'bot', name: 'engine-1' });
    expect(fresh.seats.white).toMatchObject({ kind: 'human', tokenHash: null });
  });
});

describe('the first move', () => {
  const aborted = { winner: null, reason: 'aborted' };

  it('a side that never makes its first move aborts the game: no winner, whoever it is', () => {
    const { game } = liveGame({ timeControl: { kind: 'bank', initialMs: 300_000, incrementMs: 0 } });
    expect(G.flagFall(game, 0, T0 + 29_999, 30_000)).toBeUndefined();
    expect(G.flagFall(game, 0, T0 + 30_000, 30_000)?.result).toMatchObject(aborted);
    const late = G.playMove(game, 'black', 0, 'f5', T0 + 30_001, 30_000);
    expect(late.ok ? 'ok' : late.error.code).toBe('game/not_live');
    // Black moved; white's first move is due 30 s after that, not 30 s after the start.
    const moved = must(G.playMove(game, 'black', 0, 'f5', T0 + 20_000, 30_000)).game;
    expect(G.flagFall(moved, 1, T0 + 49_999, 30_000)).toBeUndefined();
    expect(G.flagFall(moved, 1, T0 + 50_000, 30_000)?.result).toMatchObject(aborted);
  });

  it('the grace is the clock when the clock is shorter, and a game where both have moved ends on time', () => {
    const { game } = liveGame({ timeControl: { kind: 'per-move', moveMs: 5000 } });
    expect(G.firstMoveDue(game, 30_000)).toBe(T0 + 5000);
    expect(G.flagFall(game, 0, T0 + 5000, 30_000)?.result).toMatchObject(aborted);
    const first = must(G.playMove(game, 'black', 0, 'f5', T0 + 1000, 30_000)).game;
    const both = must(G.playMove(first, 'white', 1, 'd6', T0 + 2000, 30_000)).game;
    expect(G.firstMoveDue(both, 30_000)).toBeNull();
    expect(G.flagFall(both, 2, T0 + 7000, 30_000)?.result).toEqual({ winner: 'white', reason: 'timeout' });
  });

  it('a bot seat and a game without a clock have no first-move grace', () => {
    const { game } = liveGame({ timeControl: { kind: 'none' } });
    expect(G.firstMoveDue(game, 30_000)).toBeNull();
    const bot = must(G.createGame(room({ timeControl: { kind: 'bank', initialMs: 60_000, incrementMs: 0 }, seats: { black: { kind: 'bot', bot: 'random' }, white: { kind: 'bot', bot: 'random' } } }), () => true, T0));
    expect(G.firstMoveDue(bot, 30_000)).toBeNull();
    expect(G.flagFall(bot, 0, T0 + 60_000, 30_000)?.result).toEqual({ winner: 'white', reason: 'timeout' });
  });

  it('a player who leaves before both sides have moved aborts the game rather than losing it', () => {
    const { game } = liveGame();
    const away = G.setConnected(game, 'white', false, T0 + 100, null);
    expect(G.abandon(away, 'white', T0 + 100, T0 + 60_100)?.result).toMatchObject(aborted);
    const gone = G.setConnected(opened(game), 'white', false, T0 + 100, null);
    expect(G.abandon(gone, 'white', T0 + 100, T0 + 60_100)?.result).toEqual({ winner: 'black', reason: 'abandonment' });
  });
});
