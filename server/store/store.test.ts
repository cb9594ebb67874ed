import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedis, type TestRedis } from '../../test/support/redis.js';
import { MemoryStore } from './memory-store.js';
import { RedisStore } from './redis-store.js';
import { MemoryPlatform } from './platform-memory.js';
import { platformContract } from './platform.contract.js';
import { RedisPlatform } from './platform-redis.js';
import { sampleGame, storeContract } from './store.contract.js';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => redis.stop());

storeContract('memory', async () => new MemoryStore());
storeContract('redis', async () => new RedisStore(redis.client(), `t${Math.random().toString(36).slice(2, 8)}:`));
platformContract('memory', async () => new MemoryPlatform());
platformContract('redis', async () => new RedisPlatform(redis.client(), `p${Math.random().toString(36).slice(2, 8)}:`));

describe('redis: agents registered before names were one namespace', () => {
  it('are found, kept and guarded in any letter case: the names hash is indexed again by the lower-cased name', async () => {
    const prefix = `old${Math.random().toString(36).slice(2, 8)}:`;
    // As an older server wrote them: the name hash's field is the name as given.
    await redis.client().hset(`${prefix}agents:names`, 'Edax-Bridge', 'hash-1');
    await redis.client().hset(`${prefix}agents`, 'hash-1', JSON.stringify({ name: 'Edax-Bridge', createdAt: 5 }));
    const store = new RedisStore(redis.client(), prefix);
    await store.migrate();
    expect(await store.agentNamed('edax-bridge')).toEqual({ name: 'Edax-Bridge', createdAt: 5 });
    expect(await store.putAgent('hash-2', { name: 'EDAX-BRIDGE', createdAt: 6 })).toBe(false);
    expect(await store.replaceAgentToken('Edax-Bridge', 'hash-3')).toBe(true);
    expect(await store.getAgent('hash-3')).toEqual({ name: 'Edax-Bridge', createdAt: 5 });
    expect(await store.deleteAgent('edax-BRIDGE')).toBe(true);
    expect(await store.agentNamed('Edax-Bridge')).toBeUndefined();
  });
});

describe('redis: a move written to a game an older server stored', () => {
  it('appends after the moves its list holds, though its hash does not count them yet, and counts them from then on', async () => {
    const prefix = `plies${Math.random().toString(36).slice(2, 8)}:`;
    const store = new RedisStore(redis.client(), prefix);
    const game = sampleGame({ status: 'live', moves: ['f5', 'd6'], moveMs: [5, 6] });
    await store.create(game);
    await redis.client().hdel(`${prefix}game:{${game.id}}`, 'plies'); // as an older server wrote it
    expect(await store.update({ ...game, version: 2, moves: ['f5', 'd6', 'c3'], moveMs: [5, 6, 7] })).toBe(true);
    expect(await redis.client().hget(`${prefix}game:{${game.id}}`, 'plies')).toBe('3');
    expect(await store.update({ ...game, version: 3, moves: ['f5', 'd6', 'c3', 'd3'], moveMs: [5, 6, 7, 8] })).toBe(true);
    expect((await store.get(game.id))?.moves).toEqual(['f5', 'd6', 'c3', 'd3']);
  });
});

describe('redis: a finished game keeps its document deflated', () => {
  it('writes a live game as JSON and a finished one in a third of the bytes, and reads both, and a finished game an older server stored as JSON', async () => {
    const prefix = `doc${Math.random().toString(36).slice(2, 8)}:`;
    const store = new RedisStore(redis.client(), prefix);
    const live = sampleGame({ status: 'live', moves: ['f5'], moveMs: [5] });
    await store.create(live);
    const liveDoc = (await redis.client().hget(`${prefix}game:{${live.id}}`, 'doc'))!;
    expect(JSON.parse(liveDoc).status).toBe('live');
    const finished = { ...live, version: 2, status: 'finished' as const, result: { winner: 'black' as const, reason: 'resignation' as const } };
    expect(await store.update(finished)).toBe(true);
    const finishedDoc = (await redis.client().hget(`${prefix}game:{${live.id}}`, 'doc'))!;
    expect(finishedDoc.length).toBeLessThan(liveDoc.length / 2);
    expect(await store.get(live.id)).toEqual(finished);
    expect((await store.summaries('finished', 10)).map((g) => g.result)).toEqual([finished.result]);
    await redis.client().hset(`${prefix}game:{${live.id}}`, 'doc', JSON.stringify({ ...JSON.parse(liveDoc), status: 'finished', result: finished.result }));
    expect((await store.get(live.id))?.result).toEqual(finished.result);
  });
});

describe('redis: the key layout of an older server', () => {
  it('is renamed once at start-up to the layout with hash tags, and read back whole', async () => {
    const prefix = `layout${Math.random().toString(36).slice(2, 8)}:`;
    const older = redis.client();
    const game = sampleGame({ status: 'live', moves: ['f5', 'd6'], moveMs: [5, 6] });
    const { moves: _m, moveMs: _t, version: _v, ...doc } = game;
    // As the first layout wrote them: nothing in braces.
    await older.hset(`${prefix}game:${game.id}`, 'doc', JSON.stringify(doc), 'version', '1', 'plies', '2', 'lobby', 'live g:othello');
    await older.rpush(`${prefix}game:${game.id}:moves`, 'f5 5', 'd6 6');
    await older.zadd(`${prefix}games:live`, game.updatedAt, game.id);
    await older.zadd(`${prefix}lobby:live`, game.createdAt, game.id);
    await older.hset(`${prefix}rating:othello:person:ada`, 'version', '1', 'doc', JSON.stringify({ game: 'othello', kind: 'person', name: 'ada', rating: 1600, rd: 200, vol: 0.06, games: 1, wins: 1, draws: 0, losses: 0, version: 1, updatedAt: 1 }));
    await older.zadd(`${prefix}ratings:othello`, 1600, 'person:ada');
    await older.lpush(`${prefix}history:person:ada`, 'g-old');
    await older.sadd(`${prefix}agent-games:edax`, game.id);
    const store = new RedisStore(redis.client(), prefix);
    expect(await store.migrate()).toBe(8);
    expect(await store.migrate()).toBe(0); // marked: not scanned again
    expect(await store.get(game.id)).toEqual(game);
    expect((await store.summaries('live', 10)).map((g) => g.id)).toEqual([game.id]);
    expect((await store.lobby('live', { limit: 10, sort: 'newest' } as never)).games.map((g) => g.id)).toEqual([game.id]);
    expect((await store.leaderboard('othello', 10)).map((r) => r.rating)).toEqual([1600]);
    expect(await store.recentGames({ kind: 'person', name: 'ada' }, 10)).toEqual(['g-old']);
    expect(await store.indexed('agent-games', 'edax')).toEqual([game.id]);
    expect(await older.keys(`${prefix}game:${game.id}*`)).toEqual([]);
  });
});

describe('redis: a game end a process left half applied', () => {
  const ada = { kind: 'person' as const, name: 'ada' };
  const bot = { kind: 'bot' as const, name: 'engine-1' };

  it('is applied by the sweep, each player once, however often it is taken up', async () => {
    const prefix = `ends${Math.random().toString(36).slice(2, 8)}:`;
    const store = new RedisStore(redis.client(), prefix);
    const game = sampleGame({ status: 'live', rated: true, moves: ['f5', 'd6'], moveMs: [5, 6] });
    await store.create(game);
    const [a0, b0] = await store.ratings('othello', [ada, bot]);
    const end = { ratings: [{ ...a0!, rating: 1600, games: 1, version: 1 }, { ...b0!, rating: 1400, games: 1, version: 1 }], players: [ada, bot] };
    expect(await store.update({ ...game, version: 2, status: 'finished' }, end)).toBe(true);
    // As if the writer had died after the game's write and the first player's part: the end is still on the game, pending.
    await redis.client().hset(`${prefix}game:{${game.id}}`, 'end', JSON.stringify(end));
    await redis.client().zadd(`${prefix}{idx}:ends:pending`, 1, game.id);
    expect(await store.applyPendingEnds()).toBe(1);
    expect(await store.applyPendingEnds()).toBe(0);
    expect(await store.ratings('othello', [ada, bot])).toMatchObject([{ rating: 1600, games: 1, version: 1 }, { rating: 1400, games: 1, version: 1 }]);
    expect(await store.recentGames(ada, 10)).toEqual([game.id]);
    expect(await store.recentGames(bot, 10)).toEqual([game.id]);
  });

  it('rates a player again from the record as it is now when another game of theirs ended between', async () => {
    const prefix = `race${Math.random().toString(36).slice(2, 8)}:`;
    const store = new RedisStore(redis.client(), prefix);
    const first = sampleGame({ status: 'live', rated: true });
    const second = sampleGame({ status: 'live', rated: true });
    await store.create(first);
    await store.create(second);
    const [a0, b0] = await store.ratings('othello', [ada, bot]);
    const rated = (r: typeof a0, rating: number) => ({ ...r!, rating, games: r!.games + 1, version: r!.version + 1 });
    // Both ends computed from the same records; the second game's end is written but left pending.
    const secondEnd = { ratings: [rated(a0, 1650), rated(b0, 1350)], players: [ada, bot], rated: { black: a0!, white: b0!, winner: 'black' as const } };
    await redis.client().hset(`${prefix}game:{${second.id}}`, 'end', JSON.stringify(secondEnd));
    await redis.client().zadd(`${prefix}{idx}:ends:pending`, 1, second.id);
    expect(await store.update({ ...first, version: 2, status: 'finished' }, { ratings: [rated(a0, 1600), rated(b0, 1400)], players: [ada, bot] })).toBe(true);
    expect(await store.applyPendingEnds()).toBe(1);
    const [a2, b2] = await store.ratings('othello', [ada, bot]);
    expect(a2).toMatchObject({ games: 2, version: 2 });
    expect(b2).toMatchObject({ games: 2, version: 2 });
    expect(a2!.rating).toBeGreaterThan(1600);
    expect(await store.recentGames(ada, 10)).toEqual([second.id, first.id]);
  });
});

describe('redis: a game\'s end while the indexes\' master does not answer (it fails over)', () => {
  const ada = { kind: 'person' as const, name: 'ada' };
  const bot = { kind: 'bot' as const, name: 'engine-1' };

  /** A store whose commands on \`{idx}\` keys are never answered while \`down\` is set, as a master failing over. */
  function storeWithIndexesDown(prefix: string): { store: RedisStore; down: { on: boolean } } {
    const client = redis.client().duplicate();
    const store = new RedisStore(client, prefix);
    const down = { on: true };
    const commands = client as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    for (const name of ['boardroomIndexAdd', 'boardroomIndexDrop', 'zadd', 'zrem']) {
      const real = commands[name]!.bind(client);
      commands[name] = (...args) => (down.on && args.some((a) => String(a).includes('{idx}')) ? new Promise(() => undefined) : real(...args));
    }
    return { store, down };
  }

  it('is answered without the indexes, and the sweep lists the game again from the game: finished, not live, rated once', async () => {
    const prefix = `idx${Math.random().toString(36).slice(2, 8)}:`;
    const { store, down } = storeWithIndexesDown(prefix);
    const game = sampleGame({ status: 'live', rated: true, moves: ['f5', 'd6'], moveMs: [5, 6] });
    down.on = false;
    await store.create(game);
    down.on = true;
    const [a0, b0] = await store.ratings('othello', [ada, bot]);
    const end = { ratings: [{ ...a0!, rating: 1600, games: 1, version: 1 }, { ...b0!, rating: 1400, games: 1, version: 1 }], players: [ada, bot] };
    const asked = Date.now();
    expect(await store.update({ ...game, version: 2, status: 'finished' }, end)).toBe(true);
    expect(Date.now() - asked).toBeLessThan(2000);
    const ids = (status: string) => redis.client().zrange(`${prefix}{idx}:games:${status}`, 0, -1);
    expect([await ids('live'), await ids('finished')]).toEqual([[game.id], []]);
    expect(await store.ratings('othello', [ada, bot])).toMatchObject([{ rating: 1600, games: 1 }, { rating: 1400, games: 1 }]);

    down.on = false;
    expect(await store.repairListings()).toBe(1);
    expect([await ids('live'), await ids('finished')]).toEqual([[], [game.id]]);
    expect(await redis.client().zrange(`${prefix}{idx}:lobby:finished`, 0, -1)).toEqual([game.id]);
    expect(await store.repairListings()).toBe(0);
    expect(await store.ratings('othello', [ada, bot])).toMatchObject([{ rating: 1600, games: 1 }, { rating: 1400, games: 1 }]);
  });

  it('left owed by a process that died: another, told the cluster lost a node, finds the game by its stale entry, lists it finished and its end pending', async () => {
    const prefix = `idxdead${Math.random().toString(36).slice(2, 8)}:`;
    const { store: dying, down } = storeWithIndexesDown(prefix);
    const game = sampleGame({ status: 'live', rated: true, moves: ['f5', 'd6'], moveMs: [5, 6] });
    down.on = false;
    await dying.create(game);
    down.on = true;
    // The end written with the game, and the process gone before applying it to the players.
    const [a0, b0] = await dying.ratings('othello', [ada, bot]);
    const end = { ratings: [{ ...a0!, rating: 1600, games: 1, version: 1 }, { ...b0!, rating: 1400, games: 1, version: 1 }], players: [ada, bot] };
    const players = (dying as unknown as { ends: { apply: () => Promise<void> } }).ends;
    players.apply = () => new Promise(() => undefined);
    expect(await dying.update({ ...game, version: 2, status: 'finished' }, end)).toBe(true);

    const other = new RedisStore(redis.client(), prefix);
    expect(await other.repairListings()).toBe(0);
    other.doubtListings();
    expect(await other.repairListings()).toBe(1);
    expect(await redis.client().zrange(`${prefix}{idx}:games:finished`, 0, -1)).toEqual([game.id]);
    expect(await redis.client().zrange(`${prefix}{idx}:ends:pending`, 0, -1)).toEqual([game.id]);
    await redis.client().zadd(`${prefix}{idx}:ends:pending`, 1, game.id); // past the writer's grace
    expect(await other.applyPendingEnds()).toBe(1);
    expect(await other.ratings('othello', [ada, bot])).toMatchObject([{ rating: 1600, games: 1 }, { rating: 1400, games: 1 }]);
    expect(await other.recentGames(ada, 10)).toEqual([game.id]);
  });
});

describe('redis: the summaries of more live games than one read takes', () => {
  it('are read batch after batch, all of them newest first, and a spare index entry is left out', async () => {
    const prefix = `many${Math.random().toString(36).slice(2, 8)}:`;
    const store = new RedisStore(redis.client(), prefix);
    const games = Array.from({ length: 1234 }, (_, i) => sampleGame({ status: 'live', updatedAt: 1000 + i }));
    await Promise.all(games.map((g) => store.create(g)));
    await redis.client().zadd(`${prefix}{idx}:games:live`, 5000, 'no-such-game'); // as a writer that died between the index and the game leaves it
    const newestFirst = games.map((g) => g.id).reverse();
    expect((await store.summaries('live', 5000)).map((g) => g.id)).toEqual(newestFirst);
    expect((await store.summaries('live', 700)).map((g) => g.id)).toEqual(newestFirst.slice(0, 699));
  });
});
