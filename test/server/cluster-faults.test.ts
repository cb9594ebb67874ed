import { execFileSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import type { Boardroom } from '../../server/app.js';
import { seatIdentity, toMove } from '../../server/games/game.js';
import { freshRecord, identityKey, rateGame, type Identity, type RatingRecord } from '../../server/ratings/rating.js';
import { RedisKeys } from '../../server/store/redis-keys.js';
import { RedisStore } from '../../server/store/redis-store.js';
import type { StoredGame } from '../../server/store/store.js';
import { seededRandom } from '../../shared/random.js';
import { lostMoves, RandomPlayers, type Acked, type Seat } from '../support/random-players.js';
import { startRedisCluster, type ClusterNode, type TestRedisCluster } from '../support/redis-cluster.js';
import { Client, expectOk, startBotWorker, startServer } from '../support/server.js';

// Faults of a Redis Cluster under live games: a master killed (its replica takes its slots), with
// and without the wait for a replica before a move is acknowledged.
const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Rig {
  readonly cluster: TestRedisCluster;
  readonly web: Boardroom[];
  readonly keys: RedisKeys;
  readonly store: RedisStore;
  readonly players: RandomPlayers;
}

/** A cluster with a short node timeout that serves the slots it can while one has no master, two web processes and `workers` bot workers on it. */
async function rig(prefix: string, env: Record<string, string>, workers: number, seed: number, paceMs?: [number, number], patienceMs?: number): Promise<Rig> {
  const cluster = await startRedisCluster({ nodeTimeoutMs: 1500, requireFullCoverage: false });
  cleanups.push(() => cluster.stop());
  const seeds = cluster.seeds.join(',');
  const settings = { REDIS_CLUSTER: seeds, REDIS_PREFIX: prefix, RECONNECT_GRACE_MS: '60000', LOGIN_LIMIT: '2000', ...env };
  const web = [await startServer(settings), await startServer(settings)];
  cleanups.push(async () => {
    for (const server of web) await server.close();
  });
  for (let i = 0; i < workers; i++) {
    const worker = startBotWorker(seeds, prefix);
    cleanups.push(() => worker.close());
  }
  const players = new RandomPlayers(web.map((w) => w.url), seededRandom(seed), paceMs, patienceMs);
  cleanups.push(() => players.closeAll());
  return { cluster, web, keys: new RedisKeys(`${prefix}:`), store: new RedisStore(cluster.client(), `${prefix}:`), players };
}

let names = 0;
async function signUp(server: Boardroom): Promise<{ name: string; cookie: string }> {
  const name = `p${++names}${Math.random().toString(36).slice(2, 6)}`;
  const res = await fetch(`${server.url}/api/account/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, password: 'a good password' }) });
  expect(res.status).toBe(201);
  return { name, cookie: res.headers.get('set-cookie')!.split(';')[0]! };
}

type Game = 'othello' | 'gomoku' | 'minichess';
type Created = { gameId: string; seat: Seat };
const NO_CLOCK = { kind: 'none' };
/** A clock no game here runs out of: each move arms its game's flag. */
const LONG_CLOCK = { kind: 'bank', initialMs: 3_600_000, incrementMs: 0 };

/**
 * A game between two people, each on their own web process, played at random to its end (or
 * resigned after `resignAfter` moves each); rated between accounts when `rated`.
 */
type Account = { name: string; cookie: string };
async function peopleGame(rig: Rig, game: Game, rated: boolean, first: number, resignAfter?: number, accounts?: [Account, Account], timeControl: object = NO_CLOCK): Promise<{ gameId: string; play: () => Promise<unknown> }> {
  const [ann, bob] = accounts ?? (rated ? [await signUp(rig.web[first % 2]!), await signUp(rig.web[(first + 1) % 2]!)] : [undefined, undefined]);
  const host = await rig.players.connect(first, ann?.cookie);
  const guest = await rig.players.connect(first + 1, bob?.cookie);
  const created = expectOk(await host.ask<Created>('room:create', { game, rated, timeControl, seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: 'Ann', color: 'random' } }));
  const joined = expectOk(await guest.ask<{ seat: Seat }>('room:join', { gameId: created.gameId, name: 'Bob' }));
  const gameId = created.gameId;
  return {
    gameId,
    play: () =>
      Promise.all([
        rig.players.play({ ...created.seat, gameId }, { client: host, server: first, cookie: ann?.cookie, resignAfter }),
        rig.players.play({ ...joined.seat, gameId }, { client: guest, server: first + 1, cookie: bob?.cookie, resignAfter }),
      ]),
  };
}

/** A person against a roster bot, which the bot workers play. */
async function botGame(rig: Rig, game: Game, bot: string, rated: boolean, first: number, resignAfter?: number, player?: Account): Promise<{ gameId: string; play: () => Promise<unknown> }> {
  const account = player ?? (rated ? await signUp(rig.web[first % 2]!) : undefined);
  const host = await rig.players.connect(first, account?.cookie);
  const color = first % 2 === 0 ? 'black' : 'white';
  const seats = { [color]: { kind: 'human' }, [color === 'black' ? 'white' : 'black']: { kind: 'bot', bot } };
  const created = expectOk(await host.ask<Created>('room:create', { game, rated, timeControl: NO_CLOCK, seats, sit: { name: 'Ann', color } }));
  return { gameId: created.gameId, play: () => rig.players.play({ ...created.seat, gameId: created.gameId }, { client: host, server: first, cookie: account?.cookie, resignAfter }) };
}

/** Two roster bots against each other: no person plays it, so it is watched to its end. */
async function botsGame(rig: Rig, game: Game, black: string, white: string, rated: boolean): Promise<{ gameId: string; play: () => Promise<unknown> }> {
  const host = await rig.players.connect(0);
  const created = expectOk(await host.ask<{ gameId: string }>('room:create', { game, rated, timeControl: NO_CLOCK, seats: { black: { kind: 'bot', bot: black }, white: { kind: 'bot', bot: white } } }));
  host.close();
  return {
    gameId: created.gameId,
    play: async () => {
      while (Date.now() < rig.players.deadline && (await rig.store.get(created.gameId))?.status !== 'finished') await sleep(250);
    },
  };
}

/** Every game as stored, by id. */
async function storedGames(rig: Rig, ids: readonly string[]): Promise<Map<string, StoredGame>> {
  const games = new Map<string, StoredGame>();
  for (const id of ids) {
    const game = await rig.store.get(id);
    if (game) games.set(id, game);
  }
  return games;
}

/** Until no game's end waits to be applied to its players: the sweep, as the servers run it, is run here too. */
async function untilEndsApplied(rig: Rig, timeoutMs = 30_000): Promise<void> {
  const client = rig.cluster.client();
  const until = Date.now() + timeoutMs;
  while ((await client.zcard(rig.keys.pendingEnds())) > 0) {
    if (Date.now() > until) throw new Error(`ends still pending after ${timeoutMs} ms: ${(await client.zrange(rig.keys.pendingEnds(), 0, -1)).join(' ')}`);
    await rig.store.applyPendingEnds();
    await sleep(250);
  }
}

/**
 * The games not listed in exactly their status's set, waited on until there are none (or the
 * timeout): the servers' sweeps list again the games whose index writes a failover left undone.
 */
async function misListed(rig: Rig, games: ReadonlyMap<string, StoredGame>, timeoutMs = 20_000): Promise<string[]> {
  const client = rig.cluster.client();
  const until = Date.now() + timeoutMs;
  for (;;) {
    const wrong: string[] = [];
    for (const [id, game] of games) {
      const listed: string[] = [];
      for (const status of ['waiting', 'live', 'finished'] as const) if ((await client.zscore(rig.keys.status(status), id)) !== null) listed.push(status);
      if (listed.join() !== game.status) wrong.push(`${id} (${game.status}) listed ${listed.join(', ') || 'nowhere'}`);
    }
    if (wrong.length === 0 || Date.now() > until) return wrong;
    await sleep(500);
  }
}

/** The rated games a player's record must hold: finished, rated, two identities, at least two moves. */
function ratedPlayers(game: StoredGame): [Identity, Identity] | undefined {
  const black = seatIdentity(game.seats.black);
  const white = seatIdentity(game.seats.white);
  if (!game.rated || game.status !== 'finished' || !game.result || game.moves.length < 2 || !black || !white) return undefined;
  if (['declined', 'aborted'].includes(game.result.reason)) return undefined;
  return [black, white];
}

/**
 * Each rated finished game is in each of its players' applied games and history exactly once, and
 * each player's record counts exactly its rated games. Returns what it found wrong.
 */
async function ratingsOnce(rig: Rig, games: ReadonlyMap<string, StoredGame>): Promise<string[]> {
  const client = rig.cluster.client();
  const wrong: string[] = [];
  const expected = new Map<string, { identity: Identity; game: StoredGame['game']; ids: string[] }>();
  for (const game of games.values()) {
    for (const identity of ratedPlayers(game) ?? []) {
      const key = `${game.game}/${identityKey(identity)}`;
      const entry = expected.get(key) ?? { identity, game: game.game, ids: [] };
      entry.ids.push(game.id);
      expected.set(key, entry);
    }
  }
  for (const [key, { identity, game, ids }] of expected) {
    const [record] = await rig.store.ratings(game, [identity]);
    const history = await client.lrange(rig.keys.history(identity), 0, -1);
    if (record!.games !== ids.length) {
      const extra = history.filter((h) => !ids.includes(h)).map((h) => {
        const g = games.get(h);
        return g ? `${h} (${g.status}, ${g.result?.reason ?? 'no result'}, ${g.moves.length} moves, rated ${g.rated})` : `${h} (not in this run)`;
      });
      wrong.push(`${key}: its record counts ${record!.games} games, ${ids.length} were rated; its history also holds ${extra.join(', ') || 'nothing else'}`);
    }
    const applied = new Set(await client.zrange(rig.keys.applied(identity), 0, -1));
    for (const id of ids) {
      const times = history.filter((h) => h === id).length;
      if (times !== 1 || !applied.has(id)) wrong.push(`${key}: game ${id} is ${times} times in its history, ${applied.has(id) ? '' : 'not '}among its applied games`);
    }
  }
  return wrong;
}

interface FailoverRun {
  readonly acked: Acked[];
  readonly lost: Acked[];
  readonly killedAt: number;
  readonly promotedAt: number;
  readonly onVictim: Set<string>;
  readonly games: Map<string, StoredGame>;
  readonly peopleGames: Set<string>;
  readonly ratingErrors: string[];
  readonly refused: Map<string, number>;
  readonly refusals: RandomPlayers['refusals'];
  readonly unheard: RandomPlayers['unheard'];
  readonly rig: Rig;
}

/**
 * 50 live games (40 between people, 10 against a bot), one master SIGKILLed in their middle; its
 * replica takes its slots. With `starve`, the replica is first cut off: it is stopped (SIGSTOP)
 * and the master drops its replication link (CLIENT KILL TYPE replica), so what the master
 * acknowledges next never reaches it; the master is killed `starveMs` later and the replica let go.
 */
async function failoverRun(name: string, options: { waitReplica: '0' | '1'; games: number; rated: boolean; starveMs?: number; playOnMs: number; patienceMs?: number }): Promise<FailoverRun> {
  const prefix = `fo-${name}`;
  const r = await rig(prefix, { CLUSTER_WAIT_REPLICA: options.waitReplica, CLUSTER_WAIT_MS: '2000' }, 1, name.length, [30, 80], options.patienceMs);
  const made: { gameId: string; play: () => Promise<unknown> }[] = [];
  for (let i = 0; i < options.games; i++) {
    const game: Game = i % 3 === 2 ? 'minichess' : 'othello';
    made.push(i % 5 === 4 ? await botGame(r, game, 'engine-1', options.rated, i) : await peopleGame(r, game, options.rated, i, undefined, undefined, i % 2 === 0 ? LONG_CLOCK : NO_CLOCK));
  }
  const peopleGames = new Set(made.filter((_, i) => i % 5 !== 4).map((g) => g.gameId));
  const plays = made.map((g) => g.play());
  await sleep(1500);

  // The master to kill: the one holding the indexes' slot, which every game's end writes, as well
  // as games of its own.
  const masterOfGame = new Map<string, number>();
  for (const { gameId } of made) masterOfGame.set(gameId, (await r.cluster.masterOf(r.keys.game(gameId))).port);
  const victim: ClusterNode = await r.cluster.masterOf(r.keys.pendingEnds());
  expect([...masterOfGame.values()]).toContain(victim.port);
  const onVictim = new Set([...masterOfGame].filter(([, port]) => port === victim.port).map(([id]) => id));
  const replica = await r.cluster.replicaOf(victim);

  if (options.starveMs !== undefined) {
    replica.pause();
    const direct = new Redis(victim.port, '127.0.0.1');
    await direct.client('KILL', 'TYPE', 'replica');
    direct.disconnect();
    await sleep(options.starveMs);
  }
  const killedAt = Date.now();
  await victim.kill();
  replica.resume();
  let promotedAt = 0;
  while (!promotedAt) {
    if ((await replica.role().catch(() => 'replica')) === 'master') promotedAt = Date.now();
    else if (Date.now() - killedAt > 30_000) throw new Error('the replica was not promoted in 30 s');
    else await sleep(50);
  }
  r.players.deadline = promotedAt + options.playOnMs;
  await Promise.all(plays);
  await r.cluster.untilOk();
  if (options.rated) await untilEndsApplied(r);
  const games = await storedGames(r, made.map((g) => g.gameId));
  const lost = lostMoves(r.players.acked, new Map([...games].map(([id, g]) => [id, g.moves])));
  const ratingErrors = options.rated ? await ratingsOnce(r, games) : [];
  const acked = r.players.acked;
  console.log(
    `[failover ${name}] ${acked.length} moves acknowledged (${acked.filter((a) => a.at <= killedAt).length} before the kill, ${acked.filter((a) => a.at > promotedAt).length} after the promotion, ${promotedAt - killedAt} ms later); ${onVictim.size} of ${made.length} games on the killed master; ${lost.length} lost; ${[...games.values()].filter((g) => g.status === 'finished').length} finished; refusals ${JSON.stringify(Object.fromEntries(r.players.refused))}`,
  );
  return { acked, lost, killedAt, promotedAt, onVictim, games, peopleGames, ratingErrors, refused: r.players.refused, refusals: r.players.refusals, unheard: r.players.unheard, rig: r };
}

/** The longest time between two acknowledged moves of a game spanning [from, to]: its pause. */
function longestPause(acked: readonly Acked[], gameId: string, from: number, to: number): number {
  const times = acked.filter((a) => a.gameId === gameId).map((a) => a.at).sort((a, b) => a - b);
  let longest = 0;
  for (let i = 1; i < times.length; i++) if (times[i]! > from && times[i - 1]! < to) longest = Math.max(longest, times[i]! - times[i - 1]!);
  return longest;
}

describe('a master SIGKILLed during 50 live games on the cluster', () => {
  it('loses no acknowledged move; games on the other masters keep moving, those on its slots resume after the promotion; no rating is applied twice', async () => {
    const run = await failoverRun('kill', { waitReplica: '1', games: 50, rated: true, playOnMs: 15_000, patienceMs: 12_000 });
    const { acked, killedAt, promotedAt } = run;
    expect(acked.filter((a) => a.at <= killedAt).length).toBeGreaterThan(100);
    expect(run.onVictim.size).toBeGreaterThan(0);
    expect(run.lost).toEqual([]);

    // Games on the other masters, played by people: the moves sent between the kill and the
    // promotion are answered within a second. Nothing a move waits on is on the killed master, which
    // holds the indexes: not the bot's queue (asked after the answer), not a rated game's players
    // (read from a replica, applied after the answer), not the indexes a game's start and end write
    // (waited on 250 ms at most, the game relisted by the sweep), not a clocked game's flag (in the
    // timers' part of the game's own master), not the owner's quota nor the timers at a game's end
    // (let go after it). One in fifty may be
    // late for the CPU, which other test files share. The time between two moves of such a game
    // is longer when the move relay's channel for it was on the killed master (printed).
    // A player waits 12 s before reading its game again, so a move or end its process missed while
    // its subscriptions were down shows here: each process sends its games' state once they are
    // renewed.
    const elsewhere = [...run.peopleGames].filter((id) => !run.onVictim.has(id) && acked.some((a) => a.gameId === id && a.at > killedAt && a.asked < promotedAt));
    expect(elsewhere.length).toBeGreaterThan(0);
    const during = acked.filter((a) => elsewhere.includes(a.gameId) && a.asked >= killedAt && a.asked <= promotedAt);
    const slow = during.filter((a) => a.at - a.asked > 1000);
    const pauses = elsewhere.map((id) => longestPause(acked, id, killedAt, promotedAt)).sort((a, b) => a - b);
    console.log(`[failover kill] ${during.length} moves of ${elsewhere.length} games on the other masters sent during the failover, ${slow.length} answered after more than a second (${slow.map((a) => `${a.at - a.asked} ms${a.ply === run.games.get(a.gameId)!.moves.length - 1 ? ', the last move' : ''}`).join('; ')}); longest time between two moves of such a game: median ${pauses[pauses.length >> 1]} ms, most ${pauses.at(-1)} ms`);
    expect(during.length).toBeGreaterThan(20);
    expect(slow.length).toBeLessThanOrEqual(Math.ceil(during.length / 50));
    // Never paused: each move reaches the other process on a second relay channel of another
    // master (most 844–1,228 ms between two moves here, with the indexes' master killed; up to about 4 s when each game had one channel).
    expect(pauses.at(-1)!).toBeLessThan(2500);
    // Printed, not held: in one run of several, before moves went on two relay channels, a player
    // of a game on another master heard nothing for 12 s from 2 s after the promotion.
    const unheard = run.unheard.map((u) => ({ ...u, sinceKill: u.at - killedAt, sincePromotion: u.at - promotedAt, onKilledMaster: run.onVictim.has(u.gameId), status: run.games.get(u.gameId)?.status }));
    const odd = run.refusals.filter((f) => !['move/not_your_turn', 'move/stale_ply'].includes(f.code)).map((f) => ({ ...f, sinceKill: f.asked - killedAt, answeredMs: f.at - f.asked }));
    console.log(`[failover kill] refusals other than a move sent on a turn that had passed: ${JSON.stringify(odd)}`);
    console.log(`[failover kill] players who learned of a move or end only by reading their game again after 12 s: ${JSON.stringify(unheard)}`);

    // Games on the killed master's slots that were live at the kill move again within 5 s of the
    // promotion: a wait for a replica the dead master cannot answer fails in bounded time, and the
    // promoted master, with no replica yet, is not waited on.
    // A game that ended before the promotion (its last move answered as the master died) waits for nothing;
    // one that ends after it by a resignation moves on without a move.
    const endedAt = (id: string): number => (run.games.get(id)!.status === 'finished' ? run.games.get(id)!.updatedAt : Infinity);
    const stalled = [...run.onVictim].filter((id) => endedAt(id) > promotedAt);
    expect(stalled.length).toBeGreaterThan(0);
    const resumedMs = stalled.map((id) => Math.min(acked.find((a) => a.gameId === id && a.at > promotedAt)?.at ?? Infinity, endedAt(id)) - promotedAt);
    console.log(`[failover kill] games on the killed master's slots moved again ${[...resumedMs].sort((a, b) => a - b).join(', ')} ms after the promotion`);
    for (const [i, id] of stalled.entries()) if (resumedMs[i]! >= 5000) console.log(`[failover kill] game ${id} still stalled: ${run.games.get(id)!.status} at ply ${run.games.get(id)!.moves.length}, a ${run.games.get(id)!.seats[toMove(run.games.get(id)!)].kind} to move, last acked move ${(acked.filter((a) => a.gameId === id).at(-1)?.at ?? 0) - promotedAt} ms after the promotion`);
    expect(resumedMs.filter((ms) => ms >= 5000)).toEqual([]);

    expect([...run.games.values()].filter((g) => ratedPlayers(g)).length).toBeGreaterThan(10);
    expect(run.ratingErrors).toEqual([]);
    // The ends and starts the indexes' master did not take in time are listed as they are.
    expect(await misListed(run.rig, run.games)).toEqual([]);
  }, 180_000);
});

describe('a master SIGKILLed after acknowledging writes its replica never received', () => {
  // The replica is cut off 400 ms before its master is killed: with the wait, the moves of those
  // 400 ms wait for it and are never acknowledged (CLUSTER_WAIT_MS is longer); without it they
  // are acknowledged, and lost with the master.
  it('loses acknowledged moves without the wait for a replica, and none with it', async () => {
    const without = await failoverRun('nowait', { waitReplica: '0', games: 24, rated: false, starveMs: 400, playOnMs: 3000 });
    for (const clean of cleanups.splice(0).reverse()) await clean();
    const withWait = await failoverRun('wait', { waitReplica: '1', games: 24, rated: false, starveMs: 400, playOnMs: 3000 });
    expect(without.lost.length).toBeGreaterThan(0);
    for (const lost of without.lost) expect(lost.at).toBeGreaterThan(without.killedAt - 400 - 100);
    expect(withWait.acked.filter((a) => a.at <= withWait.killedAt).length).toBeGreaterThan(50);
    expect(withWait.lost.map((a) => ({ ...a, sinceKill: a.at - withWait.killedAt }))).toEqual([]);
  }, 180_000);
});

/**
 * Every identity's ratings recomputed from the finished games alone, with the server's Glicko-2
 * (one game, one rating period). The order an identity's games were rated in is its history's
 * (oldest first): two games of a bot may end in the same millisecond on two processes, and the
 * server rates the later one against the record the earlier one left, so the end times alone do
 * not give the order. Each game is rated against its opponent's record as read at its end, which
 * is the version of the opponent's recomputed records whose rating the game's result banner shows
 * as the opponent's `before` (a rating the opponent's other games may since have changed).
 */
function recount(games: ReadonlyMap<string, StoredGame>, histories: ReadonlyMap<string, readonly string[]>): Map<string, RatingRecord> {
  const chains = new Map<string, RatingRecord[]>();
  const queues = new Map<string, StoredGame[]>();
  const chainOf = (game: StoredGame['game'], identity: Identity): RatingRecord[] => {
    const key = `${game}/${identityKey(identity)}`;
    if (!chains.has(key)) chains.set(key, [freshRecord(game, identity)]);
    return chains.get(key)!;
  };
  for (const [who, history] of histories) {
    for (const id of [...history].reverse()) {
      const game = games.get(id);
      const players = game && ratedPlayers(game);
      if (!players) continue;
      const key = `${game.game}/${who}`;
      chainOf(game.game, identityKey(players[0]) === who ? players[0] : players[1]);
      queues.set(key, [...(queues.get(key) ?? []), game]);
    }
  }
  for (let progress = true; progress; ) {
    progress = false;
    for (const [key, queue] of queues) {
      const game = queue[0];
      if (!game) continue;
      const [black, white] = ratedPlayers(game)!;
      const color = `${game.game}/${identityKey(black)}` === key ? 'black' : 'white';
      const opponent = chainOf(game.game, color === 'black' ? white : black);
      const before = game.ratingChange![color === 'black' ? 'white' : 'black'].before;
      const snapshot = opponent.find((record) => record.rating === before);
      if (!snapshot) continue;
      const mine = chains.get(key)!;
      const rated = color === 'black' ? rateGame(mine.at(-1)!, snapshot, game.result!.winner, 0).black : rateGame(snapshot, mine.at(-1)!, game.result!.winner, 0).white;
      mine.push(rated);
      queue.shift();
      progress = true;
    }
  }
  const stuck = [...queues].filter(([, queue]) => queue.length > 0).map(([key, queue]) => `${key} at ${queue[0]!.id}`);
  if (stuck.length > 0) throw new Error(`the recount found no opponent record for: ${stuck.join(', ')}`);
  return new Map([...chains].map(([key, chain]) => [key, chain.at(-1)!]));
}

describe('200 rated games on the cluster', () => {
  it('people, bots and both, across two web processes and two bot workers: no acknowledged move lost, every rating applied once, as a recount from the games finds them', async () => {
    const r = await rig('count', {}, 2, 200, [5, 20]);
    const games: Game[] = ['othello', 'gomoku', 'minichess'];
    const started = Date.now();
    r.players.deadline = started + 100_000;
    const ids: string[] = [];
    const tables: Promise<unknown>[] = [];
    // 16 pairs of people play 7 games each, one at a time; 8 people play 8 games each against a
    // roster bot; 24 games are between two roster bots. Each person resigns after a few moves.
    for (let t = 0; t < 16; t++) {
      const pair: [Account, Account] = [await signUp(r.web[t % 2]!), await signUp(r.web[(t + 1) % 2]!)];
      tables.push((async () => {
        for (let g = 0; g < 7; g++) {
          const made = await peopleGame(r, games[(t + g) % 3]!, true, t + g, 2, g % 2 === 0 ? pair : [pair[1], pair[0]]);
          ids.push(made.gameId);
          await made.play();
        }
      })());
    }
    const bots = ['random', 'engine-1', 'engine-2'];
    for (let t = 0; t < 8; t++) {
      const person = await signUp(r.web[t % 2]!);
      tables.push((async () => {
        for (let g = 0; g < 8; g++) {
          const made = await botGame(r, games[(t + g) % 3]!, bots[(t * 8 + g) % 3]!, true, t + g, 3, person);
          ids.push(made.gameId);
          await made.play();
        }
      })());
    }
    for (let g = 0; g < 24; g++) {
      const [black, white] = [bots[g % 3]!, bots[(g + 1) % 3]!];
      const made = await botsGame(r, games[g % 3]!, black, white, true);
      ids.push(made.gameId);
      tables.push(made.play());
    }
    await Promise.all(tables);
    await untilEndsApplied(r);
    const stored = await storedGames(r, ids);
    console.log(`[200 games] ${ids.length} games, ${[...stored.values()].filter((g) => g.status === 'finished').length} finished, ${r.players.acked.length} moves acknowledged in ${Date.now() - started} ms`);
    expect(ids).toHaveLength(200);
    expect([...stored.values()].filter((g) => g.status !== 'finished').map((g) => g.id)).toEqual([]);
    expect(lostMoves(r.players.acked, new Map([...stored].map(([id, g]) => [id, g.moves])))).toEqual([]);
    expect(await ratingsOnce(r, stored)).toEqual([]);

    const rated = [...stored.values()].filter((g) => ratedPlayers(g));
    expect(rated.length).toBeGreaterThan(180);
    const client = r.cluster.client();
    const identities = new Map(rated.flatMap((g) => ratedPlayers(g)!).map((identity) => [identityKey(identity), identity]));
    const histories = new Map<string, string[]>();
    for (const [key, identity] of identities) histories.set(key, await client.lrange(r.keys.history(identity), 0, -1));
    // The history keeps 50 games: this test keeps every identity under that, so it holds them all.
    expect(Math.max(...[...histories.values()].map((h) => h.length))).toBeLessThan(50);
    const recounted = recount(stored, histories);
    const boards = new Map(await Promise.all(games.map(async (game) => [game, await r.store.leaderboard(game, 1000)] as const)));
    for (const [key, expected] of recounted) {
      const game = key.slice(0, key.indexOf('/')) as Game;
      const [record] = await r.store.ratings(game, [expected]);
      expect({ key, games: record!.games, wins: record!.wins, draws: record!.draws, losses: record!.losses }).toEqual({ key, games: expected.games, wins: expected.wins, draws: expected.draws, losses: expected.losses });
      expect(record!.rating, key).toBeCloseTo(expected.rating, 9);
      expect(record!.rd, key).toBeCloseTo(expected.rd, 9);
      expect(record!.vol, key).toBeCloseTo(expected.vol, 9);
      expect(boards.get(game)!.find((row) => identityKey(row) === identityKey(expected))?.rating, key).toBeCloseTo(expected.rating, 9);
    }

    const masters = new Set(await Promise.all(ids.map(async (id) => (await r.cluster.masterOf(r.keys.game(id))).port)));
    expect(masters.size).toBe(3);
    // As an operator sees it: \`redis-cli --cluster check\` finds every slot served and keys on each master.
    const check = execFileSync('redis-cli', ['--cluster', 'check', r.cluster.seeds[0]!]).toString();
    const keysPerMaster = [...check.matchAll(/-> (\d+) keys \|/g)].map((m) => Number(m[1]));
    console.log(`[200 games] redis-cli --cluster check: ${keysPerMaster.join(', ')} keys on the three masters`);
    expect(keysPerMaster).toHaveLength(3);
    for (const keys of keysPerMaster) expect(keys).toBeGreaterThan(100);
    expect(check).toContain('[OK] All 16384 slots covered.');
  }, 180_000);
});
