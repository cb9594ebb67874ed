import { beforeEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../store/memory-store.js';
import { TournamentEntries } from './entries.js';
import { MemoryTournaments } from './store/memory-tournaments.js';

let entries: TournamentEntries;
let games: MemoryStore;
beforeEach(() => {
  games = new MemoryStore();
  entries = new TournamentEntries({ tournaments: new MemoryTournaments(), games, notifier: { listed: () => undefined, changed: () => undefined, paired: () => undefined }, botExists: (_game, name) => name.startsWith('engine') });
});

const ann = { kind: 'person', name: 'Ann' } as const;
const bob = { kind: 'person', name: 'Bob' } as const;
const agent = { kind: 'agent', name: 'edax', instance: 'web-1' } as const;

async function made(spec: object = {}): Promise<string> {
  const created = await entries.create({ name: 'T', game: 'othello', format: 'swiss', ...spec }, ann);
  if (!created.ok) throw new Error(created.error.code);
  return created.value.tournament.id;
}

describe('tournament entries', () => {
  it('refuses an unknown bot, and agents do not create tournaments', async () => {
    expect(await entries.create({ name: 'T', game: 'othello', format: 'swiss', bots: ['nobody'] }, ann)).toMatchObject({ ok: false, error: { code: 'room/bad_seat' } });
    expect(await entries.create({ name: 'T', game: 'othello', format: 'swiss' }, agent)).toMatchObject({ ok: false, error: { code: 'tournament/not_allowed' } });
  });

  it('enters once, up to the limit, above the minimum rating', async () => {
    const id = await made({ maxEntrants: 2, bots: ['engine-1'] });
    expect((await entries.join({ tournamentId: id }, ann)).ok).toBe(true);
    expect((await entries.join({ tournamentId: id }, ann)).ok).toBe(true); // already in: nothing changes
    expect(await entries.join({ tournamentId: id }, bob)).toMatchObject({ ok: false, error: { code: 'tournament/full' } });
    const high = await made({ minRating: 1600 });
    expect(await entries.join({ tournamentId: high }, agent)).toMatchObject({ ok: false, error: { code: 'tournament/rating_too_low' } });
    expect(await entries.join({ tournamentId: 'missing' }, ann)).toMatchObject({ ok: false, error: { code: 'tournament/not_found' } });
  });

  it('only the creator starts it, with two entrants; a Swiss then takes no one, an arena does', async () => {
    const swiss = await made();
    await entries.join({ tournamentId: swiss }, ann);
    expect(await entries.start({ tournamentId: swiss }, ann)).toMatchObject({ ok: false, error: { code: 'tournament/too_few' } });
    await entries.join({ tournamentId: swiss }, agent);
    expect(await entries.start({ tournamentId: swiss }, bob)).toMatchObject({ ok: false, error: { code: 'tournament/not_allowed' } });
    expect((await entries.start({ tournamentId: swiss }, ann)).ok).toBe(true);
    expect(await entries.join({ tournamentId: swiss }, bob)).toMatchObject({ ok: false, error: { code: 'tournament/closed' } });
    const arena = await made({ format: 'arena', bots: ['engine-1', 'engine-2'] });
    expect((await entries.start({ tournamentId: arena }, { kind: 'admin' })).ok).toBe(true);
    expect((await entries.join({ tournamentId: arena }, bob)).ok).toBe(true);
  });

  it('a withdrawal before the start takes the entry back; after it, the entrant stays in the standings, withdrawn', async () => {
    const id = await made({ bots: ['engine-1'] });
    await entries.join({ tournamentId: id }, ann);
    await entries.join({ tournamentId: id }, bob);
    expect((await entries.withdraw({ tournamentId: id }, bob)).ok).toBe(true);
    expect(await entries.withdraw({ tournamentId: id }, bob)).toMatchObject({ ok: false, error: { code: 'tournament/not_entered' } });
    await entries.join({ tournamentId: id }, bob);
    await entries.start({ tournamentId: id }, ann);
    await entries.withdraw({ tournamentId: id }, bob);
    const view = await entries.view({ tournamentId: id });
    expect(view.ok && view.value.tournament.standings.find((r) => r.id === 'person:bob')?.withdrawn).toBe(true);
  });
});
