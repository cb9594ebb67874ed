import { catalogBots } from '../runtime/catalog-bots.js';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TournamentDelta } from '../../shared/protocol/index.js';
import type { BotTurns, Broadcaster, Timers } from '../games/ports.js';
import { GameService } from '../games/service.js';
import { createLogger } from '../log.js';
import { MemoryStore } from '../store/memory-store.js';
import { MemoryPlatform } from '../store/platform-memory.js';
import { TournamentEntries } from './entries.js';
import type { TournamentNotifier } from './notifier.js';
import { TournamentRunner } from './runner.js';
import { MemoryTournaments } from './store/memory-tournaments.js';

// Two runners (two processes) over one store: a round is written once, and a round whose games a
// dying process only half made is finished by the other from what was written.

const quiet: Broadcaster = { moved: () => undefined, state: () => undefined, ended: () => undefined, thinking: () => undefined, roomChanged: () => undefined, agentTurn: () => undefined, challenge: () => undefined, challengeDeclined: () => undefined };
const botTurns: BotTurns = { request: async () => undefined, pending: async () => false, answered: async () => undefined, close: async () => undefined };
const timers: Timers = { armFlag: async () => undefined, armAbandon: async () => undefined, cancel: async () => undefined, close: async () => undefined };

let games: MemoryStore;
let platform: MemoryPlatform;
let tournaments: MemoryTournaments;
let deltas: TournamentDelta[];
let notifier: TournamentNotifier;

/** A roster of the eight test bots in every game. */
const testBots = Array.from({ length: 8 }, (_, i) => ({ name: `bot-${i}`, budgetMs: 50, description: 'a test bot' }));
const bots = catalogBots({ othello: testBots, gomoku: testBots, minichess: testBots });
const service = (): GameService => new GameService({ store: games, broadcaster: quiet, botTurns, timers, bots, agentExists: async () => true, instance: 'web', graceMs: 60_000 });
const runner = (instance: string, gameService = service()): TournamentRunner => new TournamentRunner({ tournaments, games, platform, service: gameService, notifier, instance, log: createLogger('silent') });

async function startedSwiss(bots: number): Promise<string> {
  const entries = new TournamentEntries({ tournaments, games, notifier, botExists: () => true });
  const made = await entries.create({ name: 'Runner', game: 'othello', format: 'swiss', rounds: 3, bots: Array.from({ length: bots }, (_, i) => `bot-${i}`) }, { kind: 'admin' });
  if (!made.ok) throw new Error(made.error.code);
  const started = await entries.start({ tournamentId: made.value.tournament.id }, { kind: 'admin' });
  if (!started.ok) throw new Error(started.error.code);
  return made.value.tournament.id;
}

beforeEach(() => {
  games = new MemoryStore();
  platform = new MemoryPlatform();
  tournaments = new MemoryTournaments();
  deltas = [];
  notifier = { listed: () => undefined, changed: (d) => void deltas.push(d), paired: () => undefined };
});

describe('the tournament runner', () => {
  it('two processes advancing one tournament at once pair its round once and make each game once', async () => {
    const id = await startedSwiss(8);
    await Promise.all([runner('a').advance(id), runner('b').advance(id), runner('c').advance(id)]);
    const t = (await tournaments.get(id))!;
    expect(t.round).toBe(1);
    expect(t.pairings).toHaveLength(4);
    const paired = deltas.filter((d) => d.pairings.some((p) => p.round === 1 && p.winner === null));
    expect(paired).toHaveLength(1);
    for (const p of t.pairings) expect((await games.get(p.gameId!))?.status).toBe('live');
  });

  it('a round half-started by a process that died is finished by another, with the same pairings', async () => {
    const id = await startedSwiss(8);
    const dying = service();
    let made = 0;
    const createRoom = dying.createRoom.bind(dying);
    dying.createRoom = async (...args) => {
      if (++made > 1) throw new Error('the process died here');
      return createRoom(...args);
    };
    await runner('dies', dying).advance(id).catch(() => undefined);
    const half = (await tournaments.get(id))!;
    expect(half.pairings).toHaveLength(4);
    const exist = await Promise.all(half.pairings.map((p) => games.get(p.gameId!)));
    expect(exist.filter(Boolean)).toHaveLength(1);

    await runner('other').advance(id);
    const finished = (await tournaments.get(id))!;
    expect(finished.pairings).toEqual(half.pairings);
    expect(finished.round).toBe(1);
    for (const p of finished.pairings) expect((await games.get(p.gameId!))?.status).toBe('live');
  });

  it('a person who asks for the seat before the round’s games are made gets it, and the game is made once', async () => {
    const entries = new TournamentEntries({ tournaments, games, notifier, botExists: () => true });
    const made = await entries.create({ name: 'Quick', game: 'othello', format: 'swiss', rounds: 1, bots: ['bot-0'] }, { kind: 'admin' });
    if (!made.ok) throw new Error(made.error.code);
    const id = made.value.tournament.id;
    expect((await entries.join({ tournamentId: id }, { kind: 'person', name: 'Ann' })).ok).toBe(true);
    await entries.start({ tournamentId: id }, { kind: 'admin' });
    // The pairing is written (and told) by a process that dies before making the game.
    const dying = service();
    dying.createRoom = async () => {
      throw new Error('the process died here');
    };
    await runner('dies', dying).advance(id).catch(() => undefined);
    const paired = (await tournaments.get(id))!;
    const gameId = paired.pairings[0]!.gameId!;
    expect(await games.get(gameId)).toBeUndefined();

    const seat = await runner('web').seatOfPerson(paired, 'Ann');
    expect(seat.ok && seat.value.seat.gameId).toBe(gameId);
    expect((await games.get(gameId))?.status).toBe('live');
    await runner('other').advance(id);
    expect((await tournaments.get(id))!.pairings).toEqual(paired.pairings);
    const again = await runner('web').seatOfPerson(paired, 'Ann');
    expect(again.ok && again.value.seat.token).not.toBe(seat.ok && seat.value.seat.token);
    expect(await runner('web').seatOfPerson(paired, 'Bob')).toMatchObject({ ok: false, error: { code: 'room/not_found' } });
  });

  it('one lock holder at a time: a second process does nothing while the first holds it', async () => {
    const id = await startedSwiss(4);
    await platform.lock('tournaments', 'a', 60_000);
    await runner('b').tick();
    expect((await tournaments.get(id))!.round).toBe(0);
    await runner('a').tick();
    expect((await tournaments.get(id))!.round).toBe(1);
  });
});
