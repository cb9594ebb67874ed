import { isCluster, type RedisClient } from '../redis/connections.js';
import { KEY_LAYOUT, renamedKey, type RedisKeys } from './redis-keys.js';

/**
 * Moves the keys of the first layout (nothing in braces) to their names in this one, once per
 * prefix: a mark (`layout`) says it is done. Each key is renamed only if its new name is free
 * (RENAMENX), so two processes starting at once, or a key a newer server wrote meanwhile, are
 * harmless. A cluster never held the first layout (its scripts could not run there): it is only
 * marked. Returns the count of keys moved.
 */
export async function migrateLayout(redis: RedisClient, keys: RedisKeys): Promise<number> {
  if ((await redis.get(keys.layout())) === KEY_LAYOUT) return 0;
  let moved = 0;
  if (!isCluster(redis)) {
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${keys.prefix}*`, 'COUNT', 1000);
      cursor = next;
      for (const key of found) {
        const to = renamedKey(keys, key);
        if (to === undefined) continue;
        // Gone already: another process starting at once moved it.
        if ((await redis.renamenx(key, to).catch(() => 0)) === 1) moved++;
      }
    } while (cursor !== '0');
  }
  await redis.set(keys.layout(), KEY_LAYOUT);
  return moved;
}
