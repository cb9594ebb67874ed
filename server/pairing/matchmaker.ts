import { randomBytes } from 'node:crypto';
import { COLORS, opposite, type Color } from '../../shared/color.js';
import { SeekIdSchema, SeekSchema, type GameView, type SeatGrant } from '../../shared/protocol/index.js';
import { accept, parse, refuse, type ServerResult } from '../refuse.js';
import type { Seek } from '../store/platform.js';
import { ratingKnown } from '../ratings/rating.js';
import type { PairingServices } from './pairing-services.js';

/** Two seekers are paired when their ratings are this close … */
const BASE_RANGE = 100;
/** … and the range widens by this much each second the longer-waiting one has waited. */
const WIDEN_PER_S = 25;
const LOCK_MS = 5000;

export interface Paired {
  readonly seekId: string;
  readonly gameId: string;
  readonly seat: SeatGrant;
  readonly view: GameView;
}

/** The roster bots (`bots`) play too: a seeker may take one of about its rating instead of waiting. */
export interface MatchmakerOptions extends PairingServices {
  /** Whether a connection (on whatever process) waits under the seek's id to hear its pairing. */
  readonly reachable: (seekId: string) => Promise<boolean>;
  /** Seats the seeker's connection (on whatever process holds it) and tells it its seat. */
  readonly notify: (paired: Paired) => void;
  readonly now?: () => number;
}

/** The range within which a seek accepts an opponent after waiting since `since`. */
export function pairingRange(since: number, now: number): number {
  return BASE_RANGE + (WIDEN_PER_S * Math.max(0, now - since)) / 1000;
}

/**
 * Pairs seekers of the same game, clock and rating mode: the longest-waiting seek first, with
 * the nearest rating inside both seekers' ranges. The pool lives in the platform store, and one
 * process at a time pairs (a lock), so seekers connected to different processes meet.
 */
export function pairSeeks(seeks: readonly Seek[], now: number): [Seek, Seek][] {
  const pairs: [Seek, Seek][] = [];
  const taken = new Set<string>();
  const pool = [...seeks].sort((a, b) => a.since - b.since);
  for (const seek of pool) {
    if (taken.has(seek.id)) continue;
    let best: Seek | undefined;
    for (const other of pool) {
      if (other.id === seek.id || taken.has(other.id) || !samePool(seek, other)) continue;
      if (seek.account !== null && seek.account === other.account) continue;
      const gap = Math.abs(seek.rating - other.rating);
      if (gap > Math.max(pairingRange(seek.since, now), pairingRange(other.since, now))) continue;
      if (!best || gap < Math.abs(seek.rating - best.rating)) best = other;
    }
    if (best) {
      taken.add(seek.id).add(best.id);
      pairs.push([seek, best]);
    }
  }
  return pairs;
}

function samePool(a: Seek, b: Seek): boolean {
  return a.game === b.game && a.rated === b.rated && JSON.stringify(a.options) === JSON.stringify(b.options) && JSON.stringify(a.timeControl) === JSON.stringify(b.timeControl);
}

export class Matchmaker {
  private readonly now: () => number;

  constructor(private readonly options: MatchmakerOptions) {
    this.now = options.now ?? Date.now;
  }

  /**
   * A player starts waiting; a rated seek needs an account. `listen` makes the seeker's connection
   * reachable under the seek's id before the seek enters the pool, since pairing is tried at once.
   */
  async seek(payload: unknown, who: { account?: string; owner: string }, listen: (seekId: string) => Promise<void>): Promise<ServerResult<{ seekId: string; rating: number }>> {
    const request = parse(SeekSchema, payload);
    if (!request.ok) return request;
    const { game, options, timeControl, rated, name } = request.value;
    if (rated && !who.account) return refuse('rating/needs_account', 'Rated pairing is for signed-in players: sign in, or seek a casual game.');
    const [record] = who.account ? await this.options.store.ratings(game, [{ kind: 'person', name: who.account }]) : [];
    const seek: Seek = {
      id: randomBytes(8).toString('base64url'),
      game,
      options,
      timeControl,
      rated,
      account: who.account ?? null,
      owner: who.owner,
      name: who.account ?? name ?? `Guest ${Math.floor(1000 + Math.random() * 9000)}`,
      rating: record?.rating ?? 1500,
      instance: this.options.instance,
      since: this.now(),
    };
    await listen(seek.id);
    await this.options.platform.putSeek(seek);
    await this.tick();
    return accept({ seekId: seek.id, rating: Math.round(seek.rating) });
  }

  /** Whether the seek is still in the pool: not yet paired, cancelled or dropped. */
  async waiting(seekId: string): Promise<boolean> {
    return (await this.options.platform.seeks()).some((s) => s.id === seekId);
  }

  async cancel(payload: unknown): Promise<ServerResult<Record<string, never>>> {
    const request = parse(SeekIdSchema, payload);
    if (!request.ok) return request;
    return (await this.options.platform.takeSeeks([request.value.seekId])) ? accept({}) : refuse('seek/not_found', 'That seek is no longer waiting: it was paired or cancelled.');
  }

  /** The seeker stops waiting for a person and plays the roster bot nearest its rating. */
  async botInstead(payload: unknown): Promise<ServerResult<Paired>> {
    const request = parse(SeekIdSchema, payload);
    if (!request.ok) return request;
    const seek = (await this.options.platform.seeks()).find((s) => s.id === request.value.seekId);
    if (!seek || !(await this.options.platform.takeSeeks([seek.id]))) return refuse('seek/not_found', 'That seek is no longer waiting: it was paired or cancelled.');
    const bots = this.options.bots.names(seek.game);
    const all = await this.options.store.ratings(seek.game, bots.map((name) => ({ kind: 'bot' as const, name })));
    // A bot whose strength nobody measured is no bot "of your rating": offered only when no other is.
    const known = all.filter(ratingKnown);
    const ratings = known.length > 0 ? known : all;
    const nearest = ratings.reduce((best, r) => (Math.abs(r.rating - seek.rating) < Math.abs(best.rating - seek.rating) ? r : best));
    const color: Color = COLORS[Math.floor(Math.random() * 2)]!;
    const seats = { [color]: { kind: 'human' }, [opposite(color)]: { kind: 'bot', bot: nearest.name } };
    return this.openRoom(seek, seats, [[seek, color]]).then((paired) => (paired.ok ? accept(paired.value[0]!) : paired));
  }

  /**
   * Drops seeks of processes that are gone, then pairs what it can; a seek no connection waits on
   * any longer is dropped rather than paired, so no one is seated in a game it never hears of.
   * One process at a time.
   */
  async tick(): Promise<number> {
    const { platform } = this.options;
    if (!(await platform.lock('pairing', this.options.instance, LOCK_MS))) return 0;
    const leases = await this.options.leases.leases();
    const now = this.now();
    const seeks = await platform.seeks();
    const orphans = seeks.filter((s) => (leases.get(s.instance) ?? 0) < now && s.instance !== this.options.instance);
    if (orphans.length > 0) await Promise.all(orphans.map((s) => platform.takeSeeks([s.id])));
    let made = 0;
    for (const [a, b] of pairSeeks(seeks.filter((s) => !orphans.includes(s)), now)) {
      const gone = await this.unreachable([a, b]);
      if (gone.length > 0) {
        await Promise.all(gone.map((s) => platform.takeSeeks([s.id])));
        continue;
      }
      if (!(await platform.takeSeeks([a.id, b.id]))) continue;
      const color: Color = Math.random() < 0.5 ? 'black' : 'white';
      const paired = await this.openRoom(a, { black: { kind: 'human' }, white: { kind: 'human' } }, [
        [a, color],
        [b, opposite(color)],
      ]);
      if (!paired.ok) continue;
      for (const p of paired.value) this.options.notify(p);
      made++;
    }
    return made;
  }

  private async unreachable(seeks: readonly Seek[]): Promise<Seek[]> {
    const reached = await Promise.all(seeks.map((s) => this.options.reachable(s.id)));
    return seeks.filter((_, i) => !reached[i]);
  }

  /** A room from a seek's settings with the seekers seated. */
  private async openRoom(seek: Seek, seats: Record<string, unknown>, seekers: [Seek, Color][]): Promise<ServerResult<Paired[]>> {
    const { service } = this.options;
    const created = await service.createRoom({ game: seek.game, options: seek.options, timeControl: seek.timeControl, rated: seek.rated, seats }, { owner: seek.owner });
    if (!created.ok) return created;
    const paired: Paired[] = [];
    for (const [s, color] of seekers) {
      const sat = await service.takeSeat(created.value.gameId, color, { name: s.name, account: s.account !== null, via: s.instance });
      if (!sat.ok) return sat;
      paired.push({ seekId: s.id, gameId: created.value.gameId, seat: sat.value.seat, view: sat.value.view });
    }
    const view = await service.view(created.value.gameId);
    return accept(view.ok ? paired.map((p) => ({ ...p, view: view.value })) : paired);
  }
}
