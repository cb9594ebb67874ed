import { Redis } from 'ioredis';
import type { Socket } from 'socket.io-client';
import { opposite, type Color } from '../../shared/color.js';
import { GAMES } from '../../shared/games.js';
import type { Ack, GameView, TimeControl } from '../../shared/protocol/index.js';
import { seededRandom } from '../../shared/random.js';
import { GAME_IDS, type GameId } from '../../shared/rules.js';
import { hashToken, newGameId } from '../../server/games/tokens.js';
import { RedisStore } from '../../server/store/redis-store.js';
import type { StoredGame, StoredSeat } from '../../server/store/store.js';
import { startRedis } from '../support/redis.js';
import { kill9, spawnBuilt } from '../support/server.js';
import { connect, percentile } from './client.js';
import { lobbyPageP99 } from './lobby-latency.js';
import { cpuPercent, processUsage } from './proc-usage.js';
import { figuresDelta, readRedisFigures, scaleFigures } from './redis-info.js';
import { seedGames, viewAfter, type MoveAck } from './seed-games.js';

/**
 * The scale case of the server bench: what a web process and Redis cost with N idle live games
 * written straight into the store, beside a few hundred games moving.
 */

export interface ScaleOptions {
  /** Idle live games written into Redis. */
  readonly games: number;
  /** Games of two players moving in open loop, made through a web process. */
  readonly moving: number;
  /** Moves a second offered over the moving games. */
  readonly movesPerSecond: number;
  /** How long the background and the moving phase are each measured. */
  readonly seconds: number;
  /** Waiting rooms in the store when the lobby's pages are timed. */
  readonly waiting: number;
  /** Games played through the server to their end, for the bytes a finished game keeps. */
  readonly finished: number;
  /** The checkout whose build runs. */
  readonly server?: string;
  /** Progress lines (seeding, phases). */
  readonly progress?: (line: string) => void;
}

/** One row of the case: the figures at one count of live games. */
export interface ScaleRow {
  readonly 'live-games': number;
  readonly 'web-cpu-%': number;
  readonly 'web-rss-MiB': number;
  readonly 'redis-commands-per-s': number;
  readonly 'redis-cpu-%': number;
  readonly 'moves-per-s': number;
  readonly 'move-ack-p99-ms': number;
  /** Commands and commandstats µs of the moving phase, less the background's over as long, per accepted move. */
  readonly 'commands-per-move': number;
  readonly 'redis-cpu-us-per-move': number;
  readonly 'bytes-per-live-game': number;
  readonly 'bytes-per-finished-game': number;
  /** Live games in the store when the measured process was killed; those it re-armed once started again, and in how long (its own `live games re-armed` log line, else until it was up). */
  readonly 'live-at-restart': number;
  readonly 're-armed': number;
  readonly 'rearm-ms': number;
  readonly 'restart-ack-p99-ms': number;
  readonly 'lobby-p99-ms': number;
}

export interface ScaleResult {
  readonly row: ScaleRow;
  /** Each command's calls per accepted move, the most frequent first. */
  readonly commandsPerMove: Record<string, number>;
  /** Where `rearm-ms` came from. */
  readonly rearmSource: 'recovered log line' | 'until up';
}

const PREFIX = 'scale';
const IDLE_BANK_MS = 3_600_000;
const IDLE_CLOCK: TimeControl = { kind: 'bank', initialMs: IDLE_BANK_MS, incrementMs: 0 };
const MOVING_CLOCK: TimeControl = { kind: 'bank', initialMs: 600_000, incrementMs: 0 };
const SEED_BATCH = 2000;
const LOBBY_SAMPLES = 200;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const round = (x: number, places = 1) => Math.round(x * 10 ** places) / 10 ** places;

type SeatKind = StoredSeat['kind'];
/** Who is to move and who waits, in turn: the side to move is never a bot, so an idle game stays idle. */
const SEATINGS: readonly [SeatKind, SeatKind][] = [
  ['human', 'human'],
  ['human', 'bot'],
  ['agent', 'human'],
  ['human', 'agent'],
  ['agent', 'bot'],
];

function seat(kind: SeatKind, i: number): StoredSeat {
  const name = kind === 'bot' ? 'random' : kind === 'agent' ? `scale-agent-${i % 50}` : `scale-${i}`;
  return { kind, name, reservedFor: null, tokenHash: kind === 'bot' ? null : hashToken(`scale-seat-token-${i}`), connected: kind === 'bot', connectedVia: null, awaySince: null, account: false };
}

/** A game's position after `plies` random moves (no pass, no end), made once per game and length. */
function opening(game: GameId, plies: number, random: () => number): Pick<StoredGame, 'start' | 'position' | 'moves' | 'moveMs'> {
  const { rules } = GAMES[game];
  for (;;) {
    let position = rules.start();
    const moves: string[] = [];
    while (moves.length < plies && rules.outcome(position) === null) {
      const legal = rules.legalMoves(position).filter((m) => rules.formatMove(m) !== 'pass');
      if (legal.length === 0) break;
      const move = legal[Math.floor(random() * legal.length)]!;
      moves.push(rules.formatMove(move));
      position = rules.play(position, move);
    }
    if (moves.length === plies && rules.outcome(position) === null) return { start: rules.formatPosition(rules.start()), position, moves, moveMs: moves.map(() => 1000) };
  }
}

/**
 * `n` games as the store keeps them, made without the server: live ones (half two plies in, half
 * twenty, on an hour's bank, the side to move a person or an agent away), or waiting rooms with
 * one person seated.
 */
export function* idleGames(n: number, status: 'live' | 'waiting', now: number): Generator<StoredGame> {
  const random = seededRandom(39);
  const openings = new Map<string, ReturnType<typeof opening>>();
  for (let i = 0; i < n; i++) {
    const game = GAME_IDS[i % GAME_IDS.length]!;
    const plies = status === 'waiting' ? 0 : i % 2 === 0 ? 2 : 20;
    const key = `${game}-${plies}`;
    if (!openings.has(key)) openings.set(key, opening(game, plies, random));
    const played = openings.get(key)!;
    const mover: Color = GAMES[game].rules.toMove(played.position);
    const [moving, waiting] = SEATINGS[Math.floor(i / GAME_IDS.length) % SEATINGS.length]!;
    const seats = status === 'waiting' ? { [mover]: seat('human', i), [opposite(mover)]: { ...seat('human', i), name: null, tokenHash: null } } : { [mover]: seat(moving, i), [opposite(mover)]: seat(waiting, i) };
    yield {
      id: newGameId(),
      game,
      options: {},
      timeControl: IDLE_CLOCK,
      showThinking: true,
      seats: seats as StoredGame['seats'],
      status,
      ...played,
      version: 3 + plies,
      clock: status === 'live' ? { black: IDLE_BANK_MS, white: IDLE_BANK_MS, turnStartedAt: now } : { black: null, white: null, turnStartedAt: null },
      result: null,
      drawOffer: null,
      createdAt: now,
      updatedAt: now,
      rematch: null,
      rated: false,
      ladder: false,
      owner: null,
      ratingChange: null,
    };
  }
}

/** Writes the games through the store, a batch of pipelined scripts at a time. */
async function writeGames(store: RedisStore, games: Iterable<StoredGame>, n: number, progress: (line: string) => void, what: string): Promise<void> {
  let batch: Promise<boolean>[] = [];
  let written = 0;
  for (const game of games) {
    batch.push(store.create(game));
    if (batch.length === SEED_BATCH) {
      await Promise.all(batch);
      written += batch.length;
      batch = [];
      progress(`  ${what}: ${written}/${n}`);
    }
  }
  await Promise.all(batch);
  progress(`  ${what}: ${n}/${n}`);
}

type Spawned = ReturnType<typeof spawnBuilt>;

/** Resolves with the first output line `match` accepts, or undefined after `timeoutMs`. */
async function untilLine<T>(spawned: Spawned, match: (line: string) => T | undefined, timeoutMs: number): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const line of spawned.output().split('\n')) {
      const found = match(line);
      if (found !== undefined) return found;
    }
    if (spawned.child.exitCode !== null) throw new Error(`the web process exited:\n${spawned.output().slice(-2000)}`);
    await sleep(20);
  }
  return undefined;
}

/** The port of a web process once it says it is up: its start re-arms every live game, which takes longer than `ready` waits. */
async function up(spawned: Spawned): Promise<number> {
  const port = await untilLine(spawned, (line) => /is up at http:\/\/localhost:(\d+)/.exec(line)?.[1], 300_000);
  if (port === undefined) throw new Error(`the web process did not start:\n${spawned.output().slice(-2000)}`);
  return Number(port);
}

const json = (line: string): Record<string, unknown> | undefined => {
  try {
    return line.startsWith('{') ? (JSON.parse(line) as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

/**
 * How long a restarted web process took to re-arm the live games, and how many: from its log line
 * `live games re-armed` (`games`, `ms`), or, from an older build that recovered before it listened,
 * the time until it said it was up and the count its listening line gives.
 */
async function rearmed(spawned: Spawned, startedAt: number): Promise<{ count: number; ms: number; source: ScaleResult['rearmSource'] }> {
  const recoveredLine = (line: string) => {
    const entry = json(line);
    return entry && entry.msg === 'live games re-armed' && typeof entry.games === 'number' && typeof entry.ms === 'number' ? { count: entry.games, ms: entry.ms } : undefined;
  };
  const upAt = await untilLine(spawned, (line) => (line.includes('is up') ? performance.now() : undefined), 300_000);
  const listening = await untilLine(spawned, (line) => json(line)?.recovered as number | undefined, 1000);
  // A build that recovers before it is up says how many in its listening line; one that recovers while serving logs it when done.
  const recovered = await untilLine(spawned, recoveredLine, typeof listening === 'number' ? 2000 : 300_000);
  if (recovered) return { ...recovered, source: 'recovered log line' };
  return { count: listening ?? NaN, ms: Math.round((upAt ?? NaN) - startedAt), source: 'until up' };
}

/** Plays `count` games through the server to their end: made, joined, two moves a side, resigned. */
async function playToTheEnd(url: string, count: number): Promise<void> {
  const sockets = await Promise.all(Array.from({ length: Math.min(20, count) }, () => connect(url)));
  const ask = async <T>(socket: Socket, event: string, payload: unknown): Promise<T> => {
    const ack = (await socket.timeout(10_000).emitWithAck(event, payload)) as Ack<T>;
    if (!ack.ok) throw new Error(`${event}: ${ack.error.code} ${ack.error.message}`);
    return ack;
  };
  await Promise.all(
    sockets.map(async (socket, s) => {
      for (let i = s; i < count; i += sockets.length) {
        const game = GAME_IDS[i % GAME_IDS.length]!;
        const created = await ask<{ gameId: string; seat: { token: string } }>(socket, 'room:create', { game, timeControl: MOVING_CLOCK, seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: `end-${i}-a`, color: 'black' } });
        const joined = await ask<{ seat: { token: string }; view: GameView }>(socket, 'room:join', { gameId: created.gameId, name: `end-${i}-b`, color: 'white' });
        const tokens = { black: created.seat.token, white: joined.seat.token };
        let view = joined.view;
        for (let ply = 0; ply < 4; ply++) view = viewAfter(view, await ask<MoveAck>(socket, 'move', { gameId: view.id, token: tokens[view.toMove], ply: view.ply, move: view.legal[0] }));
        await ask(socket, 'resign', { gameId: view.id, token: tokens.black });
      }
    }),
  );
  for (const socket of sockets) socket.close();
}

/** One row: N idle live games, `moving` games moving beside them, the figures of each phase. */
export async function measureScale(o: ScaleOptions): Promise<ScaleResult> {
  const progress = o.progress ?? (() => undefined);
  const redis = await startRedis();
  const info = redis.client();
  const seeder = new Redis(redis.url, { maxRetriesPerRequest: null, enableAutoPipelining: true });
  const store = new RedisStore(seeder, `${PREFIX}:`);
  // Seats left when the moving games stop are abandoned only after the run, not under the lobby's timing.
  const env = { REDIS_URL: redis.url, REDIS_PREFIX: PREFIX, RATE_LIMIT: '10000', RECONNECT_GRACE_MS: '3600000' };
  // Both log their recovery: a process serves while it re-arms the live games, and the background is measured after.
  const startMeasured = () => spawnBuilt('main', { ...env, LOG_LEVEL: 'info' }, o.server);
  const children: Spawned[] = [];
  try {
    const empty = (await readRedisFigures(info)).usedMemory;
    progress(`${o.games} live games: seeding`);
    await writeGames(store, idleGames(o.games, 'live', Date.now()), o.games, progress, 'live games written');
    let measured = startMeasured();
    children.push(measured);
    await up(measured);
    const serving = spawnBuilt('main', { ...env, LOG_LEVEL: 'info' }, o.server);
    children.push(serving);
    const url = `http://127.0.0.1:${await up(serving)}`;
    await Promise.all([measured, serving].map((p) => untilLine(p, (line) => (json(line)?.msg === 'live games re-armed' ? true : undefined), 300_000)));
    await sleep(2000);
    const bytesPerLive = ((await readRedisFigures(info)).usedMemory - empty) / o.games;

    progress(`${o.games} live games: background, ${o.seconds} s`);
    const [webBefore, redisBefore] = [processUsage(measured.child.pid!), await readRedisFigures(info)];
    await sleep(o.seconds * 1000);
    const [webAfter, redisAfter] = [processUsage(measured.child.pid!), await readRedisFigures(info)];
    const background = figuresDelta(redisBefore, redisAfter);

    progress(`${o.games} live games: ${o.moving} games moving, ${o.seconds} s`);
    const acks: { at: number; ms: number }[] = [];
    const moving = await seedGames(url, o.moving, o.movesPerSecond, undefined, { timeControl: MOVING_CLOCK, onAck: (ms) => acks.push({ at: performance.now(), ms }) });
    await sleep(2000);
    const [movesBefore, movingBefore, movingStarted] = [moving.stats.moves, await readRedisFigures(info), performance.now()];
    await sleep(o.seconds * 1000);
    const [movesAfter, movingAfter, movingEnded] = [moving.stats.moves, await readRedisFigures(info), performance.now()];
    const moves = Math.max(1, movesAfter - movesBefore);
    const movingSeconds = (movingEnded - movingStarted) / 1000;
    // The moves' own work: the background measured before, carried over to this span, left out.
    const perMove = figuresDelta(scaleFigures(background, movingSeconds / o.seconds), figuresDelta(movingBefore, movingAfter));

    progress(`${o.games} live games: the measured web process killed and started again`);
    const liveAtRestart = await store.count('live');
    await kill9(measured.child);
    const restartedAt = performance.now();
    measured = startMeasured();
    children.push(measured);
    const rearm = await rearmed(measured, restartedAt);
    // At least a second of acks, so a quick recovery still has a p99.
    await sleep(Math.max(0, restartedAt + 1000 - performance.now()));
    const restartAcks = acks.filter((a) => a.at >= restartedAt).map((a) => a.ms);
    await moving.stop();

    // Timed on the restarted process, which serves no player: the lobby's own cost, not the ends of games around it.
    progress(`${o.games} live games: ${o.waiting} waiting rooms, the lobby's pages`);
    await writeGames(store, idleGames(o.waiting, 'waiting', Date.now()), o.waiting, progress, 'waiting rooms written');
    const lobby = await lobbyPageP99(`http://127.0.0.1:${await up(measured)}`, LOBBY_SAMPLES);

    progress(`${o.games} live games: ${o.finished} games played to their end`);
    await sleep(1000);
    const beforeEnds = (await readRedisFigures(info)).usedMemory;
    await playToTheEnd(url, o.finished);
    await sleep(1000);
    const bytesPerFinished = ((await readRedisFigures(info)).usedMemory - beforeEnds) / o.finished;


    const backgroundSeconds = o.seconds;
    return {
      row: {
        'live-games': o.games,
        'web-cpu-%': cpuPercent(webBefore, webAfter, backgroundSeconds),
        'web-rss-MiB': Math.round(webAfter.rssBytes / 2 ** 20),
        'redis-commands-per-s': round(background.calls / backgroundSeconds),
        'redis-cpu-%': round((background.cpuSeconds / backgroundSeconds) * 100),
        'moves-per-s': round(moves / movingSeconds),
        'move-ack-p99-ms': percentile(acks.filter((a) => a.at >= movingStarted && a.at <= movingEnded).map((a) => a.ms), 99),
        'commands-per-move': round(perMove.calls / moves),
        'redis-cpu-us-per-move': round(perMove.usec / moves),
        'bytes-per-live-game': Math.round(bytesPerLive),
        'bytes-per-finished-game': Math.round(bytesPerFinished),
        'live-at-restart': liveAtRestart,
        're-armed': rearm.count,
        'rearm-ms': rearm.ms,
        'restart-ack-p99-ms': percentile(restartAcks, 99),
        'lobby-p99-ms': lobby,
      },
      commandsPerMove: Object.fromEntries([...perMove.commands].sort((a, b) => b[1] - a[1]).map(([name, n]) => [name, round(n / moves, 2)])),
      rearmSource: rearm.source,
    };
  } finally {
    for (const child of children) await kill9(child.child);
    seeder.disconnect();
    await redis.stop();
  }
}

export interface Bar {
  readonly bar: string;
  readonly pass: boolean;
  readonly detail: string;
}

/** The bars the figures must meet, each against the rows it speaks of: the fewest live games against the most, or every row. */
export function scaleBars(rows: readonly ScaleRow[]): Bar[] {
  const [fewest, most] = [rows[0]!, rows.at(-1)!];
  const each = (bar: string, figure: keyof ScaleRow, pass: (row: ScaleRow) => boolean): Bar => ({ bar, pass: rows.every(pass), detail: rows.map((r) => `${r['live-games']}: ${r[figure]}`).join(', ') });
  const twice = (figure: keyof ScaleRow): Bar => ({
    bar: `${figure} at ${most['live-games']} ≤ 2× at ${fewest['live-games']}`,
    pass: most[figure] <= 2 * fewest[figure],
    detail: `${most[figure]} against ${fewest[figure]}`,
  });
  return [
    twice('redis-commands-per-s'),
    twice('web-cpu-%'),
    each('≤ 8 Redis commands per accepted move', 'commands-per-move', (r) => r['commands-per-move'] <= 8),
    each('≤ 4 KB of Redis per live game', 'bytes-per-live-game', (r) => r['bytes-per-live-game'] <= 4096),
    each('≤ 2 KB of Redis per finished game', 'bytes-per-finished-game', (r) => r['bytes-per-finished-game'] <= 2048),
    // Within 1%: moving games end and new ones begin while the process starts.
    { ...each('every live game re-armed on restart', 're-armed', (r) => r['re-armed'] >= 0.99 * r['live-at-restart']), detail: rows.map((r) => `${r['live-games']}: ${r['re-armed']} of ${r['live-at-restart']}`).join(', ') },
    each('re-armed in < 60 s', 'rearm-ms', (r) => r['rearm-ms'] < 60_000),
    each('moving games ack p99 < 200 ms during the restart', 'restart-ack-p99-ms', (r) => r['restart-ack-p99-ms'] < 200),
    each('lobby page p99 < 50 ms', 'lobby-p99-ms', (r) => r['lobby-p99-ms'] < 50),
  ];
}

/** The rows as a table, a column per figure, then each bar with its mark. */
export function scaleTable(rows: readonly ScaleRow[], bars: readonly Bar[]): string {
  const columns = Object.keys(rows[0]!) as (keyof ScaleRow)[];
  const width = (c: keyof ScaleRow) => Math.max(c.length, ...rows.map((r) => String(r[c]).length));
  const line = (cells: (c: keyof ScaleRow) => string) => columns.map((c) => cells(c).padStart(width(c))).join('  ');
  return [line((c) => c), ...rows.map((r) => line((c) => String(r[c]))), '', ...bars.map((b) => `${b.pass ? '✓' : '✗'} ${b.bar}: ${b.detail}`)].join('\n');
}
