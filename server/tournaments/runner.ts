import type { Color } from '../../shared/color.js';
import type { SeatSpec } from '../../shared/protocol/index.js';
import type { GameService } from '../games/service.js';
import type { Logger } from '../log.js';
import { refuse } from '../refuse.js';
import type { PlatformStore } from '../store/platform.js';
import type { GameStore, StoredGame } from '../store/store.js';
import { deltaOf } from './delta.js';
import { entrantId, summaryOf, type Entrant, type Pairing, type Tournament } from './model.js';
import type { TournamentNotifier } from './notifier.js';
import { tournamentResult } from './results.js';
import { finish, isOver, pairRound, pairWave, start, withResults } from './rounds.js';
import type { TournamentStore } from './store/tournament-store.js';

const LOCK = 'tournaments';
const LOCK_MS = 5000;
/** Games owned by the tournament are exempt from per-owner quotas, as the ladder's are. */
export const TOURNAMENT_OWNER = 'tournament';

export interface RunnerOptions {
  readonly tournaments: TournamentStore;
  readonly games: GameStore;
  readonly platform: PlatformStore;
  readonly service: GameService;
  readonly notifier: TournamentNotifier;
  readonly instance: string;
  readonly log: Logger;
  readonly now?: () => number;
}

/**
 * Runs the tournaments: every web process ticks, one at a time works (a store lock that runs out
 * 5 s after its holder dies). A tick starts those due, makes and seats the games of pairings
 * already written (by fixed ids, so a game is made once whoever makes it), records the results of
 * ended games, and pairs what is due next. Each step is one write over the version it read: a
 * round is paired exactly once, and a round half-started by a process that died is finished by
 * the next holder of the lock from what was written.
 */
export class TournamentRunner {
  private readonly now: () => number;

  constructor(private readonly options: RunnerOptions) {
    this.now = options.now ?? Date.now;
  }

  async tick(): Promise<void> {
    const { tournaments, platform, instance } = this.options;
    if (!(await platform.lock(LOCK, instance, LOCK_MS))) return;
    const ids = [...(await tournaments.ids('running', 1000)), ...(await tournaments.ids('upcoming', 1000))];
    for (const id of ids) {
      try {
        await this.advance(id);
      } catch (error) {
        this.options.log.warn({ err: error, tournament: id }, 'could not advance a tournament');
      }
    }
  }

  /** One tournament, as far as it can go now. */
  async advance(id: string): Promise<void> {
    let t = await this.options.tournaments.get(id);
    if (!t) return;
    if (t.status === 'upcoming') {
      if (t.startsAt === null || this.now() < t.startsAt) return;
      t = await this.write(t, start(t, this.now()));
      if (!t || t.status !== 'running') return;
    }
    if (t.status !== 'running') return;
    t = await this.play(t);
    if (!t) return;
    const paired = t.format === 'arena' ? pairWave(t, this.now()) : pairRound(t);
    if (paired) {
      const before = t;
      const written = await this.write(t, paired);
      if (!written) return;
      t = await this.play(written);
      // Told once the games are made and seated: an entrant can take its seat at once.
      this.announce(before, t ?? written);
      if (!t) return;
    }
    if (isOver(t, this.now())) await this.write(t, finish(t, this.now()));
  }

  /**
   * A person's seat in its game under way, with a new token. The pairing is news before its game
   * is made and seated, so a person quick to ask makes and seats it here (by its fixed id, once).
   */
  async seatOfPerson(t: Tournament, account: string): ReturnType<GameService['seatOfAccount']> {
    const me = entrantId('person', account);
    const pairing = t.pairings.filter((p) => p.winner === null && p.gameId !== null && (p.black === me || p.white === me)).at(-1);
    if (!pairing) return refuse('room/not_found', 'You have no game under way in this tournament.');
    await this.makeOrSeat(t, pairing, await this.options.games.get(pairing.gameId!));
    return this.options.service.seatOfAccount(pairing.gameId!, account);
  }

  /** Makes and seats the games of the unfinished pairings, and writes the results of those that ended. */
  private async play(t: Tournament): Promise<Tournament | undefined> {
    const results = new Map<string, { winner: 'black' | 'white' | 'draw'; reason: string }>();
    for (const pairing of t.pairings) {
      if (pairing.winner !== null || pairing.gameId === null) continue;
      const game = await this.options.games.get(pairing.gameId);
      if (await this.makeOrSeat(t, pairing, game)) continue;
      const result = tournamentResult(game!);
      if (result) results.set(pairing.gameId, result);
    }
    const recorded = withResults(t, results);
    return recorded ? this.write(t, recorded) : t;
  }

  /** Makes a pairing's game not made yet, or seats one made and still waiting; false for a game under way or over. */
  private async makeOrSeat(t: Tournament, pairing: Pairing, game: StoredGame | undefined): Promise<boolean> {
    if (!game) await this.make(t, pairing);
    else if (game.status === 'waiting') await this.seat(t, pairing);
    else return false;
    return true;
  }

  private entrant(t: Tournament, id: string | null): Entrant | undefined {
    return t.entrants.find((e) => e.id === id);
  }

  private async make(t: Tournament, pairing: Pairing): Promise<void> {
    const black = this.entrant(t, pairing.black);
    const white = this.entrant(t, pairing.white);
    if (!black || !white) return;
    const spec = (e: Entrant): SeatSpec => (e.kind === 'bot' ? { kind: 'bot', bot: e.name } : e.kind === 'agent' ? { kind: 'agent', agent: e.name } : { kind: 'human' });
    const reserved: Partial<Record<Color, string>> = {};
    if (black.kind === 'person') reserved.black = black.name;
    if (white.kind === 'person') reserved.white = white.name;
    const made = await this.options.service.createRoom(
      { game: t.game, timeControl: t.timeControl, rated: t.rated, showThinking: false, seats: { black: spec(black), white: spec(white) } },
      { owner: TOURNAMENT_OWNER, id: pairing.gameId!, reserved },
    );
    if (!made.ok) return void this.options.log.warn({ tournament: t.id, gameId: pairing.gameId, error: made.error }, 'could not make a tournament game');
    await this.seat(t, pairing);
  }

  /** Takes the person and agent seats for their entrants; one taken already is left as it is. */
  private async seat(t: Tournament, pairing: Pairing): Promise<void> {
    const game = await this.options.games.get(pairing.gameId!);
    if (!game || game.status !== 'waiting') return;
    for (const [color, id] of [['black', pairing.black], ['white', pairing.white]] as const) {
      const e = this.entrant(t, id);
      if (!e || e.kind === 'bot' || game.seats[color].name !== null) continue;
      const who = e.kind === 'agent' ? { name: e.name, agent: true, via: e.instance ?? this.options.instance } : { name: e.name, account: true };
      const sat = await this.options.service.takeSeat(game.id, color, who);
      if (!sat.ok) this.options.log.warn({ tournament: t.id, gameId: game.id, error: sat.error }, 'could not seat a tournament entrant');
    }
  }

  /** Tells each paired person and agent of its new game. */
  private announce(before: Tournament, after: Tournament): void {
    const old = new Set(before.pairings.map((p) => `${p.round}/${p.table}`));
    for (const p of after.pairings) {
      if (old.has(`${p.round}/${p.table}`) || p.gameId === null) continue;
      for (const [color, id, other] of [['black', p.black, p.white], ['white', p.white, p.black]] as const) {
        const e = this.entrant(after, id);
        if (e && e.kind !== 'bot') this.options.notifier.paired(e, { tournamentId: after.id, round: p.round, gameId: p.gameId, color, opponent: this.entrant(after, other)?.name ?? null });
      }
    }
  }

  /** Writes `next` over `before`'s version; the news goes out only when it was this write that landed. */
  private async write(before: Tournament, next: Tournament | null): Promise<Tournament | undefined> {
    if (!next) return before;
    if (!(await this.options.tournaments.update(next))) return undefined;
    this.options.notifier.changed(deltaOf(before, next));
    if (before.status !== next.status || before.round !== next.round) this.options.notifier.listed(summaryOf(next));
    return next;
  }
}
