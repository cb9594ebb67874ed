import type { GameService } from '../games/service.js';
import type { Logger } from '../log.js';
import type { PlatformStore } from '../store/platform.js';
import type { GameStore } from '../store/store.js';

export interface RetentionPolicy {
  /** A waiting room nobody has sat down in or changed for this long is closed. */
  readonly waitingIdleMs: number;
  /** Finished games are forgotten this long after they ended … */
  readonly finishedKeepMs: number;
  /** … and beyond this many, the oldest first. */
  readonly finishedMax: number;
  /** How often the pass runs (one process at a time). */
  readonly everyMs: number;
}

/** Waiting rooms expired at once in a pass. */
const EXPIRE_AT_ONCE = 16;
const BATCH = 500;

/**
 * Keeps the store bounded: waiting rooms expire after an idle time, finished games are deleted
 * after a retention period or beyond a count. One process at a time (a store lock) runs a pass.
 */
export class Retention {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly deps: { store: GameStore; platform: PlatformStore; service: GameService; instance: string; log: Logger },
    private readonly policy: RetentionPolicy,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.pass()
        .catch((error: unknown) => this.deps.log.warn({ err: error }, 'retention pass failed'))
        .finally(() => (this.running = undefined));
    }, this.policy.everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One pass: the rooms expired and the games deleted. */
  async pass(now = Date.now()): Promise<{ expired: number; deleted: number }> {
    const { store, platform, service, instance, log } = this.deps;
    if (!(await platform.lock('retention', instance, this.policy.everyMs * 2))) return { expired: 0, deleted: 0 };
    const idleSince = now - this.policy.waitingIdleMs;
    const idle = (await store.oldest('waiting', 100_000)).filter((room) => room.updatedAt <= idleSince);
    // A few at once: each expiry is several round trips (the game, then its index entries).
    for (let i = 0; i < idle.length; i += EXPIRE_AT_ONCE) await Promise.all(idle.slice(i, i + EXPIRE_AT_ONCE).map((room) => service.expireRoom(room.id, idleSince)));
    const expired = idle.length;
    let deleted = 0;
    for (;;) {
      const excess = (await store.count('finished')) - this.policy.finishedMax;
      const oldest = await store.oldest('finished', BATCH);
      const due = oldest.filter((g, i) => i < excess || g.updatedAt < now - this.policy.finishedKeepMs).map((g) => g.id);
      if (due.length === 0) break;
      await store.remove(due);
      deleted += due.length;
      if (due.length < BATCH) break;
    }
    if (expired + deleted > 0) log.info({ expired, deleted }, 'retention: rooms expired and finished games deleted');
    return { expired, deleted };
  }
}
