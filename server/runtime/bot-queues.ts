import slotOf from 'cluster-key-slot';

/** A Redis Cluster's hash slots: 0 to 16383. */
const SLOTS = 16384;

/** The part of the slot range, cut in `count` equal parts, that holds `slot`. */
const partOf = (slot: number, count: number): number => Math.floor((slot * count) / SLOTS);

/**
 * The hash tag of each bot queue. BullMQ keeps a queue's keys in one slot, so a queue lives on
 * one master: queue `i` takes the first tag `<prefix>-<k>` whose slot lies in the middle half of
 * the `i`-th of `count` equal parts of the slot range. A cluster's masters split the range into
 * equal runs at its creation, so three queues land on three masters of three, away from the
 * runs' edges should a master hold a few slots more or less.
 */
export function botQueueTags(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, part) => {
    for (let k = 0; ; k++) {
      const tag = `${prefix}-${k}`;
      const within = ((slotOf(tag) * count) / SLOTS) - part;
      if (within >= 0.25 && within < 0.75) return tag;
    }
  });
}

/**
 * The BullMQ prefixes of the bot queues, which servers and workers of a deployment must agree
 * on. One queue keeps the layout of before: the key prefix itself on one Redis, `{prefix}` on a
 * cluster (every BullMQ script needs its queue's keys in one slot). Several are hash-tagged.
 * `count` (`BOT_QUEUES`) unset: one on one Redis, three on a cluster (a master each of the smallest).
 */
export function botQueuePrefixes(prefix: string, cluster: boolean, count = cluster ? 3 : 1): string[] {
  if (count === 1) return [cluster ? `{${prefix}}` : prefix];
  return botQueueTags(prefix, count).map((tag) => `{${tag}}`);
}

/**
 * The queue of a game's bot turns and analysis, always the same for the game: its id's slot
 * (CRC16, as the cluster hashes the game's own keys) tells the part of the slot range, and so
 * the queue tagged in that part: on a cluster split evenly, the master of the game's keys.
 */
export const botQueueOf = (gameId: string, count: number): number => (count === 1 ? 0 : partOf(slotOf(gameId), count));

/** A worker's searches at once shared among the queues it serves: each at least one. */
export const concurrencyPerQueue = (concurrency: number, count: number): number[] =>
  Array.from({ length: count }, (_, i) => Math.max(1, Math.floor(concurrency / count) + (i < concurrency % count ? 1 : 0)));
