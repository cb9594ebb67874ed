import slotOf from 'cluster-key-slot';

/** A Redis Cluster's hash slots: 0 to 16383. */
const SLOTS = 16384;

/**
 * Hash tags for something kept in `count` parts over a cluster (the bot queues, the timers): part
 * `i` takes the first tag `<prefix>-<k>` whose slot lies in the middle half of the `i`-th of
 * `count` equal runs of the slot range. A cluster's masters split the range into equal runs at
 * its creation, so three parts land on three masters of three, away from the runs' edges should a
 * master hold a few slots more or less.
 */
export function partTags(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, part) => {
    for (let k = 0; ; k++) {
      const tag = `${prefix}-${k}`;
      const within = (slotOf(tag) * count) / SLOTS - part;
      if (within >= 0.25 && within < 0.75) return tag;
    }
  });
}

/**
 * The part a game's things go to, always the same for the game: its id's slot (CRC16, as the
 * cluster hashes the game's own keys) tells the run of the slot range, and so the part tagged in
 * that run: on a cluster split evenly, the master of the game's own keys.
 */
export const partOfGame = (gameId: string, count: number): number => (count === 1 ? 0 : Math.floor((slotOf(gameId) * count) / SLOTS));
