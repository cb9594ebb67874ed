import { CreateTournamentSchema, TournamentBotsSchema, TournamentIdSchema, TournamentListSchema, type TournamentSummary, type TournamentView } from '../../shared/protocol/index.js';
import type { GameId } from '../../shared/rules.js';
import { accept, parse, refuse, type ServerResult } from '../refuse.js';
import { newGameId } from '../games/tokens.js';
import type { GameStore } from '../store/store.js';
import { deltaOf } from './delta.js';
import { entrantId, NOT_STARTED, summaryOf, type Entrant, type Tournament } from './model.js';
import type { TournamentNotifier } from './notifier.js';
import { start } from './rounds.js';
import { standings } from './standings.js';
import type { TournamentStore } from './store/tournament-store.js';

const MAX_ATTEMPTS = 8;
const LISTED = 50;

/** Who asks: a signed-in account, an agent (and the process holding its connection), or the admin. */
export type Asker = { readonly kind: 'person'; readonly name: string } | { readonly kind: 'agent'; readonly name: string; readonly instance: string } | { readonly kind: 'admin' };

export interface EntriesOptions {
  readonly tournaments: TournamentStore;
  readonly games: GameStore;
  readonly notifier: TournamentNotifier;
  readonly botExists: (game: GameId, name: string) => boolean;
  readonly now?: () => number;
}

export function viewOf(t: Tournament): TournamentView {
  return { ...summaryOf(t), standings: standings(t), pairings: t.pairings, version: t.version };
}

/**
 * Tournaments as their entrants and creators see them: create, list, enter, withdraw, start.
 * Every change is a versioned write of the tournament, tried again over a newer version.
 */
export class TournamentEntries {
  private readonly now: () => number;

  constructor(private readonly options: EntriesOptions) {
    this.now = options.now ?? Date.now;
  }

  async create(payload: unknown, by: Asker): Promise<ServerResult<{ tournament: TournamentView }>> {
    const request = parse(CreateTournamentSchema, payload);
    if (!request.ok) return request;
    if (by.kind === 'agent') return refuse('tournament/not_allowed', 'Tournaments are made by accounts and the admin.');
    const { bots, startsAt, minRating, ...spec } = request.value;
    const unknown = bots.find((bot) => !this.options.botExists(spec.game, bot));
    if (unknown) return refuse('room/bad_seat', `No bot "${unknown}" plays ${spec.game}.`);
    const now = this.now();
    const base: Tournament = {
      ...spec,
      id: newGameId(),
      startsAt: startsAt ?? null,
      minRating: minRating ?? null,
      createdBy: by.kind === 'admin' ? 'admin' : `account:${by.name}`,
      ...NOT_STARTED,
      createdAt: now,
    };
    const tournament = { ...base, entrants: await this.botEntrants(base, [...new Set(bots)]) };
    if (!(await this.options.tournaments.create(tournament))) return refuse('server/busy', 'Could not make the tournament; try again.');
    this.options.notifier.listed(summaryOf(tournament));
    return accept({ tournament: viewOf(tournament) });
  }

  async list(payload: unknown): Promise<ServerResult<{ tournaments: TournamentSummary[] }>> {
    const request = parse(TournamentListSchema, payload ?? {});
    if (!request.ok) return request;
    const statuses = request.value.status === 'all' ? (['running', 'upcoming', 'finished'] as const) : [request.value.status];
    const ids = (await Promise.all(statuses.map((s) => this.options.tournaments.ids(s, LISTED)))).flat();
    const found = await Promise.all(ids.map((id) => this.options.tournaments.get(id)));
    return accept({ tournaments: found.filter((t): t is Tournament => t !== undefined).map(summaryOf) });
  }

  async view(payload: unknown): Promise<ServerResult<{ tournament: TournamentView }>> {
    const found = await this.find(payload);
    return found.ok ? accept({ tournament: viewOf(found.value) }) : found;
  }

  async find(payload: unknown): Promise<ServerResult<Tournament>> {
    const request = parse(TournamentIdSchema, payload);
    if (!request.ok) return request;
    const t = await this.options.tournaments.get(request.value.tournamentId);
    return t ? accept(t) : refuse('tournament/not_found', `There is no tournament "${request.value.tournamentId}".`);
  }

  async join(payload: unknown, by: Asker): Promise<ServerResult<{ tournament: TournamentSummary }>> {
    if (by.kind === 'admin') return refuse('tournament/not_allowed', 'The admin enters bots (`tournament:bots`), not itself.');
    const request = parse(TournamentIdSchema, payload);
    if (!request.ok) return request;
    const [record] = await this.options.games.ratings((await this.options.tournaments.get(request.value.tournamentId))?.game ?? 'othello', [{ kind: by.kind, name: by.name }]);
    const written = await this.change(request.value.tournamentId, (t) => {
      if (t.status === 'finished' || (t.status === 'running' && t.format !== 'arena')) return refuse('tournament/closed', 'Entries are closed.');
      const id = entrantId(by.kind, by.name);
      const present = t.entrants.filter((e) => !e.withdrawn);
      const known = t.entrants.find((e) => e.id === id);
      if (known && !known.withdrawn) return accept(t);
      if (present.length >= t.maxEntrants) return refuse('tournament/full', `The tournament takes ${t.maxEntrants} entrants.`);
      const rating = Math.round(record?.rating ?? 1500);
      if (t.minRating !== null && rating < t.minRating) return refuse('tournament/rating_too_low', `The tournament needs a rating of ${t.minRating}; yours is ${rating}.`);
      const entrant: Entrant = { id, kind: by.kind, name: by.name, rating, withdrawn: false, joinedAt: this.now(), instance: by.kind === 'agent' ? by.instance : null };
      return accept({ ...t, entrants: [...t.entrants.filter((e) => e.id !== id), entrant] });
    });
    return written.ok ? accept({ tournament: summaryOf(written.value) }) : written;
  }

  async withdraw(payload: unknown, by: Asker): Promise<ServerResult<Record<string, never>>> {
    if (by.kind === 'admin') return refuse('tournament/not_allowed', 'The admin withdraws no one.');
    const request = parse(TournamentIdSchema, payload);
    if (!request.ok) return request;
    const id = entrantId(by.kind, by.name);
    const written = await this.change(request.value.tournamentId, (t) => {
      if (!t.entrants.some((e) => e.id === id && !e.withdrawn)) return refuse('tournament/not_entered', 'You are not entered in this tournament.');
      if (t.status === 'finished') return accept(t);
      // Before the start an entry is simply taken back; later the entrant stays in the standings.
      const entrants = t.status === 'upcoming' ? t.entrants.filter((e) => e.id !== id) : t.entrants.map((e) => (e.id === id ? { ...e, withdrawn: true } : e));
      return accept({ ...t, entrants });
    });
    return written.ok ? accept({}) : written;
  }

  async addBots(payload: unknown, by: Asker): Promise<ServerResult<{ tournament: TournamentSummary }>> {
    const request = parse(TournamentBotsSchema, payload);
    if (!request.ok) return request;
    const t = await this.options.tournaments.get(request.value.tournamentId);
    const unknown = t && request.value.bots.find((bot) => !this.options.botExists(t.game, bot));
    if (unknown) return refuse('room/bad_seat', `No bot "${unknown}" plays ${t!.game}.`);
    const written = await this.change(request.value.tournamentId, async (t) => {
      if (!mayManage(t, by)) return refuse('tournament/not_allowed', 'Only the creator or the admin enters bots.');
      if (t.status !== 'upcoming' && !(t.status === 'running' && t.format === 'arena')) return refuse('tournament/closed', 'Entries are closed.');
      const fresh = (await this.botEntrants(t, request.value.bots)).filter((b) => !t.entrants.some((e) => e.id === b.id));
      if (t.entrants.filter((e) => !e.withdrawn).length + fresh.length > t.maxEntrants) return refuse('tournament/full', `The tournament takes ${t.maxEntrants} entrants.`);
      return accept({ ...t, entrants: [...t.entrants, ...fresh] });
    });
    return written.ok ? accept({ tournament: summaryOf(written.value) }) : written;
  }

  /** The creator (or the admin) starts an upcoming tournament now. */
  async start(payload: unknown, by: Asker): Promise<ServerResult<Record<string, never>>> {
    const request = parse(TournamentIdSchema, payload);
    if (!request.ok) return request;
    const written = await this.change(request.value.tournamentId, (t) => {
      if (!mayManage(t, by)) return refuse('tournament/not_allowed', 'Only the creator or the admin starts it.');
      if (t.status !== 'upcoming') return refuse('tournament/closed', 'The tournament has started already.');
      if (t.entrants.filter((e) => !e.withdrawn).length < 2) return refuse('tournament/too_few', 'A tournament starts with two entrants or more.');
      const started = start(t, this.now());
      return accept({ ...started, version: t.version });
    });
    return written.ok ? accept({}) : written;
  }

  private async botEntrants(t: Tournament, bots: readonly string[]): Promise<Entrant[]> {
    const records = await this.options.games.ratings(t.game, bots.map((name) => ({ kind: 'bot' as const, name })));
    return bots.map((name, i) => ({ id: entrantId('bot', name), kind: 'bot' as const, name, rating: Math.round(records[i]?.rating ?? 1500), withdrawn: false, joinedAt: this.now(), instance: null }));
  }

  /** Applies `decide` to the stored tournament and writes it over the version read, again on a lost race. */
  private async change(id: string, decide: (t: Tournament) => ServerResult<Tournament> | Promise<ServerResult<Tournament>>): Promise<ServerResult<Tournament>> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const t = await this.options.tournaments.get(id);
      if (!t) return refuse('tournament/not_found', `There is no tournament "${id}".`);
      const decided = await decide(t);
      if (!decided.ok || decided.value === t) return decided;
      const next = { ...decided.value, version: t.version + 1 };
      if (await this.options.tournaments.update(next)) {
        this.options.notifier.changed(deltaOf(t, next));
        this.options.notifier.listed(summaryOf(next));
        return accept(next);
      }
    }
    return refuse('server/busy', 'The tournament changed under this request too often; send it again.');
  }
}

function mayManage(t: Tournament, by: Asker): boolean {
  return by.kind === 'admin' || (by.kind === 'person' && t.createdBy.toLowerCase() === `account:${by.name.toLowerCase()}`);
}
