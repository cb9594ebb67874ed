import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

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
});
