import { parentPort } from 'node:worker_threads';
import { analyseGame } from './analyse.js';
import type { AnalysisJobInput, BotJobInput } from './contract.js';
import { thinkMove } from './think.js';

/** A bot turn (`input`) or a finished game's analysis (`analysis`). */
export type PoolRequest = { readonly id: number; readonly input: BotJobInput; readonly analysis?: undefined } | { readonly id: number; readonly analysis: AnalysisJobInput; readonly input?: undefined };
export type PoolReply =
  | { readonly id: number; readonly kind: 'thinking'; readonly thinking: unknown }
  | { readonly id: number; readonly kind: 'done'; readonly result: unknown }
  | { readonly id: number; readonly kind: 'failed'; readonly message: string };

parentPort!.on('message', ({ id, input, analysis }: PoolRequest) => {
  try {
    const progress = (thinking: unknown): void => parentPort!.postMessage({ id, kind: 'thinking', thinking } satisfies PoolReply);
    const result = analysis ? analyseGame(analysis, progress) : thinkMove(input, progress);
    parentPort!.postMessage({ id, kind: 'done', result } satisfies PoolReply);
  } catch (error) {
    parentPort!.postMessage({ id, kind: 'failed', message: error instanceof Error ? error.message : String(error) } satisfies PoolReply);
  }
});
