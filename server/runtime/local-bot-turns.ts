import { BotThreadPool } from '../../bots/jobs/thread-pool.js';
import type { BotJobInput, BotJobResult } from '../../bots/jobs/contract.js';
import type { BotTurns } from '../games/ports.js';
import { botJobId } from './job-ids.js';
import type { RuntimeHandlers } from './handlers.js';
import { LocalJobs } from './local-jobs.js';

const ATTEMPTS = 3;

/** Bot turns on this process's worker threads (embedded default), retried like BullMQ would. */
export class LocalBotTurns extends LocalJobs<RuntimeHandlers> implements BotTurns {
  constructor(
    pool: BotThreadPool,
    onError: (error: unknown) => void,
    /** A bot's answer, once applied (not stale): its thinking and wait for a thread, for the metrics. */
    private readonly onAnswered: (result: BotJobResult) => void = () => undefined,
  ) {
    super(pool, onError);
  }

  async request(input: BotJobInput): Promise<void> {
    this.delivered();
    this.once(botJobId(input.gameId, input.ply), () => this.attempt(input, 1));
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
    const handlers = this.delivered();
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
