import { BotThreadPool } from '../../bots/jobs/thread-pool.js';
import type { BotJobInput, BotJobResult } from '../../bots/jobs/contract.js';
import type { BotTurns } from '../games/ports.js';
import { botJobId } from './job-ids.js';
import { started, type Deliverer, type RuntimeHandlers } from './handlers.js';

const ATTEMPTS = 3;

/** Bot turns on this process's worker threads (embedded default), retried like BullMQ would. */
export class LocalBotTurns implements BotTurns, Deliverer<RuntimeHandlers> {
  private readonly inFlight = new Set<string>();
  private handlers: RuntimeHandlers | undefined;

  constructor(
    private readonly pool: BotThreadPool,
    private readonly onError: (error: unknown) => void,
    /** A bot's answer, once applied (not stale): its thinking and wait for a thread, for the metrics. */
    private readonly onAnswered: (result: BotJobResult) => void = () => undefined,
  ) {}

  async start(handlers: RuntimeHandlers): Promise<void> {
    this.handlers = handlers;
  }

  async request(input: BotJobInput): Promise<void> {
    started(this.handlers, 'LocalBotTurns');
    const id = botJobId(input.gameId, input.ply);
    if (this.inFlight.has(id)) return;
    this.inFlight.add(id);
    void this.attempt(input, 1).finally(() => this.inFlight.delete(id));
  }

  async pending(gameId: string, ply: number): Promise<boolean> {
    return this.inFlight.has(botJobId(gameId, ply));
  }

  /** Answers are played as they come, in this process: none waits. */
  async answered(): Promise<undefined> {
    return undefined;
  }

  get depth(): number {
    return this.pool.waiting + this.pool.running;
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  private async attempt(input: BotJobInput, attempt: number): Promise<void> {
    const handlers = started(this.handlers, 'LocalBotTurns');
    try {
      const result = await this.pool.run(input, (thinking) => {
        handlers.onBotThinking(input.gameId, input.ply, input.bot, thinking).catch(this.onError);
      });
      if (await handlers.onBotResult(result)) this.onAnswered(result);
    } catch (error) {
      if (attempt < ATTEMPTS) return this.attempt(input, attempt + 1);
      this.onError(error);
      await handlers.onBotFailed(input.gameId, input.ply).catch(this.onError);
    }
  }
}
