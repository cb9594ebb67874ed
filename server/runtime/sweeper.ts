import { COLORS, type Color } from '../../shared/color.js';
import type { GameService } from '../games/service.js';
import type { Logger } from '../log.js';
import type { GameStore, GameSummary } from '../store/store.js';

/** A process is presumed dead this long after its last renewal. */
export const LEASE_MS = 5000;
/** How often a process renews its lease and looks for processes whose lease ran out. */
export const SWEEP_MS = 2000;
/** How often it sweeps every live game all the same (overdue flags, seats of unknown processes). */
export const FULL_SWEEP_MS = 10_000;

export interface SweeperDeps {
  readonly store: GameStore;
  readonly service: GameService;
  readonly instance: string;
  /** The server processes whose connections still hold a seat (asked across processes). */
  readonly holders: (game: GameSummary, color: Color) => Promise<string[]>;
  readonly log: Logger;
  readonly onLiveCount?: (count: number) => void;
  /** The store came back empty: every game this process's connections were in is gone, and every session. */
  readonly onStoreEmptied?: () => Promise<void>;
}

/**
 * What no single process can be trusted with: presence that lived in a process that died, and a
 * flag whose timer was lost. Every process renews its lease and sweeps the live games; the
 * version check makes two sweepers deciding the same change harmless.
 */
export class Sweeper {
  private timer: NodeJS.Timeout | undefined;
  private lease: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private born: string | undefined;
  /** Dead processes whose seats a sweep has already freed. */
  private readonly buried = new Set<string>();
  private lastFullSweep = 0;

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
    return this.deps.store.renewLease(this.deps.instance, Date.now() + LEASE_MS);
  }

  /**
   * One pass: when a process's lease has newly run out, or every FULL_SWEEP_MS, end the live games
   * whose flag is overdue and free the seats held by processes that are gone.
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
    const leases = await store.leases();
    const alive = new Set([...leases].filter(([, until]) => until > now).map(([instance]) => instance)).add(this.deps.instance);
    const newlyDead = [...leases.keys()].filter((instance) => !alive.has(instance) && !this.buried.has(instance));
    if (newlyDead.length === 0 && now - this.lastFullSweep < FULL_SWEEP_MS) return;
    for (const instance of this.buried) if (!leases.has(instance)) this.buried.delete(instance);
    // Summaries (no moves): a sweep of thousands of live games reads only what it needs.
    const live = await store.summaries('live', 100_000);
    this.deps.onLiveCount?.(live.length);
    for (const game of live) {
      if (now - game.updatedAt > FULL_SWEEP_MS && (await service.ensureBotTurn(game))) {
        log.warn({ gameId: game.id, ply: game.ply }, 'a bot turn had no job (the queue was out of reach when it was due): asked again');
      }
      for (const color of COLORS) {
        const seat = game.seats[color];
        if (seat.kind === 'bot' || !seat.connected || (seat.connectedVia !== null && alive.has(seat.connectedVia))) continue;
        const holder = (await this.deps.holders(game, color)).find((instance) => alive.has(instance)) ?? null;
        log.info({ gameId: game.id, color, via: seat.connectedVia, holder }, holder ? 'seat held from another process' : 'seat held by a dead process: away from now');
        await service.presenceLost(game.id, color, seat.connectedVia, holder);
      }
    }
    for (const instance of newlyDead) this.buried.add(instance);
    this.lastFullSweep = now;
  }
}
