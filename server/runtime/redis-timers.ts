import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Color } from '../../shared/color.js';
import type { Timers } from '../games/ports.js';
import { abandonTimerId, flagTimerId, gameTimerIds } from './job-ids.js';
import { started, type Deliverer, type RuntimeHandlers } from './handlers.js';

/** How often every web process looks for due timers. */
export const TIMER_POLL_MS = 100;
/** A claimed timer whose process has not fired it by then (it died) is due again. */
export const TIMER_LEASE_MS = 5000;
/** Timers claimed at once; a full batch is followed at once by the next. */
const CLAIM_BATCH = 100;

/** The BullMQ queue older servers kept their timers in as delayed jobs. */
export const RETIRED_TIMER_QUEUE = 'boardroom-timers';

/**
 * The keys, under the prefix, all with the hash tag `{timers}`, so each script touches one slot
 * of a Redis Cluster: `due`, a sorted set of timer ids scored by when they are due (or, claimed,
 * by when the claim's lease runs out), and `data`, a hash of each timer's payload by id.
 */
export function timerKeys(prefix: string): { due: string; data: string } {
  return { due: `${prefix}:{timers}:due`, data: `${prefix}:{timers}:data` };
}

/** Arms or replaces a timer: its time and payload. */
const ARM = `
redis.call('zadd', KEYS[1], ARGV[2], ARGV[1])
redis.call('hset', KEYS[2], ARGV[1], ARGV[3])`;

/**
 * Claims up to ARGV[3] timers due by ARGV[1]: each stays in the set, scored at the end of its
 * lease (ARGV[2]), and is returned with its payload, id and payload alternating. A claim whose
 * process died becomes due again when its lease runs out.
 */
const CLAIM = `
local ids = redis.call('zrangebyscore', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])
local out = {}
for _, id in ipairs(ids) do
  redis.call('zadd', KEYS[1], ARGV[2], id)
  out[#out + 1] = id
  out[#out + 1] = redis.call('hget', KEYS[2], id) or ''
end
return out`;

/** A fired timer goes, unless it was armed again meanwhile (its payload changed). */
const DONE = `
local armed = redis.call('hget', KEYS[2], ARGV[1])
if not armed or armed == ARGV[2] then
  redis.call('zrem', KEYS[1], ARGV[1])
  redis.call('hdel', KEYS[2], ARGV[1])
end`;

/** Every timer named, gone. */
const CANCEL = `
redis.call('zrem', KEYS[1], unpack(ARGV))
redis.call('hdel', KEYS[2], unpack(ARGV))`;

type TimerRedis = Redis & {
  timerArm(due: string, data: string, id: string, at: number, payload: string): Promise<unknown>;
  timerClaim(due: string, data: string, now: number, leaseUntil: number, limit: number): Promise<string[]>;
  timerDone(due: string, data: string, id: string, payload: string): Promise<unknown>;
  timerCancel(due: string, data: string, ...ids: string[]): Promise<unknown>;
};

/** A payload: the time it was armed for, then what the handler needs (the ply, or the absence's start). */
const payload = (at: number, value: number): string => `${at}|${value}`;

/**
 * Flags and abandonment timers in Redis: one entry per pending timer, named by what it times (a
 * game's flag, a seat's absence), so arming a game's next flag replaces the last and a game that
 * ends takes its timers with it. Every web process claims due timers every TIMER_POLL_MS and fires
 * them; a claim outlives a process that dies mid-fire by its lease only. Firing is idempotent (the
 * handlers check the ply or the absence and write with a version check), so a timer fired twice,
 * by a claim that ran out or a re-arm during its firing, changes a game once.
 */
export class RedisTimers implements Timers, Deliverer<RuntimeHandlers> {
  private readonly redis: TimerRedis;
  private readonly keys: { due: string; data: string };
  private handlers: RuntimeHandlers | undefined;
  private poller: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;

  constructor(
    redis: Redis,
    private readonly onError: (error: unknown) => void,
    prefix = 'boardroom',
    private readonly now: () => number = Date.now,
  ) {
    this.keys = timerKeys(prefix);
    redis.defineCommand('timerArm', { numberOfKeys: 2, lua: ARM });
    redis.defineCommand('timerClaim', { numberOfKeys: 2, lua: CLAIM });
    redis.defineCommand('timerDone', { numberOfKeys: 2, lua: DONE });
    redis.defineCommand('timerCancel', { numberOfKeys: 2, lua: CANCEL });
    this.redis = redis as TimerRedis;
  }

  /** Claims and fires due timers, whichever process armed them, into `handlers`. */
  async start(handlers: RuntimeHandlers): Promise<void> {
    this.handlers = handlers;
    this.poller = setInterval(() => {
      if (this.polling) return;
      this.polling = this.poll()
        .catch(this.onError)
        .finally(() => (this.polling = undefined));
    }, TIMER_POLL_MS);
    this.poller.unref();
  }

  async armFlag(gameId: string, ply: number, at: number): Promise<void> {
    await this.arm(flagTimerId(gameId), at, payload(at, ply));
  }

  async armAbandon(gameId: string, color: Color, awaySince: number, at: number): Promise<void> {
    await this.arm(abandonTimerId(gameId, color), at, payload(at, awaySince));
  }

  async cancel(gameId: string): Promise<void> {
    await this.redis.timerCancel(this.keys.due, this.keys.data, ...gameTimerIds(gameId));
  }

  async close(): Promise<void> {
    clearInterval(this.poller);
    await this.polling;
  }

  /** One claim, its timers fired, and again while the batches come full. */
  async poll(): Promise<void> {
    const handlers = started(this.handlers, 'RedisTimers');
    for (;;) {
      const now = this.now();
      const claimed = await this.redis.timerClaim(this.keys.due, this.keys.data, now, now + TIMER_LEASE_MS, CLAIM_BATCH);
      const fires: Promise<void>[] = [];
      for (let i = 0; i < claimed.length; i += 2) fires.push(this.fire(handlers, claimed[i]!, claimed[i + 1]!));
      await Promise.all(fires);
      if (claimed.length < 2 * CLAIM_BATCH) return;
    }
  }

  private async fire(handlers: RuntimeHandlers, id: string, data: string): Promise<void> {
    try {
      const [kind, gameId, color] = id.split(':') as [string, string, Color | undefined];
      const value = Number(data.split('|')[1]);
      if (kind === 'flag' && Number.isInteger(value)) await handlers.onFlag(gameId, value);
      else if (kind === 'abandon' && color && Number.isInteger(value)) await handlers.onAbandon(gameId, color, value);
      await this.redis.timerDone(this.keys.due, this.keys.data, id, data);
    } catch (error) {
      // Left claimed: due again when the lease runs out.
      this.onError(error);
    }
  }

  private async arm(id: string, at: number, data: string): Promise<void> {
    await this.redis.timerArm(this.keys.due, this.keys.data, id, at, data);
  }
}

/**
 * Drops the BullMQ queue older servers kept their timers in, whose delayed jobs no process takes
 * any more: the live games' timers are armed again here by `recover`. A no-op once it is gone.
 */
export async function dropRetiredTimerQueue(redis: Redis, prefix: string): Promise<boolean> {
  if ((await redis.exists(`${prefix}:${RETIRED_TIMER_QUEUE}:meta`, `${prefix}:${RETIRED_TIMER_QUEUE}:delayed`, `${prefix}:${RETIRED_TIMER_QUEUE}:id`)) === 0) return false;
  const queue = new Queue(RETIRED_TIMER_QUEUE, { connection: redis, prefix });
  try {
    await queue.obliterate({ force: true });
  } finally {
    await queue.close();
  }
  return true;
}
