import { afterEach, describe, expect, it, vi } from 'vitest';
import { CreateRoomSchema } from '../shared/protocol/index.js';
import * as G from './games/game.js';
import { Quotas } from './quotas.js';
import { MemoryPlatform } from './store/platform-memory.js';
import { MemoryStore } from './store/memory-store.js';

const LIMITS = { liveRooms: 2, roomsPerMinute: 100, liveBotGames: 2, botSecondsPerMinute: 600, connections: 10 };
const humans = CreateRoomSchema.parse({ game: 'othello', seats: { black: { kind: 'human' }, white: { kind: 'human' } } });

async function madeRoom(store: MemoryStore, quotas: Quotas, id: string, status: 'waiting' | 'finished' = 'waiting'): Promise<void> {
  expect((await quotas.reserve('account:ann', id, humans.seats)).ok).toBe(true);
  const game = G.createGame(humans, () => true, Date.now(), { id, owner: 'account:ann' });
  if (!game.ok) throw new Error(game.error.code);
  await store.create({ ...game.value, status });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('quotas at the limit', () => {
  it('let go of a room that finished without being released, and the new room takes its place', async () => {
    const store = new MemoryStore();
    const quotas = new Quotas(new MemoryPlatform(), store, LIMITS);
    await madeRoom(store, quotas, 'live-one');
    await madeRoom(store, quotas, 'finished-unreleased', 'finished'); // a crash before its release
    expect((await quotas.reserve('account:ann', 'next', humans.seats)).ok).toBe(true);
    expect(await quotas.reserve('account:ann', 'one-more', humans.seats)).toMatchObject({ ok: false, error: { code: 'quota/live_rooms' } });
  });

  it('keep a reservation whose room is being made, and let it go a minute on if the room never was', async () => {
    const store = new MemoryStore();
    const quotas = new Quotas(new MemoryPlatform(), store, LIMITS);
    await madeRoom(store, quotas, 'live-one');
    expect((await quotas.reserve('account:ann', 'in-flight', humans.seats)).ok).toBe(true); // not in the store yet
    expect(await quotas.reserve('account:ann', 'next', humans.seats)).toMatchObject({ ok: false, error: { code: 'quota/live_rooms' } });
    const later = Date.now() + 61_000;
    vi.spyOn(Date, 'now').mockReturnValue(later);
    expect((await quotas.reserve('account:ann', 'next', humans.seats)).ok).toBe(true);
  });
});
