import type { RedisClient } from '../redis/connections.js';
import type { GameId } from '../../shared/rules.js';
import type { Account, LadderConfig, LadderEntrant, PlatformStore, Seek } from './platform.js';

/** KEYS: the seeks hash. ARGV: seek ids. Deletes them all if all are there: 1, else 0. */
const TAKE_SEEKS = `
for i = 1, #ARGV do
  if redis.call('HEXISTS', KEYS[1], ARGV[i]) == 0 then return 0 end
end
redis.call('HDEL', KEYS[1], unpack(ARGV))
return 1`;

/** KEYS: the lock. ARGV: holder, ms. 1 when taken or renewed by its holder. */
const LOCK = `
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

/** KEYS: the counter. ARGV: window ms, amount. Returns {count, ms left}. */
const HIT = `
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
if count == tonumber(ARGV[2]) then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}`;

/** KEYS: an owner's rooms (a sorted set by when added). ARGV: game id, limit, now, ttl s. 1 when held, 0 at the limit. */
const RESERVE_ROOM = `
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 1 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[4])
return 1`;

/** KEYS: a process's connection counts. ARGV: address, delta, ttl s. A count that reaches 0 is removed in the same step. */
const COUNT_CONNECTION = `
local count = redis.call('HINCRBY', KEYS[1], ARGV[1], ARGV[2])
if count <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
redis.call('EXPIRE', KEYS[1], ARGV[3])
return count`;

/** An owner's room sets are forgotten a day after their last change. */
const ROOM_SET_TTL_S = 86_400;

/** The platform store in Redis, beside the games under the same prefix. */
export class RedisPlatform implements PlatformStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix = 'boardroom:',
  ) {
    redis.defineCommand('boardroomTakeSeeks', { numberOfKeys: 1, lua: TAKE_SEEKS });
    redis.defineCommand('boardroomLock', { numberOfKeys: 1, lua: LOCK });
    redis.defineCommand('boardroomHit', { numberOfKeys: 1, lua: HIT });
    redis.defineCommand('boardroomReserveRoom', { numberOfKeys: 1, lua: RESERVE_ROOM });
    redis.defineCommand('boardroomCountConnection', { numberOfKeys: 1, lua: COUNT_CONNECTION });
  }

  async createAccount(account: Account): Promise<boolean> {
    return (await this.redis.hsetnx(`${this.prefix}accounts`, account.name.toLowerCase(), JSON.stringify(account))) === 1;
  }

  async account(name: string): Promise<Account | undefined> {
    const json = await this.redis.hget(`${this.prefix}accounts`, name.toLowerCase());
    return json ? (JSON.parse(json) as Account) : undefined;
  }

  async putSession(idHash: string, account: string, ttlMs: number): Promise<void> {
    await this.redis.set(`${this.prefix}session:${idHash}`, account, 'PX', ttlMs);
  }

  async sessionAccount(idHash: string): Promise<string | undefined> {
    return (await this.redis.get(`${this.prefix}session:${idHash}`)) ?? undefined;
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.redis.del(`${this.prefix}session:${idHash}`);
  }

  async hit(key: string, windowMs: number, by = 1): Promise<{ count: number; resetInMs: number }> {
    const [count, left] = (await this.call('boardroomHit', [`${this.prefix}hits:${key}`, windowMs, by])) as [number, number];
    return { count, resetInMs: Math.max(0, left) };
  }

  async holdRoom(set: string, owner: string, gameId: string): Promise<void> {
    const key = this.roomsKey(set, owner);
    await this.redis.multi().zadd(key, 'NX', Date.now(), gameId).expire(key, ROOM_SET_TTL_S).exec();
  }

  async reserveRoom(set: string, owner: string, gameId: string, limit: number): Promise<boolean> {
    return (await this.call('boardroomReserveRoom', [this.roomsKey(set, owner), gameId, limit, Date.now(), ROOM_SET_TTL_S])) === 1;
  }

  async releaseRoom(set: string, owner: string, gameId: string): Promise<void> {
    await this.redis.zrem(this.roomsKey(set, owner), gameId);
  }

  async heldRooms(set: string, owner: string, addedBefore = Infinity): Promise<string[]> {
    return this.redis.zrangebyscore(this.roomsKey(set, owner), '-inf', addedBefore === Infinity ? '+inf' : `(${addedBefore}`);
  }

  /** Sorted by when each room was added: a reservation's age tells a room being made from one never made. */
  private roomsKey(set: string, owner: string): string {
    return `${this.prefix}held:${set}:${owner}`;
  }

  async countConnection(instance: string, address: string, delta: number): Promise<void> {
    await this.call('boardroomCountConnection', [`${this.prefix}connections:${instance}`, address, delta, ROOM_SET_TTL_S]);
  }

  async connections(address: string, instances: readonly string[]): Promise<number> {
    const counts = await Promise.all(instances.map((instance) => this.redis.hget(`${this.prefix}connections:${instance}`, address)));
    return counts.reduce((sum, n) => sum + Number(n ?? 0), 0);
  }

  async allConnections(instances: readonly string[]): Promise<number> {
    const counts = await Promise.all(instances.map((instance) => this.redis.hvals(`${this.prefix}connections:${instance}`)));
    return counts.flat().reduce((sum, n) => sum + Number(n), 0);
  }

  async putSeek(seek: Seek): Promise<void> {
    await this.redis.hset(`${this.prefix}seeks`, seek.id, JSON.stringify(seek));
  }

  async seeks(): Promise<Seek[]> {
    return Object.values(await this.redis.hgetall(`${this.prefix}seeks`)).map((json) => JSON.parse(json) as Seek);
  }

  async takeSeeks(ids: readonly string[]): Promise<boolean> {
    return ids.length > 0 && (await this.call('boardroomTakeSeeks', [`${this.prefix}seeks`, ...ids])) === 1;
  }

  async lock(name: string, holder: string, ms: number): Promise<boolean> {
    return (await this.call('boardroomLock', [`${this.prefix}lock:${name}`, holder, ms])) === 1;
  }

  async setLadder(config: LadderConfig): Promise<void> {
    await this.redis.hset(`${this.prefix}ladders`, config.game, JSON.stringify(config));
  }

  async ladders(): Promise<LadderConfig[]> {
    return Object.values(await this.redis.hgetall(`${this.prefix}ladders`)).map((json) => JSON.parse(json) as LadderConfig);
  }

  async putLadderEntrant(game: GameId, entrant: LadderEntrant): Promise<void> {
    await this.redis.hset(`${this.prefix}ladder:${game}:entrants`, entrant.name, JSON.stringify(entrant));
  }

  async removeLadderEntrant(game: GameId, name: string): Promise<void> {
    await this.redis.hdel(`${this.prefix}ladder:${game}:entrants`, name);
  }

  async ladderEntrants(game: GameId): Promise<LadderEntrant[]> {
    return Object.values(await this.redis.hgetall(`${this.prefix}ladder:${game}:entrants`)).map((json) => JSON.parse(json) as LadderEntrant);
  }

  async countLadderGame(game: GameId, names: readonly string[]): Promise<void> {
    const batch = this.redis.multi();
    for (const name of names) batch.hincrby(`${this.prefix}ladder:${game}:played`, name, 1);
    await batch.exec();
  }

  async ladderPlayed(game: GameId): Promise<Map<string, number>> {
    const counts = await this.redis.hgetall(`${this.prefix}ladder:${game}:played`);
    return new Map(Object.entries(counts).map(([name, n]) => [name, Number(n)]));
  }

  private call(command: string, args: (string | number)[]): Promise<unknown> {
    return (this.redis as unknown as Record<string, (...a: (string | number)[]) => Promise<unknown>>)[command]!(...args);
  }
}
