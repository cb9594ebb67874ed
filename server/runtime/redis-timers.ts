import { Queue } from 'bullmq';
import { answeredWithin, type RedisClient } from '../redis/connections.js';
import { partOfGame, partTags } from '../redis/slot-parts.js';
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
/**
 * How long arming a timer holds up the move that armed it. A part whose master fails over takes
 * the arm later (the client sends it again to the promoted replica), so the move's answer goes on.
 */
const ARM_ANSWER_MS = 250;

/** The BullMQ queue older servers kept their timers in as delayed jobs. */
export const RETIRED_TIMER_QUEUE = 'boardroom-timers';

/**
 * The keys of the timers' parts, under the prefix: each a sorted set of timer ids scored by when
 * they are due (or, claimed, by when the claim's lease runs out). A timer carries nothing but its
 * id: what it times (the game's ply and clock, the seat's absence) is read from the game when it
 * fires, so arming is one ZADD. One part is `{timers}`; several (on a cluster) are hash-tagged in
 * runs of the slot range (`partTags`), and a game's timers go to the part in the run of its own
 * slot, on an even cluster its own master: a master failing over holds up the timers of its own
 * games only, and no master takes every timer.
 */
export function timerKeys(prefix: string, parts = 1): string[] {
  if (parts === 1) return [`${prefix}:{timers}:due`];
  return partTags(`${prefix}-timers`, parts).map((tag) => `${prefix}:{${tag}}:due`);
}

/**
 * Claims up to ARGV[3] timers due by ARGV[1]: each stays in the set, scored at the end of its
 * lease (ARGV[2]), and is returned. A claim whose process died becomes due again when its lease
 * runs out.
 */
const CLAIM = `
local ids = redis.call('zrangebyscore', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[3])
for _, id in ipairs(ids) do redis.call('zadd', KEYS[1], ARGV[2], id) end
return ids`;

/** A fired timer goes, unless it was armed again meanwhile (its score is no longer its claim's). */
const DONE = `
if redis.call('zscore', KEYS[1], ARGV[1]) == ARGV[2] then redis.call('zrem', KEYS[1], ARGV[1]) end`;

type TimerRedis = RedisClient & {
  timerClaim(due: string, now: number, leaseUntil: number, limit: number): Promise<string[]>;
  timerDone(due: string, id: string, leaseUntil: number): Promise<unknown>;
};

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
  private readonly keys: string[];
  private handlers: RuntimeHandlers | undefined;
  private poller: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;

  constructor(
    redis: RedisClient,
    private readonly onError: (error: unknown) => void,
    prefix = 'boardroom',
    private readonly now: () => number = Date.now,
    parts = 1,
  ) {
    this.keys = timerKeys(prefix, parts);
    redis.defineCommand('timerClaim', { numberOfKeys: 1, lua: CLAIM });
    redis.defineCommand('timerDone', { numberOfKeys: 1, lua: DONE });
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

  private keyOf(gameId: string): string {
    return this.keys[partOfGame(gameId, this.keys.length)]!;
  }

  async armFlag(gameId: string, _ply: number, at: number): Promise<void> {
    await this.arm(gameId, at, flagTimerId(gameId));
  }

  async armAbandon(gameId: string, color: Color, _awaySince: number, at: number): Promise<void> {
    await this.arm(gameId, at, abandonTimerId(gameId, color));
  }

  /** Waits ARM_ANSWER_MS at most; an arm its master does not answer by then goes on without the caller. */
  private async arm(gameId: string, at: number, id: string): Promise<void> {
    const armed = this.redis.zadd(this.keyOf(gameId), at, id);
    if (!(await answeredWithin(armed, ARM_ANSWER_MS))) armed.catch(this.onError);
  }

  async cancel(gameId: string): Promise<void> {
    await this.redis.zrem(this.keyOf(gameId), ...gameTimerIds(gameId));
  }

  async close(): Promise<void> {
    clearInterval(this.poller);
    await this.polling;
  }

  /** Every part polled at once: a part whose master fails over holds up none of the others. */
  async poll(): Promise<void> {
    const handlers = started(this.handlers, 'RedisTimers');
    const polled = await Promise.allSettled(this.keys.map((key) => this.pollPart(handlers, key)));
    for (const one of polled) if (one.status === 'rejected') this.onError(one.reason);
  }

  /** One claim, its timers fired, and again while the batches come full. */
  private async pollPart(handlers: RuntimeHandlers, key: string): Promise<void> {
    for (;;) {
      const now = this.now();
      const leaseUntil = now + TIMER_LEASE_MS;
      const claimed = await this.redis.timerClaim(key, now, leaseUntil, CLAIM_BATCH);
      await Promise.all(claimed.map((id) => this.fire(handlers, key, id, leaseUntil)));
      if (claimed.length < CLAIM_BATCH) return;
    }
  }

  private async fire(handlers: RuntimeHandlers, key: string, id: string, leaseUntil: number): Promise<void> {
    try {
      const [kind, gameId, color] = id.split(':') as [string, string, Color | undefined];
      if (kind === 'flag') await handlers.onTurnDue(gameId);
      else if (kind === 'abandon' && color) await handlers.onAwayDue(gameId, color);
      await this.redis.timerDone(key, id, leaseUntil);
    } catch (error) {
      // Left claimed: due again when the lease runs out.
      this.onError(error);
    }
  }
}

/**
 * Drops the BullMQ queue older servers kept their timers in, whose delayed jobs no process takes
 * any more: the live games' timers are armed again here by `recover`. A no-op once it is gone.
 */
export async function dropRetiredTimerQueue(redis: RedisClient, prefix: string): Promise<boolean> {
  if ((await redis.exists(`${prefix}:${RETIRED_TIMER_QUEUE}:meta`, `${prefix}:${RETIRED_TIMER_QUEUE}:delayed`, `${prefix}:${RETIRED_TIMER_QUEUE}:id`)) === 0) return false;
  const queue = new Queue(RETIRED_TIMER_QUEUE, { connection: redis, prefix });
  try {
    await queue.obliterate({ force: true });
  } finally {
    await queue.close();
  }
  return true;
}
