import type { Color } from '../../shared/color.js';
import type { BotJobResult, BotThinking } from '../../bots/jobs/contract.js';

/** What the timer and bot-turn adapters call back into; the service is wired in after it exists. */
export interface RuntimeHandlers {
  onFlag(gameId: string, ply: number): Promise<void>;
  onAbandon(gameId: string, color: Color, awaySince: number): Promise<void>;
  /** True when the answer was applied (not stale). */
  onBotResult(result: BotJobResult): Promise<boolean>;
  onBotThinking(gameId: string, ply: number, bot: string, thinking: BotThinking): Promise<void>;
  onBotFailed(gameId: string, ply: number): Promise<void>;
}

export class LateHandlers implements RuntimeHandlers {
  target: RuntimeHandlers | undefined;
  private get t(): RuntimeHandlers {
    if (!this.target) throw new Error('runtime handlers used before the service was wired');
    return this.target;
  }
  onFlag = (gameId: string, ply: number) => this.t.onFlag(gameId, ply);
  onAbandon = (gameId: string, color: Color, awaySince: number) => this.t.onAbandon(gameId, color, awaySince);
  onBotResult = (result: BotJobResult) => this.t.onBotResult(result);
  onBotThinking = (gameId: string, ply: number, bot: string, thinking: BotThinking) => this.t.onBotThinking(gameId, ply, bot, thinking);
  onBotFailed = (gameId: string, ply: number) => this.t.onBotFailed(gameId, ply);
}
