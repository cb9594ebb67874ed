import type { AdminPage, AdminQuery, AdminRow, AdminSeat, AdminSummary, ThinkingView } from '../../shared/protocol/index.js';
import { moverAt } from '../../shared/games.js';
import { GAME_IDS, type GameId } from '../../shared/rules.js';
import { clockView } from '../games/clock.js';
import type { GameStore, GameSummary, StoredSeat } from '../store/store.js';

/** How stale a reading may be before a page asks for a new one: every admin shares one a second. */
export const TABLE_READ_MS = 1000;
/**
 * How old a reading may be and still answer a page at once while the next is read. The feed reads
 * anew every TABLE_READ_MS, so a reading is older than that only by the time a read takes.
 */
const STALE_READING_MS = 10 * TABLE_READ_MS;
/** Live games a reading holds at most. */
const LIVE_READ_MAX = 50_000;
/** Rows made between two turns of the event loop: about 10 ms of work on a busy core. */
const ROWS_PER_SLICE = 1000;

export interface LiveTableDeps {
  readonly store: GameStore;
  /** The bot queue's counts and waits. */
  readonly queue: () => Promise<Record<string, number>>;
  /** Open connections over every server process. */
  readonly connections: () => Promise<number>;
  /** A bot's latest thinking in a game, if any reached this process. */
  readonly thinking: (gameId: string) => ThinkingView | undefined;
  readonly now?: () => number;
}

interface Reading {
  readonly at: number;
  readonly rows: readonly AdminRow[];
  readonly summary: AdminSummary;
}

/**
 * Every live game as one small row, read from the store's summaries (documents without moves) at
 * most once per TABLE_READ_MS however many admins ask; pages are cut from that reading, filtered
 * and sorted here, so an admin receives only the rows it shows.
 */
export class LiveTable {
  private reading: Reading | undefined;
  private loading: Promise<Reading> | undefined;
  private readonly now: () => number;

  constructor(private readonly deps: LiveTableDeps) {
    this.now = deps.now ?? Date.now;
  }

  /**
   * The latest reading at once while it is younger than STALE_READING_MS: a filter, sort or page
   * change does not wait on the store's read of every live game, which takes most of a second at
   * 5,000 games on a busy machine. One older than TABLE_READ_MS starts the next; the first reading,
   * and one left far behind (nobody followed the table for a while), are awaited.
   */
  read(): Promise<Reading> {
    const loading = this.fresh();
    if (!this.reading || this.now() - this.reading.at >= STALE_READING_MS) return loading;
    // Its failure reaches whoever waits for a fresh reading (the feed), not this caller.
    loading.catch(() => undefined);
    return Promise.resolve(this.reading);
  }

  /** A reading no older than TABLE_READ_MS, made anew when needed; concurrent callers share one. */
  fresh(): Promise<Reading> {
    const age = this.reading ? this.now() - this.reading.at : Infinity;
    if (age < TABLE_READ_MS) return Promise.resolve(this.reading!);
    this.loading ??= this.load().finally(() => (this.loading = undefined));
    return this.loading;
  }

  async page(query: AdminQuery): Promise<AdminPage> {
    const { at, rows, summary } = await this.read();
    const matching = sortRows(rows.filter(matches(query)), query);
    return { query, total: matching.length, rows: matching.slice(query.offset, query.offset + query.limit), summary, at };
  }

  private async load(): Promise<Reading> {
    const [games, queue, connections] = await Promise.all([this.deps.store.summaries('live', LIVE_READ_MAX), this.deps.queue().catch(() => ({})), this.deps.connections().catch(() => 0)]);
    const at = this.now();
    const rows: AdminRow[] = [];
    // In slices, so requests and moves are served between them.
    for (let i = 0; i < games.length; i += ROWS_PER_SLICE) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      for (const g of games.slice(i, i + ROWS_PER_SLICE)) rows.push(toRow(g, this.deps.thinking(g.id), at));
    }
    const reading = { at, rows, summary: summarise(rows, this.movesPerSecond(rows, at), queue, connections) };
    this.reading = reading;
    return reading;
  }

  /** Plies gained by the games of both readings, over the time between them. */
  private movesPerSecond(rows: readonly AdminRow[], at: number): number {
    const before = this.reading;
    if (!before || at <= before.at) return 0;
    const plies = new Map(before.rows.map((r) => [r.id, r.ply]));
    let moves = 0;
    for (const row of rows) {
      const was = plies.get(row.id);
      moves += was === undefined ? (row.createdAt > before.at ? row.ply : 0) : row.ply - was;
    }
    return Math.round((moves / ((at - before.at) / 1000)) * 10) / 10;
  }
}

function seat(s: StoredSeat): AdminSeat {
  return { kind: s.kind, name: s.name, here: s.kind === 'bot' || s.connected };
}

export function toRow(game: GameSummary, thinking: ThinkingView | undefined, now: number): AdminRow {
  // From the ply, with no board loaded: a table of thousands of games reads this for each.
  const toMove = moverAt(game.game, game.ply);
  const black = seat(game.seats.black);
  const white = seat(game.seats.white);
  const clock = clockView(game.timeControl, game.clock, toMove, now);
  const away = (s: StoredSeat): boolean => s.kind !== 'bot' && s.name !== null && !s.connected;
  return {
    id: game.id,
    game: game.game,
    black,
    white,
    ply: game.ply,
    toMove,
    clock: { black: clock.black, white: clock.white },
    state: away(game.seats.black) || away(game.seats.white) ? 'away' : game.seats[toMove].kind === 'bot' ? 'thinking' : 'playing',
    thinking: thinking?.ply === game.ply,
    rated: game.rated,
    createdAt: game.createdAt,
    updatedAt: game.updatedAt,
  };
}

const kindsOf = (row: AdminRow): string => [row.black.kind, row.white.kind].sort().join('-');

function matches(query: AdminQuery): (row: AdminRow) => boolean {
  const q = query.q?.toLowerCase();
  return (row) =>
    (!query.game || row.game === query.game) &&
    (!query.kind || row.black.kind === query.kind || row.white.kind === query.kind) &&
    (!query.state || row.state === query.state) &&
    (!q || row.id.toLowerCase() === q || !!row.black.name?.toLowerCase().includes(q) || !!row.white.name?.toLowerCase().includes(q));
}

/** Ties broken by id, so a row's place changes only when its key does. */
function sortRows(rows: AdminRow[], query: AdminQuery): AdminRow[] {
  const key: (r: AdminRow) => number | string = { started: (r: AdminRow) => r.createdAt, ply: (r: AdminRow) => r.ply, game: (r: AdminRow) => r.game, moved: (r: AdminRow) => r.updatedAt }[query.sort];
  const sign = query.dir === 'asc' ? 1 : -1;
  return rows.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return (x < y ? -sign : x > y ? sign : 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  });
}

function summarise(rows: readonly AdminRow[], movesPerSecond: number, queue: Record<string, number>, connections: number): AdminSummary {
  const byGame = Object.fromEntries(GAME_IDS.map((g) => [g, 0])) as Record<GameId, number>;
  const byKind: Record<string, number> = {};
  let away = 0;
  for (const row of rows) {
    byGame[row.game]++;
    const kinds = kindsOf(row);
    byKind[kinds] = (byKind[kinds] ?? 0) + 1;
    if (row.state === 'away') away++;
  }
  return { live: rows.length, byGame, byKind, away, movesPerSecond, queue, connections };
}
