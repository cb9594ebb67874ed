import { describe, expect, it } from 'vitest';
import type { AdminQuery } from '../../shared/protocol/index.js';
import type { GameStore, GameSummary } from '../store/store.js';
import { LiveTable, TABLE_READ_MS } from './live-table.js';

const QUERY: AdminQuery = { sort: 'started', dir: 'asc', offset: 0, limit: 50 };

function summary(id: string): GameSummary {
  const seat = (name: string) => ({ kind: 'human' as const, name, reservedFor: null, tokenHash: null, connected: true, connectedVia: null, awaySince: null, account: false });
  return {
    id,
    game: 'othello',
    options: {},
    timeControl: { kind: 'none' },
    showThinking: true,
    seats: { black: seat(`${id}-a`), white: seat(`${id}-b`) },
    status: 'live',
    start: '',
    position: { game: 'othello', board: '', toMove: 'black' },
    version: 1,
    clock: { black: null, white: null, turnStartedAt: null },
    result: null,
    drawOffer: null,
    createdAt: 1,
    updatedAt: 1,
    rematch: null,
    rated: false,
    ladder: false,
    owner: null,
    ratingChange: null,
    ply: 0,
  } as GameSummary;
}

/** A store whose read of the live games answers only when the test says so. */
function slowStore() {
  const reads: { games: string[]; answer: () => void }[] = [];
  let live: string[] = [];
  const store = {
    summaries: () =>
      new Promise<GameSummary[]>((resolve) => {
        const games = [...live];
        reads.push({ games, answer: () => resolve(games.map(summary)) });
      }),
  } as unknown as GameStore;
  return { store, reads, set: (ids: string[]) => (live = ids) };
}

const settled = async <T>(promise: Promise<T>): Promise<T | 'pending'> => Promise.race([promise, new Promise<'pending'>((r) => setTimeout(() => r('pending'), 20))]);
const ids = (page: { rows: readonly { id: string }[] } | 'pending') => (page === 'pending' ? page : page.rows.map((r) => r.id));

describe('the live table', () => {
  it('answers a page from the latest reading at once while the next is read, and waits only for the first or a long-abandoned one', async () => {
    const { store, reads, set } = slowStore();
    let now = 0;
    const table = new LiveTable({ store, queue: async () => ({}), connections: async () => 1, thinking: () => undefined, now: () => now });

    set(['a']);
    const first = table.page(QUERY);
    expect(await settled(first)).toBe('pending');
    reads[0]!.answer();
    expect(ids(await first)).toEqual(['a']);

    // Seconds later, with a read of the store slow to answer: the page comes from the last reading,
    // one read serves every caller, and the feed's fresh reading waits for it.
    set(['a', 'b']);
    now = 3 * TABLE_READ_MS;
    expect(ids(await settled(table.page(QUERY)))).toEqual(['a']);
    const fresh = table.fresh();
    expect(ids(await settled(table.page({ ...QUERY, q: 'a' })))).toEqual(['a']);
    expect(await settled(fresh)).toBe('pending');
    expect(reads).toHaveLength(2);
    reads[1]!.answer();
    expect((await fresh).rows.map((r) => r.id)).toEqual(['a', 'b']);
    expect(ids(await table.page(QUERY))).toEqual(['a', 'b']);

    // Nobody asked for a minute: that reading is too old to show, so the page waits for a new one.
    set(['c']);
    now += 60_000;
    const late = table.page(QUERY);
    expect(await settled(late)).toBe('pending');
    reads[2]!.answer();
    expect(ids(await late)).toEqual(['c']);
  });
});
