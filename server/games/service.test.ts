import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Color } from '../../shared/color.js';
import { GAMES } from '../../shared/games.js';
import { applyMoved, clockAfterMoves, type GameView, type MovedEvent, type RoomSummary } from '../../shared/protocol/index.js';
import { seededRandom } from '../../shared/random.js';
import type { BotJobInput } from '../../bots/jobs/contract.js';
import { startRedis, type TestRedis } from '../../test/support/redis.js';
import { MemoryStore } from '../store/memory-store.js';
import { RedisStore } from '../store/redis-store.js';
import type { GameStore, StoredGame } from '../store/store.js';
import type { Broadcaster, BotTurns, Timers } from './ports.js';
import { AgentSessions } from './agent-sessions.js';
import { GameService } from './service.js';
import { catalogBots } from '../runtime/catalog-bots.js';
import { sampleGame } from '../store/store.contract.js';

// The service on fake ports (a recording broadcaster, bot turns and timers that only note what
// they are asked) over the memory store: what it decides, writes, sends and asks for.

class Recorder implements Broadcaster {
  readonly sent: { event: string; data: unknown }[] = [];
  moved = (e: MovedEvent) => void this.sent.push({ event: 'moved', data: e });
  state = (v: GameView) => void this.sent.push({ event: 'state', data: v });
  ended = (v: GameView) => void this.sent.push({ event: 'ended', data: v });
  thinking = () => undefined;
  roomChanged = (s: RoomSummary) => void this.sent.push({ event: 'rooms:changed', data: s });
  agentTurn = () => undefined;
  challenge = () => undefined;
  challengeDeclined = () => undefined;
  events = (event: string) => this.sent.filter((s) => s.event === event).map((s) => s.data);
}

let now = 1_000_000;
let store: MemoryStore;
let broadcaster: Recorder;
let asked: BotJobInput[];
let flags: { gameId: string; ply: number; at: number }[];
let service: GameService;

function makeService(over: GameStore = store): GameService {
  const botTurns: BotTurns = { request: async (input) => void asked.push(input), pending: async () => false, answered: async () => undefined, close: async () => undefined };
  const timers: Timers = { armFlag: async (gameId, ply, at) => void flags.push({ gameId, ply, at }), armAbandon: async () => undefined, cancel: async () => undefined, close: async () => undefined };
  return new GameService({
    store: over,
    broadcaster,
    botTurns,
    timers,
    bots: catalogBots(),
    agentExists: async () => false,
    instance: 'test',
    graceMs: 60_000,
    now: () => now,
  });
}

beforeEach(() => {
  store = new MemoryStore();
  broadcaster = new Recorder();
  asked = [];
  flags = [];
  service = makeService();
});

function ok<T>(outcome: { ok: true; value: T } | { ok: false; error: { code: string } }): T {
  if (!outcome.ok) throw new Error(`refused: ${outcome.error.code}`);
  return outcome.value;
}

async function twoPeople(game: 'othello' | 'gomoku' | 'minichess' = 'othello', timeControl: object = { kind: 'none' }) {
  const created = ok(await service.createRoom({ game, timeControl, seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: 'Ann', color: 'black' } }));
  const joined = ok(await service.join({ gameId: created.gameId, name: 'Bob', color: 'white' }));
  const tokens: Record<Color, string> = { black: created.seat!.token, white: joined.seat.token };
  return { gameId: created.gameId, tokens, view: joined.view };
}

describe('GameService on fake ports', () => {
  it('a move is written, acknowledged with the delta the room hears, and tells the lobby nothing', async () => {
    const { gameId, tokens, view } = await twoPeople();
    broadcaster.sent.length = 0;
    const moved = ok(await service.move({ gameId, token: tokens.black, ply: 0, move: 'f5' }));
    expect(broadcaster.events('moved')).toEqual([moved.moved]);
    expect(broadcaster.events('rooms:changed')).toEqual([]);
    expect(moved.moved).toMatchObject({ gameId, ply: 0, move: 'f5', color: 'black', status: 'live', result: null });
    const stored = (await store.get(gameId))!;
    expect(stored.moves).toEqual(['f5']);
    expect(applyMoved(view, moved.moved)).toMatchObject({ ply: 1, toMove: 'white', moves: ['f5'], position: ok(await service.view(gameId)).position });
  });

  it('refuses with a stable code and changes nothing', async () => {
    const { gameId, tokens } = await twoPeople();
    const before = (await store.get(gameId))!;
    const refused = await service.move({ gameId, token: tokens.white, ply: 0, move: 'f5' });
    expect(refused.ok ? 'ok' : refused.error.code).toBe('move/not_your_turn');
    expect((await service.move({ gameId, token: tokens.black, ply: 0, move: 'a1' })).ok).toBe(false);
    expect((await store.get(gameId))!.version).toBe(before.version);
  });

  it('decides again on the stored state when another process moved first', async () => {
    const { gameId, tokens } = await twoPeople();
    ok(await service.move({ gameId, token: tokens.black, ply: 0, move: 'f5' })); // remembered at ply 1
    const other = makeService(); // another process on the same store
    ok(await other.move({ gameId, token: tokens.white, ply: 1, move: 'd6' }));
    // This service still remembers ply 1: the move for ply 2 is decided again on the stored state.
    ok(await service.move({ gameId, token: tokens.black, ply: 2, move: 'c3' }));
    // And a move it would write on its remembered state fails the version check and is decided again.
    ok(await other.move({ gameId, token: tokens.white, ply: 3, move: 'd3' }));
    expect((await store.get(gameId))!.moves).toEqual(['f5', 'd6', 'c3', 'd3']);
    const late = await service.move({ gameId, token: tokens.white, ply: 3, move: 'd3' });
    expect(late.ok ? 'ok' : late.error.code).toBe('move/stale_ply');
  });

  it('asks a bot for its move with the clock’s budget, arms the flag, and plays the answer once', async () => {
    const created = ok(await service.createRoom({ game: 'othello', timeControl: { kind: 'per-move', moveMs: 5000 }, seats: { black: { kind: 'human' }, white: { kind: 'bot', bot: 'engine-1' } }, sit: { name: 'Ann', color: 'black' } }));
    const gameId = created.gameId;
    expect(flags).toEqual([{ gameId, ply: 0, at: now + 5000 }]);
    ok(await service.move({ gameId, token: created.seat!.token, ply: 0, move: 'f5' }));
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ gameId, ply: 1, bot: 'engine-1', budgetMs: 50, deadline: now + 5000 - 250 });
    const answer = { gameId, ply: 1, move: 'd6', game: 'othello' as const, bot: 'engine-1', depth: 3, score: 0, pv: ['d6'], nodes: 100, nps: 10_000, ms: 10 };
    expect(await service.onBotResult(answer)).toBe(true);
    expect(await service.onBotResult(answer)).toBe(false); // the same answer again is stale
    expect((await store.get(gameId))!.moves).toEqual(['f5', 'd6']);
  });

  it('plays a bot’s answer the platform delivered after its flag, however the clock ticks while it is decided', async () => {
    const created = ok(await service.createRoom({ game: 'othello', timeControl: { kind: 'per-move', moveMs: 5000 }, seats: { black: { kind: 'human' }, white: { kind: 'bot', bot: 'engine-1' } }, sit: { name: 'Ann', color: 'black' } }));
    const gameId = created.gameId;
    ok(await service.move({ gameId, token: created.seat!.token, ply: 0, move: 'f5' }));
    now += 7000; // the answer reaches the service 2 s after the bot's flag (a web process was down)
    const ticking = new GameService({ ...(service as unknown as { options: ConstructorParameters<typeof GameService>[0] }).options, now: () => now++ });
    const answer = { gameId, ply: 1, move: 'd6', game: 'othello' as const, bot: 'engine-1', depth: 3, score: 0, pv: ['d6'], nodes: 100, nps: 10_000, ms: 10 };
    expect(await ticking.onBotResult(answer)).toBe(true);
    const game = (await store.get(gameId))!;
    expect({ status: game.status, moves: game.moves }).toEqual({ status: 'live', moves: ['f5', 'd6'] });
  });

  it('plays a forced pass at once: the player who cannot move is not waited for, its clock charged nothing', async () => {
    // The first position of a seeded random Othello game where the side to move can only pass.
    const { rules } = GAMES.othello;
    const random = seededRandom(3);
    let script: string[] = [];
    for (let attempt = 0; attempt < 200 && script.length === 0; attempt++) {
      let position = rules.start();
      const moves: string[] = [];
      while (rules.outcome(position) === null) {
        const legal = rules.legalMoves(position);
        if (rules.formatMove(legal[0]!) === 'pass') {
          script = moves;
          break;
        }
        const move = legal[Math.floor(random() * legal.length)]!;
        moves.push(rules.formatMove(move));
        position = rules.play(position, move);
      }
    }
    expect(script.length).toBeGreaterThan(0);
    const { gameId, tokens } = await twoPeople('othello', { kind: 'bank', initialMs: 600_000, incrementMs: 0 });
    let view = ok(await service.view(gameId));
    for (const move of script) {
      now += 100;
      const acked = ok(await service.move({ gameId, token: tokens[view.toMove], ply: view.ply, move }));
      view = ok(await service.view(gameId));
      expect(acked.ply).toBe(view.moves.lastIndexOf(move));
    }
    const mover = script.length % 2 === 1 ? 'black' : 'white';
    const passer = mover === 'black' ? 'white' : 'black';
    expect(view.moves).toEqual([...script, 'pass']);
    expect(view.toMove).toBe(mover);
    const passed = (broadcaster.events('moved') as MovedEvent[]).at(-1)!;
    expect(passed).toMatchObject({ ply: script.length, move: 'pass', color: passer });
    const before = (await store.get(gameId))!.clock[passer];
    now += 5000;
    expect(ok(await service.view(gameId)).clock[passer]).toBe(before); // its clock does not run: not its turn
    expect(flags.some((f) => f.ply === script.length)).toBe(false); // no flag was armed for the pass
  });

  it('a bot answers a draw offer at once by its last evaluation: declines when even or better, accepts when worse', async () => {
    const created = ok(await service.createRoom({ game: 'othello', timeControl: { kind: 'none' }, seats: { black: { kind: 'human' }, white: { kind: 'bot', bot: 'engine-1' } }, sit: { name: 'Ann', color: 'black' } }));
    const { gameId } = created;
    const token = created.seat!.token;
    ok(await service.act('draw:offer', { gameId, token }));
    expect((await store.get(gameId))!).toMatchObject({ status: 'live', drawOffer: null }); // no evaluation yet: declined
    expect((broadcaster.events('state') as GameView[]).map((v) => v.drawOffer).slice(-2)).toEqual(['black', null]);
    ok(await service.move({ gameId, token, ply: 0, move: 'f5' }));
    const thinking = { depth: 6, pv: ['d6'], nodes: 1000, nps: 100_000, ms: 10 };
    await service.onBotThinking(gameId, 1, 'engine-1', { ...thinking, score: 40 });
    ok(await service.act('draw:offer', { gameId, token }));
    expect((await store.get(gameId))!.drawOffer).toBeNull(); // better for the bot: declined
    await service.onBotThinking(gameId, 1, 'engine-1', { ...thinking, score: -250 });
    ok(await service.act('draw:offer', { gameId, token }));
    expect((await store.get(gameId))!).toMatchObject({ status: 'finished', result: { winner: null, reason: 'agreement' } });
  });

  it('ends a game on its last move: the delta says so and ended follows with the whole view', async () => {
    const { gameId, tokens } = await twoPeople('gomoku');
    const line = ['h8', 'a1', 'i8', 'a2', 'j8', 'a3', 'k8', 'a4', 'l8'];
    let last: MovedEvent | undefined;
    for (const [ply, move] of line.entries()) last = ok(await service.move({ gameId, token: tokens[ply % 2 === 0 ? 'black' : 'white'], ply, move })).moved;
    expect(last).toMatchObject({ status: 'finished', result: { winner: 'black', reason: 'five' } });
    const ended = broadcaster.events('ended') as GameView[];
    expect(ended.map((v) => v.result)).toEqual([{ winner: 'black', reason: 'five' }]);
    expect(broadcaster.events('rooms:changed').at(-1)).toMatchObject({ id: gameId, status: 'finished' });
    const stored: StoredGame = (await store.get(gameId))!;
    expect(stored.status).toBe('finished');
  });

  it('keeps in memory only the games that can still change: a finished one is let go', async () => {
    const live = await twoPeople();
    ok(await service.move({ gameId: live.gameId, token: live.tokens.black, ply: 0, move: 'f5' }));
    const { gameId, tokens } = await twoPeople();
    ok(await service.move({ gameId, token: tokens.black, ply: 0, move: 'f5' }));
    expect(service.rememberedGames).toBe(2);
    ok(await service.act('resign', { gameId, token: tokens.white }));
    expect(service.rememberedGames).toBe(1);
    expect((await service.act('resign', { gameId, token: tokens.black })).ok).toBe(false);
    expect(service.rememberedGames).toBe(1);
  });
});

describe('the clock history', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis({ appendfsync: 'always' });
  });
  afterAll(() => redis.stop());

  it('records the time each move took, no less than the wait before it, and keeps it through a Redis restart', async () => {
    const prefix = `times${Math.random().toString(36).slice(2, 8)}:`;
    service = makeService(new RedisStore(redis.client(), prefix));
    const { gameId, tokens } = await twoPeople('othello', { kind: 'bank', initialMs: 60_000, incrementMs: 1000 });
    const waits = [1500, 250, 0, 4200];
    let view = ok(await service.view(gameId));
    for (const [ply, wait] of waits.entries()) {
      now += wait;
      const acked = ok(await service.move({ gameId, token: tokens[view.toMove], ply, move: view.legal[0]! }));
      expect(acked.moved.spentMs).toBe(wait);
      view = ok(await service.view(gameId));
    }
    expect(view.moveMs).toHaveLength(waits.length);
    for (const [i, wait] of waits.entries()) expect(view.moveMs[i]).toBeGreaterThanOrEqual(wait);
    const spent = view.moveMs.reduce<number>((sum, ms) => sum + (ms ?? 0), 0);
    expect(spent).toBeLessThanOrEqual(now - view.createdAt);
    // The clock left after each move, counted from the times, is the one the server keeps.
    const after = clockAfterMoves({ kind: 'bank', initialMs: 60_000, incrementMs: 1000 }, view.moveMs, 'black');
    expect(after.slice(-2)).toEqual([view.clock.black, view.clock.white]);

    await redis.kill();
    await redis.start();
    const reloaded = ok(await makeService(new RedisStore(redis.client(), prefix)).view(gameId));
    expect(reloaded.moves).toEqual(view.moves);
    expect(reloaded.moveMs).toEqual(view.moveMs);
  });
});

describe('timers that name only their game or seat', () => {
  it('a turn timer judges the turn the game is at: nothing before its flag, a loss on time after it', async () => {
    const { gameId, tokens } = await twoPeople('othello', { kind: 'per-move', moveMs: 5000 });
    ok(await service.move({ gameId, token: tokens.black, ply: 0, move: 'f5' }));
    ok(await service.move({ gameId, token: tokens.white, ply: 1, move: 'd6' }));
    now += 4999;
    await service.onTurnDue(gameId);
    expect((await store.get(gameId))!.status).toBe('live');
    now += 1;
    await service.onTurnDue(gameId);
    expect((await store.get(gameId))!.result).toEqual({ winner: 'white', reason: 'timeout' });
  });

  it('an absence timer judges the seat’s absence now: one that began again later is not cut short', async () => {
    const { gameId, tokens } = await twoPeople('othello', { kind: 'per-move', moveMs: 600_000 });
    ok(await service.move({ gameId, token: tokens.black, ply: 0, move: 'f5' }));
    ok(await service.move({ gameId, token: tokens.white, ply: 1, move: 'd6' }));
    await service.connectionChanged(gameId, 'white', false);
    now += 30_000;
    await service.connectionChanged(gameId, 'white', true);
    await service.connectionChanged(gameId, 'white', false); // away again: the grace starts over
    now += 30_000; // the first absence's timer comes due, claimed before it was armed again
    await service.onAwayDue(gameId, 'white');
    expect((await store.get(gameId))!.status).toBe('live');
    now += 30_000;
    await service.onAwayDue(gameId, 'white');
    expect((await store.get(gameId))!.result).toEqual({ winner: 'black', reason: 'abandonment' });
  });
});

describe('the first move', () => {
  const bank = { kind: 'bank', initialMs: 300_000, incrementMs: 0 };
  const aborted = { winner: null, reason: 'aborted' };
  const endedResults = () => (broadcaster.events('ended') as GameView[]).map((v) => v.result);

  it('white never makes its first move: its turn timer fires at the grace and the game is aborted, no winner', async () => {
    const { gameId } = await twoPeople('minichess', bank);
    expect(flags.at(-1)).toEqual({ gameId, ply: 0, at: now + 30_000 });
    now += 30_000;
    await service.onFlag(gameId, 0);
    expect(endedResults()).toEqual([expect.objectContaining(aborted)]);
    expect((await store.get(gameId))!).toMatchObject({ status: 'finished', result: aborted, moves: [] });
  });

  it('black moves and white never answers with its first move: aborted, and a late first move is refused', async () => {
    const { gameId, tokens } = await twoPeople('othello', bank);
    now += 10_000;
    ok(await service.move({ gameId, token: tokens.black, ply: 0, move: 'f5' }));
    expect(flags.at(-1)).toEqual({ gameId, ply: 1, at: now + 30_000 });
    now += 30_001;
    const late = await service.move({ gameId, token: tokens.white, ply: 1, move: 'd6' });
    expect(late.ok ? 'ok' : late.error.code).toBe('game/not_live');
    expect(endedResults()).toEqual([expect.objectContaining(aborted)]);
  });

  it('once both have moved, a flag falls as always: a loss on time', async () => {
    const { gameId, tokens } = await twoPeople('othello', { kind: 'per-move', moveMs: 5000 });
    ok(await service.move({ gameId, token: tokens.black, ply: 0, move: 'f5' }));
    ok(await service.move({ gameId, token: tokens.white, ply: 1, move: 'd6' }));
    expect(flags.at(-1)).toEqual({ gameId, ply: 2, at: now + 5000 });
    now += 5000;
    await service.onFlag(gameId, 2);
    expect(endedResults()).toEqual([{ winner: 'white', reason: 'timeout' }]);
  });

  it('a rated game aborted changes no rating and enters no player’s history', async () => {
    const seats = { black: { kind: 'human' }, white: { kind: 'human' } };
    const created = ok(await service.createRoom({ game: 'othello', rated: true, timeControl: bank, seats, sit: { name: 'Ann', color: 'black' } }, { account: 'Ann' }));
    ok(await service.join({ gameId: created.gameId, name: 'Bob', color: 'white' }, 'Bob'));
    ok(await service.move({ gameId: created.gameId, token: created.seat!.token, ply: 0, move: 'f5' }));
    now += 30_000;
    await service.onFlag(created.gameId, 1);
    expect((await store.get(created.gameId))!).toMatchObject({ result: aborted, ratingChange: null });
    for (const name of ['Ann', 'Bob']) {
      const identity = { kind: 'person', name } as const;
      expect((await store.ratings('othello', [identity]))[0]!.version).toBe(0);
      expect(await store.recentGames(identity, 10)).toEqual([]);
    }
  });
});

/** The store, counting the reads that go through every game of a status. */
function countingReads(inner: GameStore): { store: GameStore; reads: string[] } {
  const reads: string[] = [];
  const store = new Proxy(inner, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (name === 'list' || name === 'summaries') reads.push(`${name}(${args.join(', ')})`);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { store, reads };
}

describe('periodic and start-up work reads what changed, not every game', () => {
  it('recover re-arms every live game, past ten thousand, a page at a time', async () => {
    const live = Array.from({ length: 10_200 }, () => sampleGame({ status: 'live', timeControl: { kind: 'per-move', moveMs: 60_000 }, clock: { black: 60_000, white: 60_000, turnStartedAt: now } }));
    for (const game of live) await store.create(game);
    await store.create(sampleGame({ status: 'waiting' }));
    const { store: counted, reads } = countingReads(store);
    const recovered = await makeService(counted).recover();
    expect(recovered).toBe(10_200);
    expect(new Set(flags.map((f) => f.gameId))).toEqual(new Set(live.map((g) => g.id)));
    expect(reads).toEqual([]);
  });

  it("an agent's seats are found from its index, not by reading the live and waiting games; a finished game leaves it", async () => {
    const { store: counted, reads } = countingReads(store);
    service = makeService(counted);
    const sessions = new AgentSessions(service, counted, store, broadcaster, 'test', () => now);
    const rooms = [];
    for (const game of ['othello', 'gomoku'] as const) {
      const created = ok(await service.createRoom({ game, seats: { black: { kind: 'agent' }, white: { kind: 'human' } }, sit: { name: 'Bob', color: 'white' } }));
      ok(await sessions.join('Edax', created.gameId, 'black'));
      rooms.push(created);
    }
    await store.create(sampleGame({ status: 'live' })); // someone else's game
    await sessions.disconnected('Edax');
    for (const { gameId } of rooms) expect((await store.get(gameId))!.seats.black).toMatchObject({ connected: false, connectedVia: null });
    expect(await sessions.connected('Edax')).toBe(2); // its turn in both, sent again
    for (const { gameId } of rooms) expect((await store.get(gameId))!.seats.black).toMatchObject({ connected: true, connectedVia: 'test' });
    expect(reads).toEqual([]);
    expect((await store.indexed('agent-games', 'edax')).sort()).toEqual(rooms.map((r) => r.gameId).sort());
    ok(await service.act('resign', { gameId: rooms[0]!.gameId, token: rooms[0]!.seat!.token }));
    expect(await store.indexed('agent-games', 'edax')).toEqual([rooms[1]!.gameId]);
    expect((await store.indexed('instance-seats', 'test')).sort()).toEqual([`${rooms[1]!.gameId}:black`, `${rooms[1]!.gameId}:white`]);
    expect(await sessions.connected('Edax')).toBe(1);
  });
});
