import type { Color } from '../../shared/color.js';
import { parseSeatMember } from '../games/indexes.js';
import type { GameService } from '../games/service.js';
import type { Logger } from '../log.js';
import type { LeaseStore } from '../store/leases.js';
import type { GameStore, StoredGame } from '../store/store.js';

/** A process is presumed dead this long after its last renewal. */
export const LEASE_MS = 5000;
/** How often a process renews its lease and looks for processes whose lease ran out. */
export const SWEEP_MS = 2000;

export interface SweeperDeps {
  readonly store: GameStore;
  readonly leases: LeaseStore;
  readonly service: GameService;
  readonly instance: string;
  /** The server processes whose connections still hold a seat (asked across processes). */
  readonly holders: (game: Pick<StoredGame, 'id' | 'seats'>, color: Color) => Promise<string[]>;
  readonly log: Logger;
  readonly onLiveCount?: (count: number) => void;
  /** The store came back empty: every game this process's connections were in is gone, and every session. */
  readonly onStoreEmptied?: () => Promise<void>;
}

/**
 * What no single process can be trusted with: presence that lived in a process that died, and a
 * bot turn the queue could not take. Every process renews its lease and, every SWEEP_MS, reads
 * what changed: the leases, the seat index of a process whose lease ran out, the bot turns
 * left unqueued. It reads no game that nothing happened to; the version check makes two sweepers
 * deciding the same change harmless.
 */
export class Sweeper {
  private timer: NodeJS.Timeout | undefined;
  private lease: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private born: string | undefined;

  constructor(private readonly deps: SweeperDeps) {}

  async start(): Promise<void> {
    this.born = await this.deps.store.birthMark();
    await this.renew();
    // Renewed on its own beat, so a long sweep never lets this process's lease run out.
    this.lease = setInterval(() => void this.renew().catch((error: unknown) => this.deps.log.warn({ err: error }, 'lease renewal failed')), SWEEP_MS / 2);
    this.lease.unref();
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.sweep()
        .catch((error: unknown) => this.deps.log.warn({ err: error }, 'sweep failed'))
        .finally(() => (this.running = undefined));
    }, SWEEP_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    clearInterval(this.lease);
    await this.running;
  }

  private renew(): Promise<void> {
    return this.deps.leases.renewLease(this.deps.instance, Date.now() + LEASE_MS);
  }

  /**
   * One pass: a store come back empty is said; the seats of each process whose lease has run out
   * are freed, found in that process's own index, and then its lease is dropped (however long it
   * has been dead: a lease is not forgotten before its seats are); the bot turns the queue could not take are
   * asked again; the live games are counted.
   */
  async sweep(now = Date.now()): Promise<void> {
    const { store, service, log } = this.deps;
    const born = await store.birthMark();
    if (born !== this.born) {
      log.error({ was: this.born, now: born }, 'the store came back empty (a Redis restarted without persistence): its games, agents, accounts, sessions and ratings are lost; telling the players and admins');
      this.born = born;
      await this.renew();
      await this.deps.onStoreEmptied?.();
    }
    const leases = await this.deps.leases.leases();
    const alive = new Set([...leases].filter(([, until]) => until > now).map(([instance]) => instance)).add(this.deps.instance);
    for (const [instance, until] of leases) {
      if (alive.has(instance)) continue;
      await this.freeSeatsOf(instance, alive);
      await this.deps.leases.dropLease(instance, until);
    }
    for (const gameId of await service.retryUnqueuedBotTurns()) {
      log.warn({ gameId }, 'a bot turn had no job (the queue was out of reach when it was due): asked again');
    }
    const relisted = (await store.repairListings?.()) ?? 0;
    if (relisted > 0) log.warn({ games: relisted }, 'games whose index entries a write could not wait for (a master failing over) were listed again');
    const ends = (await store.applyPendingEnds?.()) ?? 0;
    if (ends > 0) log.warn({ games: ends }, 'game ends a process left half applied to their players were applied');
    this.deps.onLiveCount?.(await store.count('live'));
  }

  /**
   * A dead process's seats, from its index: each is away from now unless a socket in a live process
   * still holds it (then the stamp moves there). The index goes once read through.
   */
  private async freeSeatsOf(dead: string, alive: ReadonlySet<string>): Promise<void> {
    const { store, service, log } = this.deps;
    for (const member of await store.indexed('instance-seats', dead)) {
      const seat = parseSeatMember(member);
      const game = seat && (await store.get(seat.gameId));
      if (!seat || !game || game.status === 'finished') continue;
      const stamped = game.seats[seat.color];
      if (stamped.kind === 'bot' || !stamped.connected || stamped.connectedVia !== dead) continue;
      const holder = (await this.deps.holders(game, seat.color)).find((instance) => alive.has(instance)) ?? null;
      log.info({ gameId: game.id, color: seat.color, via: dead, holder }, holder ? 'seat held from another process' : 'seat held by a dead process: away from now');
      await service.presenceLost(game.id, seat.color, dead, holder);
    }
    await store.dropIndex('instance-seats', dead);
  }
}
