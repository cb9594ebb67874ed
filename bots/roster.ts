/**
 * The registry (`bots/registry.ts`) with every game's bots loaded, for synchronous lookups: the
 * worker threads that may play any game import it, and so does another checkout's arena, by path
 * (`NAME@DIR` bots, `bots/arena/bot-spec.ts`): builds old and new must both export `findBot` here.
 */
import { loadGameBots } from './registry.js';

await loadGameBots();

export { botsFor, engineWithBudget, findBot } from './registry.js';
