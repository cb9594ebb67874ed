import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { reportUnheardRefusals } from './connections.js';

describe('commands sent without waiting for their answer', () => {
  it('are reported when refused, and still answer whoever waits', async () => {
    const client = new Redis({ lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    const reported: string[] = [];
    reportUnheardRefusals(client, ['publish', 'sunsubscribe'], (error, command) => reported.push(`${command}: ${(error as Error).message}`));
    void client.publish('channel', 'message');
    void client.sunsubscribe('channel');
    await expect(client.publish('channel', 'again')).rejects.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(reported).toHaveLength(3);
    expect(reported[0]).toMatch(/^publish: /);
    expect(reported[1]).toMatch(/^sunsubscribe: /);
    client.disconnect();
  });
});
