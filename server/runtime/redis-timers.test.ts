import slotOf from 'cluster-key-slot';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startRedis, type TestRedis } from '../../test/support/redis.js';
import type { RuntimeHandlers } from './handlers.js';
import { RedisTimers, TIMER_LEASE_MS, timerKeys } from './redis-timers.js';

// The timers on a real redis-server: one entry per game's flag and seat's absence, claimed and
// fired once among every process polling, and fired by another when the claimer dies.
let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis?.stop());

// A timer names only what it times: the service reads the ply or the absence from the game.
type Recording = RuntimeHandlers & { onTurnDue: ReturnType<typeof vi.fn>; onAwayDue: ReturnType<typeof vi.fn> };
function handlers(onTurnDue: (gameId: string) => Promise<void> = async () => {}): Recording {
  const unused = vi.fn(async () => {});
  return { onTurnDue: vi.fn(onTurnDue), onAwayDue: vi.fn(async () => {}), onFlag: unused, onAbandon: unused, onBotResult: vi.fn(async () => true), onBotThinking: unused, onBotFailed: unused } as never;
}

async function entries(prefix: string): Promise<{ due: string[]; scores: number[] }> {
  const flat = await redis.client().zrange(timerKeys(prefix)[0]!, 0, -1, 'WITHSCORES');
  return { due: flat.filter((_, i) => i % 2 === 0), scores: flat.filter((_, i) => i % 2 === 1).map(Number) };
}

function fail(error: unknown): never {
  throw error;
}

describe('redis timers', () => {
  it('a game holds one flag however many plies armed one, one abandonment timer per seat, and none once cancelled', async () => {
    const timers = new RedisTimers(redis.client(), fail, 'arm');
    const far = Date.now() + 60_000;
    for (let ply = 0; ply < 20; ply++) await timers.armFlag('g', ply, far + ply);
    await timers.armAbandon('g', 'black', 1, far);
    await timers.armAbandon('g', 'black', 2, far);
    await timers.armAbandon('g', 'white', 3, far);
    await timers.armFlag('other', 0, far);
    expect((await entries('arm')).due.sort()).toEqual(['abandon:g:black', 'abandon:g:white', 'flag:g', 'flag:other']);
    await timers.cancel('g');
    expect(await entries('arm')).toEqual({ due: ['flag:other'], scores: [far] });
    await timers.close();
  });

  it('a replaced flag fires at its new time only, and a fired timer leaves nothing behind', async () => {
    const h = handlers();
    const timers = new RedisTimers(redis.client(), fail, 'replace');
    await timers.start(h);
    await timers.armFlag('g', 4, Date.now() + 50);
    const second = Date.now() + 400;
    await timers.armFlag('g', 5, second);
    await timers.armAbandon('g', 'white', 7, Date.now() + 30);
    await vi.waitFor(() => expect(h.onTurnDue).toHaveBeenCalledWith('g'));
    expect(Date.now()).toBeGreaterThanOrEqual(second);
    await vi.waitFor(async () => expect(await entries('replace')).toEqual({ due: [], scores: [] }));
    expect(h.onTurnDue).toHaveBeenCalledTimes(1);
    expect(h.onAwayDue).toHaveBeenCalledExactlyOnceWith('g', 'white');
    await timers.close();
  });

  it('with two processes polling, each of 200 due timers fires once', async () => {
    const fired: string[] = [];
    const record = async (gameId: string) => void fired.push(gameId);
    const [a, b] = [new RedisTimers(redis.client(), fail, 'two'), new RedisTimers(redis.client(), fail, 'two')];
    const at = Date.now() + 100;
    for (let i = 0; i < 200; i++) await a.armFlag(`g${i}`, 1, at);
    await Promise.all([a.start(handlers(record)), b.start(handlers(record))]);
    await vi.waitFor(() => expect(fired).toHaveLength(200));
    await new Promise((r) => setTimeout(r, 300));
    expect(new Set(fired).size).toBe(200);
    expect(fired).toHaveLength(200);
    await Promise.all([a.close(), b.close()]);
  });

  it('a timer claimed by a process that died before firing it is fired by another once the lease runs out', async () => {
    let clock = Date.now();
    // The first process claims the flag and dies mid-fire: its handler never returns.
    const dying = handlers(() => new Promise(() => undefined));
    const a = new RedisTimers(redis.client(), fail, 'lease', () => clock);
    await a.start(dying);
    await a.armFlag('g', 3, clock - 1);
    await vi.waitFor(() => expect(dying.onTurnDue).toHaveBeenCalledOnce());
    const survivor = handlers();
    const b = new RedisTimers(redis.client(), fail, 'lease', () => clock);
    await b.start(survivor);
    await new Promise((r) => setTimeout(r, 300));
    expect(survivor.onTurnDue).not.toHaveBeenCalled();
    clock += TIMER_LEASE_MS + 1;
    await vi.waitFor(() => expect(survivor.onTurnDue).toHaveBeenCalledExactlyOnceWith('g'));
    await vi.waitFor(async () => expect((await entries('lease')).due).toEqual([]));
    await b.close();
  });

  it('in parts, a game\'s timers go to the part of its own slot run, and every part\'s due timers fire', async () => {
    const fired: string[] = [];
    const timers = new RedisTimers(redis.client(), fail, 'parts', Date.now, 3);
    const keys = timerKeys('parts', 3);
    expect(new Set(keys.map(slotOf)).size).toBe(3);
    const ids = Array.from({ length: 60 }, (_, i) => `game${i}`);
    const at = Date.now() + 100;
    for (const id of ids) await timers.armFlag(id, 1, at);
    for (const [part, key] of keys.entries()) {
      const held = await redis.client().zrange(key, 0, -1);
      const expected = ids.filter((id) => Math.floor((slotOf(id) * 3) / 16384) === part).map((id) => `flag:${id}`);
      expect(held.sort()).toEqual(expected.sort());
      expect(expected.length).toBeGreaterThan(5);
    }
    await timers.start(handlers(async (gameId) => void fired.push(gameId)));
    await vi.waitFor(() => expect(fired.sort()).toEqual([...ids].sort()));
    await timers.cancel(ids[0]!);
    await timers.close();
  });
});
