import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { answeredWithin, keepShardedSubscriptions, reportUnheardRefusals, type RedisClient } from './connections.js';

describe('commands sent without waiting for their answer', () => {
  it('are reported when refused, and still answer whoever waits', async () => {
    const client = new Redis({ lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    const reported: string[] = [];
    reportUnheardRefusals(client, ['publish', 'spublish'], (error, command) => reported.push(`${command}: ${(error as Error).message}`));
    void client.publish('channel', 'message');
    void client.spublish('channel', 'message');
    await expect(client.publish('channel', 'again')).rejects.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(reported).toHaveLength(3);
    expect(reported[0]).toMatch(/^publish: /);
    expect(reported[1]).toMatch(/^spublish: /);
    client.disconnect();
  });
});

describe('sharded subscriptions refused during a failover', () => {
  /** A subscriber that refuses every SSUBSCRIBE until `upAt`, as ioredis does while a slot has no subscriber. */
  function failingOver(upAt: number) {
    const sent: string[] = [];
    const client = {
      ssubscribe: async (...channels: string[]) => {
        sent.push(...channels);
        if (Date.now() < upAt) throw new Error('No sharded subscriber for slot');
        return channels.length;
      },
      sunsubscribe: async () => 0,
    };
    return { client: client as unknown as RedisClient, sent };
  }

  it('are sent again until taken, while the channel is still wanted', async () => {
    const { client, sent } = failingOver(Date.now() + 700);
    const reported: string[] = [];
    keepShardedSubscriptions(client, (_error, command) => reported.push(command));
    void client.ssubscribe('room-a');
    void client.ssubscribe('room-b');
    await new Promise((resolve) => setTimeout(resolve, 100));
    void client.sunsubscribe('room-b');
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect(sent.filter((c) => c === 'room-a').length).toBeGreaterThanOrEqual(3);
    expect(sent.filter((c) => c === 'room-b')).toEqual(['room-b']);
    const count = sent.length;
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(sent.length).toBe(count);
    expect(reported.every((c) => c === 'ssubscribe')).toBe(true);
  });
});

describe('an answer waited for a bounded time', () => {
  const after = <T>(ms: number, settle: () => T): Promise<T> => new Promise((resolve) => setTimeout(() => resolve(settle()), ms));

  it('is the value when it comes in time, nothing when it comes late, and a refusal in time rejects', async () => {
    expect(await answeredWithin(after(5, () => 'OK'), 200)).toEqual({ value: 'OK' });
    expect(await answeredWithin(after(200, () => 'OK'), 20)).toBeUndefined();
    await expect(answeredWithin(Promise.reject(new Error('MOVED')), 200)).rejects.toThrow('MOVED');
  });

  it('leaves no unheard rejection when the late answer is a refusal', async () => {
    const unheard: unknown[] = [];
    const hear = (reason: unknown): number => unheard.push(reason);
    process.on('unhandledRejection', hear);
    try {
      const late = after(30, () => Promise.reject(new Error('CLUSTERDOWN')));
      expect(await answeredWithin(late.then((p) => p), 5)).toBeUndefined();
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect(unheard).toEqual([]);
    } finally {
      process.off('unhandledRejection', hear);
    }
  });
});
