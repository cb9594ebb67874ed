import type { Color } from '../../shared/color.js';
import type { BotJobResult, BotThinking } from '../../bots/jobs/contract.js';

/** What the timer and bot-turn adapters call back into: the game service. */
export interface RuntimeHandlers {
  onFlag(gameId: string, ply: number): Promise<void>;
  onAbandon(gameId: string, color: Color, awaySince: number): Promise<void>;
  /** A game's turn timer is due (its flag, or its mover's first-move grace): judged on the game as it is now. */
  onTurnDue(gameId: string): Promise<void>;
  /** A seat's absence timer is due: judged on the seat's absence as it is now. */
  onAwayDue(gameId: string, color: Color): Promise<void>;
  /** True when the answer was applied (not stale). */
  onBotResult(result: BotJobResult): Promise<boolean>;
  onBotThinking(gameId: string, ply: number, bot: string, thinking: BotThinking): Promise<void>;
  onBotFailed(gameId: string, ply: number): Promise<void>;
}

/**
 * An adapter in two halves: made, it takes requests (the service's port); started, it delivers
 * what comes back (workers, queue events, local timers) to `handlers`, the service made since.
 * `createRuntime` makes the adapters, then the service, then starts them: nothing is delivered,
 * and no job is taken, before the service exists.
 */
export interface Deliverer<Handlers> {
  start(handlers: Handlers): Promise<void>;
}

/** The handlers of a started adapter; a bug (asked before `start`) throws. */
export function started<Handlers>(handlers: Handlers | undefined, adapter: string): Handlers {
  if (!handlers) throw new Error(`${adapter} was used before it was started`);
  return handlers;
}
