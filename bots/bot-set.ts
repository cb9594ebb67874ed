/** Kept while `bots/othello/bots.ts` imports the type from here; the registry is `bots/registry.ts`. */
export type { GameBots } from './bot.js';
