import { beforeEach, describe, expect, it } from 'vitest';
import type { BotJobInput, BotJobResult } from '../../bots/jobs/contract.js';
import type { Broadcaster, BotTurns, Timers } from '../games/ports.js';
import { GameService } from '../games/service.js';
import { MemoryStore } from '../store/memory-store.js';
import type { LeaseStore } from '../store/leases.js';
import type { GameStore } from '../store/store.js';
import { UNANSWERED_CHECK_MS } from '../games/bot-seats.js';
import { LEASE_MS, SWEEP_MS, Sweeper } from './sweeper.js';
import { catalogBots } from './catalog-bots.js';

// Two server processes over one store: `web-a` dies, `web-b` sweeps. The store counts the reads
// that go through every game of a status, which the sweep must not make.

const silent: Broadcaster = { moved: () => undefined, state: () => undefined, ended: () => undefined, thinking: () => undefined, roomChanged: () => undefined, agentTurn: () => undefined, challenge: () => undefined, challengeDeclined: () => undefined };
const log = { info: () => undefined, warn: () => undefined, error: () => undefined } as unknown as ConstructorParameters<typeof Sweeper>[0]['log'];

let now: number;
let store: MemoryStore;
let wideReads: string[];
let counted: GameStore & LeaseStore;
let asked: BotJobInput[];
let queueDown: boolean;
let storeDown: boolean;
/** Only reading a game fails: its master is failing over while the other masters (the indexes') answer. */
let gamesDown: boolean;
/** A game's write is stored and then refused, as when its master dies before a replica answers the wait. */
let storedThenRefused: boolean;
/** Finished jobs' answers by `gameId-ply`: asking for such a turn again delivers its answer, as BullMQ's adapter does. */
let answers: Map<string, BotJobResult>;

function serviceOf(instance: string): GameService {
  const botTurns: BotTurns = {
    request: async (input) => {
      if (queueDown) throw new Error('connect ECONNREFUSED (the queue)');
      const answer = answers.get(`${input.gameId}-${input.ply}`);
      if (answer) await service.onBotResult(answer);
      else asked.push(input);
    },
    pending: async (gameId, ply) => !answers.has(`${gameId}-${ply}`) && asked.some((a) => a.gameId === gameId && a.ply === ply),
    answered: async () => undefined,
    close: async () => undefined,
  };
  const timers: Timers = { armFlag: async () => undefined, armAbandon: async () => undefined, cancel: async () => undefined, close: async () => undefined };
  const service: GameService = new GameService({ store: counted, broadcaster: silent, botTurns, timers, bots: catalogBots(), agentExists: async () => true, instance, graceMs: 60_000, now: () => now });
  return service;
}

function sweeperOf(instance: string, service: GameService): Sweeper {
  return new Sweeper({ store: counted, leases: counted, service, instance, holders: async () => [], log });
}

beforeEach(() => {
  now = 1_000_000;
  store = new MemoryStore();
  wideReads = [];
  asked = [];
  queueDown = false;
  storeDown = false;
  gamesDown = false;
  storedThenRefused = false;
  answers = new Map();
  counted = new Proxy(store, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (storeDown || (gamesDown && name === 'get')) return Promise.reject(new Error('connect ECONNREFUSED (the store)'));
        if (name === 'list' || name === 'summaries') wideReads.push(String(name));
        const done = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (storedThenRefused && name === 'update') return Promise.resolve(done).then(() => Promise.reject(new Error('the master of the game did not answer WAIT')));
        return done;
      };
    },
  });
});

async function humanRoom(service: GameService): Promise<string> {
  const created = await service.createRoom({ game: 'othello', seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: 'Ann', color: 'black' } });
  if (!created.ok) throw new Error(created.error.code);
  if (!(await service.join({ gameId: created.value.gameId, name: 'Bob', color: 'white' })).ok) throw new Error('join');
  return created.value.gameId;
}

describe('the sweep', () => {
  it("frees the seats of a process whose lease ran out from that process's own index, reading no live game's summary", async () => {
    const [a, b] = [serviceOf('web-a'), serviceOf('web-b')];
    const theirs = [await humanRoom(a), await humanRoom(a)];
    const ours = await humanRoom(b);
    await store.renewLease('web-a', now + LEASE_MS);
    await store.renewLease('web-b', now + 60_000);
    const sweeper = sweeperOf('web-b', b);
    await sweeper.sweep(now + SWEEP_MS); // web-a still alive: nothing to do
    for (const id of theirs) expect((await store.get(id))!.seats.black.connected).toBe(true);
    now += LEASE_MS + SWEEP_MS;
    await sweeper.sweep(now);
    for (const id of theirs) {
      const game = (await store.get(id))!;
      for (const seat of [game.seats.black, game.seats.white]) expect(seat).toMatchObject({ connected: false, connectedVia: null, awaySince: now });
    }
    expect((await store.get(ours))!.seats.black).toMatchObject({ connected: true, connectedVia: 'web-b' });
    expect(wideReads).toEqual([]);
    expect(await store.indexed('instance-seats', 'web-a')).toEqual([]);
  });

  it('asks again, at its next pass, for a bot turn the queue could not take, and for no other', async () => {
    const service = serviceOf('web-b');
    await store.renewLease('web-b', now + 60_000);
    const created = await service.createRoom({ game: 'othello', seats: { black: { kind: 'human' }, white: { kind: 'bot', bot: 'engine-1' } }, sit: { name: 'Ann', color: 'black' } });
    if (!created.ok) throw new Error(created.error.code);
    queueDown = true;
    await service.move({ gameId: created.value.gameId, token: created.value.seat!.token, ply: 0, move: 'f5' }).catch(() => undefined);
    expect(asked).toEqual([]);
    queueDown = false;
    await sweeperOf('web-b', service).sweep(now + SWEEP_MS);
    expect(asked.map((a) => [a.gameId, a.ply])).toEqual([[created.value.gameId, 1]]);
    expect(await store.indexed('unqueued-bot-turns', '')).toEqual([]);
    expect(wideReads).toEqual([]);
  });

  it('asks again for a bot turn whose job the queue took and then lost, once it has gone unanswered a while', async () => {
    const service = serviceOf('web-b');
    await store.renewLease('web-b', now + 60_000);
    const created = await service.createRoom({ game: 'othello', seats: { black: { kind: 'human' }, white: { kind: 'bot', bot: 'engine-1' } }, sit: { name: 'Ann', color: 'black' } });
    if (!created.ok) throw new Error(created.error.code);
    const gameId = created.value.gameId;
    await service.move({ gameId, token: created.value.seat!.token, ply: 0, move: 'f5' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(asked.map((a) => a.ply)).toEqual([1]);
    asked.length = 0; // the queue's master failed over before a replica had the job
    const sweeper = sweeperOf('web-b', service);
    await sweeper.sweep(now + SWEEP_MS);
    expect(asked).toEqual([]);
    now += UNANSWERED_CHECK_MS;
    await sweeper.sweep(now);
    expect(asked.map((a) => [a.gameId, a.ply])).toEqual([[gameId, 1]]);
    now += UNANSWERED_CHECK_MS;
    await sweeper.sweep(now);
    expect(asked).toHaveLength(1);
  });

  it('asks the bot at its next pass when the move that made it its turn was stored but refused', async () => {
    const service = serviceOf('web-b');
    await store.renewLease('web-b', now + 60_000);
    const created = await service.createRoom({ game: 'othello', seats: { black: { kind: 'human' }, white: { kind: 'bot', bot: 'engine-1' } }, sit: { name: 'Ann', color: 'black' } });
    if (!created.ok) throw new Error(created.error.code);
    const gameId = created.value.gameId;
    storedThenRefused = true;
    await expect(service.move({ gameId, token: created.value.seat!.token, ply: 0, move: 'f5' })).rejects.toThrow(/WAIT/);
    storedThenRefused = false;
    expect((await store.get(gameId))!.moves).toEqual(['f5']);
    expect(asked).toEqual([]);
    await sweeperOf('web-b', service).sweep(now + SWEEP_MS);
    expect(asked.map((a) => [a.gameId, a.ply])).toEqual([[gameId, 1]]);
  });

  /** A game against a bot whose answer to f5 came while the store was out of reach: not played. */
  async function answerUnplayed(service: GameService): Promise<string> {
    await store.renewLease('web-b', now + 60_000);
    const created = await service.createRoom({ game: 'othello', seats: { black: { kind: 'human' }, white: { kind: 'bot', bot: 'engine-1' } }, sit: { name: 'Ann', color: 'black' } });
    if (!created.ok) throw new Error(created.error.code);
    const gameId = created.value.gameId;
    await service.move({ gameId, token: created.value.seat!.token, ply: 0, move: 'f5' });
    const answer: BotJobResult = { gameId, ply: 1, game: 'othello', bot: 'engine-1', move: 'd6', depth: 1, score: 0, pv: ['d6'], nodes: 1, nps: 1, ms: 1 };
    answers.set(`${gameId}-1`, answer);
    storeDown = true;
    await expect(service.onBotResult(answer)).rejects.toThrow(/ECONNREFUSED/);
    storeDown = false;
    expect((await store.get(gameId))!.moves).toEqual(['f5']);
    return gameId;
  }

  it("plays, at its next pass, a bot's answer that came while the store was out of reach", async () => {
    const service = serviceOf('web-b');
    const gameId = await answerUnplayed(service);
    await sweeperOf('web-b', service).sweep(now + SWEEP_MS);
    expect((await store.get(gameId))!.moves).toEqual(['f5', 'd6']);
  });

  it("keeps a bot turn to ask again when its game cannot be read at the sweep's pass, and plays it at the next", async () => {
    const service = serviceOf('web-b');
    const gameId = await answerUnplayed(service);
    gamesDown = true;
    const sweeper = sweeperOf('web-b', service);
    await sweeper.sweep(now + SWEEP_MS);
    gamesDown = false;
    expect((await store.get(gameId))!.moves).toEqual(['f5']);
    await sweeper.sweep(now + 2 * SWEEP_MS);
    expect((await store.get(gameId))!.moves).toEqual(['f5', 'd6']);
  });
});
