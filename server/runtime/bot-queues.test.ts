import slotOf from 'cluster-key-slot';
import { describe, expect, it } from 'vitest';
import { newGameId } from '../games/tokens.js';
import { partTags } from '../redis/slot-parts.js';
import { botQueueOf, botQueuePrefixes, concurrencyPerQueue } from './bot-queues.js';

/** The slot runs `redis-cli --cluster create` gives three masters. */
const THIRDS = [[0, 5460], [5461, 10922], [10923, 16383]] as const;
const thirdOf = (slot: number): number => THIRDS.findIndex(([from, to]) => from <= slot && slot <= to);

describe('the bot queues', () => {
  it('one queue keeps the keys of before: the prefix on one Redis, {prefix} on a cluster', () => {
    expect(botQueuePrefixes('boardroom', false)).toEqual(['boardroom']);
    expect(botQueuePrefixes('boardroom', true, 1)).toEqual(['{boardroom}']);
    expect(botQueueOf(newGameId(), 1)).toBe(0);
  });

  it('three on a cluster by default, their tags in the three masters\' thirds of the slots', () => {
    for (const prefix of ['boardroom', 'onc', 'staging', 'x']) {
      const prefixes = botQueuePrefixes(prefix, true);
      expect(prefixes).toHaveLength(3);
      expect(prefixes.map((p) => thirdOf(slotOf(p)))).toEqual([0, 1, 2]);
      expect(new Set(prefixes.map((p) => `${p}:boardroom-bots:wait`).map(slotOf)).size).toBe(3);
    }
  });

  it('any number of queues: distinct slots, each in its own part of the range', () => {
    for (const count of [2, 5, 16]) {
      const slots = partTags('boardroom', count).map(slotOf);
      expect(slots.map((slot) => Math.floor((slot * count) / 16384))).toEqual(Array.from({ length: count }, (_, i) => i));
    }
  });

  it('a game id always maps to the same queue, and many games spread over all of them', () => {
    const ids = Array.from({ length: 3000 }, () => newGameId());
    const queues = ids.map((id) => botQueueOf(id, 3));
    expect(ids.map((id) => botQueueOf(id, 3))).toEqual(queues);
    for (let q = 0; q < 3; q++) expect(queues.filter((one) => one === q).length).toBeGreaterThan(800);
    // A game's queue is tagged in the part of the slots of its own keys: on an even cluster, the same master.
    const tags = partTags('boardroom', 3).map(slotOf);
    for (const id of ids.slice(0, 100)) expect(thirdOf(tags[botQueueOf(id, 3)]!)).toBe(thirdOf(slotOf(`boardroom:game:{${id}}`)));
  });

  it('a worker\'s searches at once are shared among the queues, each served by one at least', () => {
    expect(concurrencyPerQueue(8, 1)).toEqual([8]);
    expect(concurrencyPerQueue(8, 3)).toEqual([3, 3, 2]);
    expect(concurrencyPerQueue(2, 3)).toEqual([1, 1, 1]);
  });
});
