import type { ErrorCode, SeatSpec } from '../shared/protocol/index.js';
import { accept, type ServerResult } from './refuse.js';
import type { PlatformStore } from './store/platform.js';
import type { GameStore } from './store/store.js';

export interface QuotaLimits {
  /** Rooms not yet finished, per owner. */
  readonly liveRooms: number;
  /** Rooms made per minute, per owner. */
  readonly roomsPerMinute: number;
  /** Rooms with a bot seat not yet finished, per owner. */
  readonly liveBotGames: number;
  /** Seconds of bot thinking asked per minute by an owner's rooms. */
  readonly botSecondsPerMinute: number;
  /** Open connections per client address. */
  readonly connections: number;
}

/** Owners that quotas do not count: the server's own rooms. */
const EXEMPT = new Set(['ladder', 'tournament']);

const botMsKey = (owner: string): string => `quota:bot-ms:${owner}`;

/** A room is in the store within this long of its reservation, or it was never made. */
const UNMADE_AFTER_MS = 60_000;

function over(code: ErrorCode, message: string, retryAfterMs?: number): ServerResult<never> {
  return { ok: false, error: { code, message, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) } };
}

/**
 * Limits per owner (an account, an agent, or a client address) and per address, kept in the
 * platform store so they hold across server processes. Each refusal has a `quota/…` code and
 * says the limit.
 */
export class Quotas {
  constructor(
    private readonly platform: PlatformStore,
    private readonly store: GameStore,
    private readonly limits: QuotaLimits,
  ) {}

  /**
   * Takes the places room `gameId` needs in its owner's quotas, each counted and taken in one step,
   * so requests sent at once cannot all pass; a refusal gives back the places taken before it. A
   * room that is not made after all gives its places back with `release`.
   */
  async reserve(owner: string | null, gameId: string, seats: { black: SeatSpec; white: SeatSpec }): Promise<ServerResult<Record<string, never>>> {
    if (owner === null || EXEMPT.has(owner)) return accept({});
    const { limits } = this;
    if (!(await this.hold('rooms', owner, gameId, limits.liveRooms))) return over('quota/live_rooms', `You have as many rooms not yet finished as allowed (${limits.liveRooms}): finish or leave one first.`);
    const rest = await this.reserveRest(owner, gameId, seats);
    if (!rest.ok) await this.release(owner, gameId);
    return rest;
  }

  private async reserveRest(owner: string, gameId: string, seats: { black: SeatSpec; white: SeatSpec }): Promise<ServerResult<Record<string, never>>> {
    const { limits } = this;
    if (seats.black.kind === 'bot' || seats.white.kind === 'bot') {
      if (!(await this.hold('bot-games', owner, gameId, limits.liveBotGames))) return over('quota/live_bot_games', `You have as many games with a bot not yet finished as allowed (${limits.liveBotGames}).`);
      const thinking = await this.botSecondsLeft(owner);
      if (!thinking.ok) return thinking;
    }
    const made = await this.platform.hit(`quota:rooms:${owner}`, 60_000);
    if (made.count > limits.roomsPerMinute) return over('quota/rooms_per_minute', `At most ${limits.roomsPerMinute} rooms a minute may be made; try again shortly.`, made.resetInMs);
    return accept({});
  }

  /** A room finished, or was not made after all: its places are free. */
  async release(owner: string | null, gameId: string): Promise<void> {
    if (owner === null) return;
    await Promise.all([this.platform.releaseRoom('rooms', owner, gameId), this.platform.releaseRoom('bot-games', owner, gameId)]);
  }

  /** A bot turn asked `budgetMs` of thinking for an owner's room. */
  async botThinking(owner: string | null, budgetMs: number): Promise<void> {
    if (owner === null || EXEMPT.has(owner)) return;
    await this.platform.hit(botMsKey(owner), 60_000, budgetMs);
  }

  /**
   * May `owner` ask for `ms` of bot thinking outside a room (a finished game's analysis)? Counted
   * against the same minute's bot seconds as its rooms' turns: charged and counted in one step, so
   * requests sent at once cannot all pass, and given back when refused.
   */
  async mayThink(owner: string | null, ms: number): Promise<ServerResult<Record<string, never>>> {
    if (owner === null || EXEMPT.has(owner)) return accept({});
    const charged = await this.platform.hit(botMsKey(owner), 60_000, ms);
    const before = { ...charged, count: charged.count - ms };
    if (this.underBotSeconds(before)) return accept({});
    await this.platform.hit(botMsKey(owner), 60_000, -ms);
    return this.overBotSeconds(before);
  }

  private async botSecondsLeft(owner: string): Promise<ServerResult<Record<string, never>>> {
    const used = await this.platform.hit(botMsKey(owner), 60_000, 0);
    return this.underBotSeconds(used) ? accept({}) : this.overBotSeconds(used);
  }

  private underBotSeconds(used: { count: number }): boolean {
    return used.count < this.limits.botSecondsPerMinute * 1000;
  }

  private overBotSeconds(used: { count: number; resetInMs: number }): ServerResult<never> {
    const limit = this.limits.botSecondsPerMinute;
    return over('quota/bot_seconds', `Your rooms and analyses asked for ${Math.round(used.count / 1000)} s of bot thinking this minute, the most allowed (${limit} s).`, used.resetInMs);
  }

  /** May one more connection come from `address`, given the live server processes? */
  async mayConnect(address: string, instances: readonly string[]): Promise<ServerResult<Record<string, never>>> {
    const open = await this.platform.connections(address, instances);
    return open >= this.limits.connections ? over('quota/connections', `${open} connections are open from your address, the most allowed (${this.limits.connections}).`) : accept({});
  }

  /**
   * A place for the room in an owner's set. At the limit, rooms that finished without being
   * released (a crash in between) and reservations of rooms never made are let go, and the place
   * is asked for again.
   */
  private async hold(set: string, owner: string, gameId: string, limit: number): Promise<boolean> {
    if (await this.platform.reserveRoom(set, owner, gameId, limit)) return true;
    return (await this.letGoStale(set, owner)) && this.platform.reserveRoom(set, owner, gameId, limit);
  }

  /** True when any held room was let go. A room not yet in the store may be one being made now. */
  private async letGoStale(set: string, owner: string): Promise<boolean> {
    const old = new Set(await this.platform.heldRooms(set, owner, Date.now() - UNMADE_AFTER_MS));
    let released = false;
    for (const id of await this.platform.heldRooms(set, owner)) {
      const game = await this.store.get(id);
      if (game ? game.status !== 'finished' : !old.has(id)) continue;
      await this.platform.releaseRoom(set, owner, id);
      released = true;
    }
    return released;
  }
}
