import { freshRecord, identityKey, rateGame, type Identity, type RatingRecord } from '../ratings/rating.js';
import type { RedisClient } from '../redis/connections.js';
import type { RedisKeys } from './redis-keys.js';
import type { GameEnd } from './store.js';

/**
 * What a game's end does to one player, applied in that player's slot, once: the games it has
 * applied are remembered (by when, the last 10,000), so applying one again changes nothing (2).
 * A rating is written only over the version it was computed from (0: another game's end came
 * first; it is computed again from the record as it is now).
 * KEYS: applied, history[, rating]. ARGV: game id, now[, new version, document]. Returns 1 when
 * applied, 2 when it had been, 0 when the rating's version differs.
 */
const APPLY_END = `
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 2 end
if KEYS[3] then
  local stored = tonumber(redis.call('HGET', KEYS[3], 'version') or '0')
  if stored ~= tonumber(ARGV[3]) - 1 then return 0 end
  redis.call('HSET', KEYS[3], 'version', ARGV[3], 'doc', ARGV[4])
end
redis.call('LPUSH', KEYS[2], ARGV[1])
redis.call('LTRIM', KEYS[2], 0, 49)
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -10001)
return 1`;

/** A game's end as the game's hash keeps it (`end`) until every player has it. */
export type StoredEnd = GameEnd;

/**
 * A game's end reaches its players without a script across slots: the game's own write keeps it
 * (`end`, in the game's slot) and lists the game as pending (`{idx}`) first; then each player's
 * slot applies its part once (APPLY_END); then the leaderboard (`{board}`) takes the new rating;
 * last the game's `end` and its pending entry go. A process dying anywhere leaves the game
 * pending, and the sweep applies it again: what was applied is skipped, what was not is done.
 */
export class GameEnds {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
    private readonly now: () => number = Date.now,
  ) {
    redis.defineCommand('boardroomApplyEnd', { lua: APPLY_END });
  }

  /** Before the game's write: the game will be pending until its end is applied. */
  async markPending(gameId: string): Promise<void> {
    await this.redis.zadd(this.keys.pendingEnds(), this.now(), gameId);
  }

  /** Games pending for longer than `olderThanMs` (a process may be applying a newer one now). */
  async pending(olderThanMs: number, limit = 100): Promise<string[]> {
    return this.redis.zrangebyscore(this.keys.pendingEnds(), '-inf', this.now() - olderThanMs, 'LIMIT', 0, limit);
  }

  /** Applies what the game's hash says its end still owes; nothing owed drops it from the pending. */
  async apply(gameId: string): Promise<void> {
    const json = await this.redis.hget(this.keys.game(gameId), 'end');
    if (json) {
      const end = JSON.parse(json) as StoredEnd;
      for (const player of end.players) await this.applyTo(gameId, player, end);
      await this.redis.hdel(this.keys.game(gameId), 'end');
    }
    await this.redis.zrem(this.keys.pendingEnds(), gameId);
  }

  private async applyTo(gameId: string, player: Identity, end: StoredEnd): Promise<void> {
    let record = end.ratings.find((r) => identityKey(r) === identityKey(player));
    for (let tries = 0; ; tries++) {
      const keys = [this.keys.applied(player), this.keys.history(player), ...(record ? [this.keys.rating(record.game, player)] : [])];
      const args = [gameId, this.now(), ...(record ? [record.version, JSON.stringify(record)] : [])];
      const done = await this.call(keys, args);
      if (done !== 0 || !record) break;
      if (tries >= 8) throw new Error(`the rating of ${identityKey(player)} for game ${gameId} kept changing under its update`);
      record = await this.recomputed(record, end);
    }
    if (record) {
      const doc = await this.redis.hget(this.keys.rating(record.game, player), 'doc');
      const current = doc ? (JSON.parse(doc) as RatingRecord) : record;
      await this.redis.zadd(this.keys.leaderboard(record.game), current.rating, identityKey(player));
    }
  }

  /**
   * Another game's end changed this player's record since this one was computed: the same game
   * rated again from the record as it is now, against the opponent as it was before the game.
   */
  private async recomputed(record: RatingRecord, end: StoredEnd): Promise<RatingRecord> {
    const rated = end.rated;
    if (!rated) throw new Error('a rating conflict with no game to rate it again from');
    const doc = await this.redis.hget(this.keys.rating(record.game, record), 'doc');
    const stored = doc ? (JSON.parse(doc) as RatingRecord) : freshRecord(record.game, record);
    const isBlack = identityKey(rated.black) === identityKey(record);
    const fresh = isBlack ? rateGame(stored, rated.white, rated.winner, this.now()).black : rateGame(rated.black, stored, rated.winner, this.now()).white;
    return fresh;
  }

  private call(keys: string[], args: (string | number)[]): Promise<unknown> {
    return (this.redis as unknown as Record<string, (...a: (string | number)[]) => Promise<unknown>>).boardroomApplyEnd!(keys.length, ...keys, ...args);
  }
}
