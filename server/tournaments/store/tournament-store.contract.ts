import { describe, expect, it } from 'vitest';
import { NOT_STARTED, type Tournament } from '../model.js';
import type { TournamentStore } from './tournament-store.js';

export function sampleTournament(overrides: Partial<Tournament> = {}): Tournament {
  return {
    id: `t${Math.random().toString(36).slice(2, 8)}`,
    name: 'Saturday Swiss',
    game: 'othello',
    format: 'swiss',
    rounds: 5,
    minutes: 60,
    timeControl: { kind: 'per-move', moveMs: 5000 },
    rated: true,
    startsAt: null,
    maxEntrants: 16,
    minRating: null,
    createdBy: 'account:ann',
    ...NOT_STARTED,
    createdAt: 1000,
    ...overrides,
  };
}

/** What every TournamentStore must do, run against each implementation. */
export function tournamentStoreContract(name: string, open: () => Promise<TournamentStore>): void {
  describe(`${name} tournament store contract`, () => {
    it('creates a tournament once and reads it back', async () => {
      const store = await open();
      const t = sampleTournament();
      expect(await store.create(t)).toBe(true);
      expect(await store.create({ ...t, name: 'again' })).toBe(false);
      expect(await store.get(t.id)).toEqual(t);
      expect(await store.get('missing')).toBeUndefined();
    });

    it('writes a version only over the one before it: of two writers of one round, one wins', async () => {
      const store = await open();
      const t = sampleTournament();
      await store.create(t);
      const a = { ...t, version: 2, round: 1, pairings: [{ round: 1, table: 1, black: 'person:a', white: 'person:b', gameId: 'g1', winner: null, reason: null }] };
      const b = { ...t, version: 2, round: 1, pairings: [{ round: 1, table: 1, black: 'person:b', white: 'person:a', gameId: 'g1', winner: null, reason: null }] };
      const written = await Promise.all([store.update(a), store.update(b)]);
      expect(written.filter(Boolean)).toHaveLength(1);
      expect((await store.get(t.id))?.pairings).toEqual((written[0] ? a : b).pairings);
      expect(await store.update({ ...t, version: 4 })).toBe(false);
      expect(await store.update({ ...sampleTournament(), version: 2 })).toBe(false);
    });

    it('lists ids by status, the newest first, moving them as their status changes', async () => {
      const store = await open();
      const old = sampleTournament({ createdAt: 1 });
      const young = sampleTournament({ createdAt: 2 });
      await store.create(old);
      await store.create(young);
      expect((await store.ids('upcoming', 10)).filter((id) => id === old.id || id === young.id)).toEqual([young.id, old.id]);
      await store.update({ ...old, status: 'running', version: 2 });
      expect(await store.ids('upcoming', 10)).not.toContain(old.id);
      expect(await store.ids('running', 10)).toContain(old.id);
    });
  });
}
