import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';
import { redisTarget } from './redis/connections.js';

describe('configuration', () => {
  it('REDIS_PREFIX prefixes every Redis key; boardroom by default', () => {
    expect(loadConfig({}).REDIS_PREFIX).toBe('boardroom');
    expect(loadConfig({ REDIS_PREFIX: 'staging' }).REDIS_PREFIX).toBe('staging');
  });

  it('QUEUE_PREFIX, its former name, is still read, and may not say otherwise than REDIS_PREFIX', () => {
    expect(loadConfig({ QUEUE_PREFIX: 'old' }).REDIS_PREFIX).toBe('old');
    expect(loadConfig({ QUEUE_PREFIX: 'same', REDIS_PREFIX: 'same' }).REDIS_PREFIX).toBe('same');
    expect(() => loadConfig({ QUEUE_PREFIX: 'a', REDIS_PREFIX: 'b' })).toThrow(ConfigError);
    expect(() => loadConfig({ QUEUE_PREFIX: 'no:colons' })).toThrow(/REDIS_PREFIX="no:colons".*QUEUE_PREFIX/);
  });

  it('REDIS_CLUSTER names a cluster\'s seed nodes instead of REDIS_URL, never beside it', () => {
    expect(redisTarget(loadConfig({ REDIS_CLUSTER: '10.0.0.1:7000, redis-b:7001' }))).toEqual({ kind: 'cluster', seeds: [{ host: '10.0.0.1', port: 7000 }, { host: 'redis-b', port: 7001 }] });
    expect(redisTarget(loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' }))).toEqual({ kind: 'single', url: 'redis://127.0.0.1:6379' });
    expect(redisTarget(loadConfig({}))).toBeUndefined();
    expect(() => loadConfig({ REDIS_CLUSTER: 'no-port' })).toThrow(/REDIS_CLUSTER="no-port": set REDIS_CLUSTER to seed nodes/);
    expect(() => loadConfig({ REDIS_CLUSTER: 'a:1', REDIS_URL: 'redis://b:2' })).toThrow(/not both/);
  });

  it('BOT_QUEUES: unset (each mode its default), or 1 to 16, a bad value named with what to set', () => {
    expect(loadConfig({}).BOT_QUEUES).toBeUndefined();
    expect(loadConfig({ BOT_QUEUES: '6' }).BOT_QUEUES).toBe(6);
    for (const bad of ['0', '17', 'three', '2.5']) expect(() => loadConfig({ BOT_QUEUES: bad })).toThrow(`BOT_QUEUES=${JSON.stringify(bad)}: set BOT_QUEUES to a whole number of bot queues from 1 to 16`);
  });
});
