import type { Color } from '../../shared/color.js';
import type { Timers } from '../games/ports.js';
import { abandonTimerId, flagTimerId, gameTimerIds } from './job-ids.js';
import { started, type Deliverer, type RuntimeHandlers } from './handlers.js';

/**
 * Timers in this process (embedded default): they die with it, which the README says.
 * Node's timers run on the monotonic clock in whole milliseconds, games on `Date.now()`: the two
 * truncate differently, and about one timer in twenty wakes 1 ms before `Date.now()` reaches its
 * time. A flag that woke early would find 1 ms left and end nothing, never to fire again. A timer
 * that wakes early sleeps again for the rest. A game holds one flag and one abandonment timer per
 * seat: arming one again replaces it, and a game that ends drops them.
 */
export class LocalTimers implements Timers, Deliverer<RuntimeHandlers> {
  private readonly pending = new Map<string, NodeJS.Timeout>();
  private handlers: RuntimeHandlers | undefined;

  constructor(
    private readonly onError: (error: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {}

  async start(handlers: RuntimeHandlers): Promise<void> {
    this.handlers = handlers;
  }

  async armFlag(gameId: string, ply: number, at: number): Promise<void> {
    const handlers = started(this.handlers, 'LocalTimers');
    this.arm(flagTimerId(gameId), at, () => handlers.onFlag(gameId, ply));
  }

  async armAbandon(gameId: string, color: Color, awaySince: number, at: number): Promise<void> {
    const handlers = started(this.handlers, 'LocalTimers');
    this.arm(abandonTimerId(gameId, color), at, () => handlers.onAbandon(gameId, color, awaySince));
  }

  async cancel(gameId: string): Promise<void> {
    for (const id of gameTimerIds(gameId)) this.drop(id);
  }

  async close(): Promise<void> {
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
  }

  private arm(id: string, at: number, fire: () => Promise<void>): void {
    this.drop(id);
    const wake = (): void => {
      const early = at - this.now();
      if (early > 0) return void this.schedule(id, early, wake);
      this.pending.delete(id);
      fire().catch(this.onError);
    };
    this.schedule(id, Math.max(0, at - this.now()), wake);
  }

  private drop(id: string): void {
    clearTimeout(this.pending.get(id));
    this.pending.delete(id);
  }

  private schedule(id: string, delay: number, wake: () => void): void {
    const timer = setTimeout(wake, delay);
    timer.unref();
    this.pending.set(id, timer);
  }
}
