import { partOfGame, partTags } from '../redis/slot-parts.js';

/**
 * The BullMQ prefixes of the bot queues, which servers and workers of a deployment must agree
 * on. One queue keeps the layout of before: the key prefix itself on one Redis, `{prefix}` on a
 * cluster (every BullMQ script needs its queue's keys in one slot). Several are hash-tagged.
 * `count` (`BOT_QUEUES`) unset: one on one Redis, three on a cluster (a master each of the smallest).
 */
export function botQueuePrefixes(prefix: string, cluster: boolean, count = cluster ? 3 : 1): string[] {
  if (count === 1) return [cluster ? `{${prefix}}` : prefix];
  return partTags(prefix, count).map((tag) => `{${tag}}`);
}

/** The queue of a game's bot turns and analysis (`partOfGame`): on an even cluster, on the master of the game's keys. */
export const botQueueOf = (gameId: string, count: number): number => partOfGame(gameId, count);

/** A worker's searches at once shared among the queues it serves: each at least one. */
export const concurrencyPerQueue = (concurrency: number, count: number): number[] =>
  Array.from({ length: count }, (_, i) => Math.max(1, Math.floor(concurrency / count) + (i < concurrency % count ? 1 : 0)));
