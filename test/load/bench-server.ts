import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Socket } from 'socket.io-client';
import { GAMES, moverAt } from '../../shared/games.js';
import type { Ack, GameView, MovedEvent, ThinkingView } from '../../shared/protocol/index.js';
import { GAME_IDS, type GameId } from '../../shared/rules.js';
import { seededRandom } from '../../shared/random.js';
import { startRedis } from '../support/redis.js';
import { startRedisCluster } from '../support/redis-cluster.js';
import { ADMIN_TOKEN, kill9, spawnBuilt, startFlags } from '../support/server.js';
import { connect, percentile, readUsage } from './client.js';
import { spawnYardstick } from './yardstick-process.js';
import { costShare, pinApart, startCpuMeter, type ServerProcess } from './cpu-cost.js';
import { startRedisMeter, type RedisWorkPerMove } from './redis-info.js';
import { measureScale, scaleBars, scaleTable, type ScaleResult } from './scale.js';
import { seedGames, viewAfter, type MoveAck } from './seed-games.js';

const CASES = ['closed', 'open', 'idle', 'spectators', 'thinking', 'admin', 'scale', 'cluster'] as const;
type Case = (typeof CASES)[number];
/** Run when no case is named: all but scale, which takes minutes to seed, and cluster, which starts six redis-servers. */
const DEFAULT_CASES = CASES.filter((c) => c !== 'scale' && c !== 'cluster');
/** The cluster case's measure on each side, at most: its figures are per move, which a few seconds tell. */
const CLUSTER_SECONDS = 5;

const HELP = `Usage: npm run bench:server -- [--case LIST] [--seconds S] [--tables N] [--watchers N] [--admin-games LIST] [--games LIST] [--moving N] [--waiting N] [--finished N] [--json] [--server DIR]

Measures the built server (npm run build first), started as a process of its own for each case,
from simulated clients in this process, one case after the other (it takes the measuring lock).
Each table replays a random legal game made at start-up, so the clients need no rules.

  closed       N tables of two sockets moving as soon as it is their turn, for S seconds, on the
               yardstick (bare Socket.IO, test/load/yardstick.ts: the same acks and broadcasts,
               nothing else), then the embedded server, then the yardstick doing the least a
               server on Redis must per move (one script writing the game, one publish: the
               floor under the Redis mode's cost), then the server on Redis with a bot worker:
               moves/s, ack p50/p95/p99, bytes of a moved event, server CPU and RSS,
               CPU µs per accepted move of each server process (the web process; in Redis mode
               redis-server too; the worker is idle) and their sum, and each server's shares of
               the yardstick: moves/s, and cost (the yardstick's µs per move over its own, 0.5
               when it costs twice as much). With two cores or more, the server's processes are
               pinned to core 0 and this load generator to core 1 (taskset), as the output says
  open         the same with players who think 0.5-1.5 s: the same offered load on the three
               servers, which none saturates, so their CPU per move compares like for like
  idle         10,000 idle connections beside N open-loop games on Redis: RSS per connection, ack p99
  spectators   one game of two players (each moving 100 ms after the other), with no watcher and
               then with N watchers: the players' move-ack p50/p99, and each move's delivery to
               the watchers p50/p99 (from the mover's send to the watcher's receipt)
  thinking     a bot game (engine-4 against engine-4, Othello) and one spectator and one admin
               following it: thinking events a second each receives
  admin        G live games moving every 2 s on average (for each G in the list), and one admin
               console following the first page of 50 rows: bytes a second reaching it, and the
               pages a second
  scale        for each N in --games: N idle live games written straight into a redis-server of
               its own (an hour's bank, the three games, people, agents and bots seated, half
               two plies in and half twenty), two web processes, and --moving games moving in
               open loop on one of them: the other's CPU% and RSS and Redis's commands/s and CPU%
               with no move played; Redis commands and CPU µs (commandstats) per accepted move,
               less that background;
               Redis bytes per live game, and per finished game after --finished games played to
               their end; the time the measured process takes to re-arm every live game when
               killed and started again, and the moving games' ack p99 meanwhile; a lobby page's
               p99 with --waiting waiting rooms. Then the bars each figure must meet, marked ✓ or ✗
  cluster      the closed case's N tables on the server with a bot worker on one Redis, then on
               the tests' Redis Cluster of three masters, each with a replica (a move waits for
               it: WAIT 1), for S seconds (at most ${CLUSTER_SECONDS}) each: moves/s, ack p50/p99, and for each
               master (or the one Redis) commands, commandstats µs and CPU µs (INFO, background
               work included) per accepted move and its share of the commands: how the work
               spreads over the masters. Not pinned to cores

  --case LIST         cases to run, comma-separated (default: all but scale and cluster)
  --seconds S         how long each measure lasts (default 20)
  --rounds R          closed and open: the four targets measured R times in turn (yardstick,
                      embedded, yardstick + Redis, Redis, yardstick, …), each figure the median
                      of its R rounds
                      (default 1); a server's cost on two cores varies by a quarter between runs
  --tables N          tables in the closed, open and idle cases (default 500)
  --watchers N        watchers in the spectators case (default 1000)
  --admin-games LIST  live games in the admin case (default 200,2000)
  --games LIST        idle live games in the scale case (default 1000,100000)
  --moving N          games moving in the scale case, a move a second each (default 500)
  --waiting N         waiting rooms when the scale case times the lobby (default 10000)
  --finished N        games the scale case plays to their end (default 10000)
  --json              the scale case's rows and bars as one line of JSON as well
  --server DIR        the checkout whose build runs (default this one), to compare with a build before
  --profile DIR       write a V8 CPU profile of each server process there (open it in Chrome's DevTools)`;

interface Options {
  cases: Case[];
  seconds: number;
  rounds: number;
  tables: number;
  watchers: number;
  adminGames: number[];
  games: number[];
  moving: number;
  waiting: number;
  finished: number;
  json: boolean;
  server: string | undefined;
  profile: string | undefined;
}

function options(): Options | undefined {
  const { values } = parseArgs({
    options: {
      case: { type: 'string', default: DEFAULT_CASES.join(',') },
      seconds: { type: 'string', default: '20' },
      rounds: { type: 'string', default: '1' },
      tables: { type: 'string', default: '500' },
      watchers: { type: 'string', default: '1000' },
      'admin-games': { type: 'string', default: '200,2000' },
      games: { type: 'string', default: '1000,100000' },
      moving: { type: 'string', default: '500' },
      waiting: { type: 'string', default: '10000' },
      finished: { type: 'string', default: '10000' },
      json: { type: 'boolean', default: false },
      server: { type: 'string' },
      profile: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(HELP);
    return undefined;
  }
  const count = (name: string, text: string, min: number): number => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be a whole number of at least ${min}, not "${text}". See --help.`);
    return n;
  };
  const cases = values.case!.split(',').map((c) => c.trim());
  for (const c of cases) if (!(CASES as readonly string[]).includes(c)) throw new Error(`--case: no case "${c}"; the cases are ${CASES.join(', ')}.`);
  return {
    cases: cases as Case[],
    seconds: count('seconds', values.seconds!, 1),
    rounds: count('rounds', values.rounds!, 1),
    tables: count('tables', values.tables!, 1),
    watchers: count('watchers', values.watchers!, 0),
    adminGames: values['admin-games']!.split(',').map((g) => count('admin-games', g.trim(), 1)),
    games: values.games!.split(',').map((g) => count('games', g.trim(), 1)).sort((a, b) => a - b),
    moving: count('moving', values.moving!, 1),
    waiting: count('waiting', values.waiting!, 1),
    finished: count('finished', values.finished!, 1),
    json: values.json!,
    server: values.server,
    profile: values.profile,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
interface Target {
  readonly name: string;
  readonly url: string;
  /** The processes whose CPU a move costs: the server, and in Redis mode redis-server (the worker is idle in these cases). */
  readonly processes: readonly ServerProcess[];
  /** The Redis servers holding the data (a cluster's masters), read by INFO around a measure. */
  readonly redisServers: readonly { name: string; port: number }[];
  usage(): Promise<{ cpu: number; rss: number }>;
  stop(): Promise<void>;
}

type TargetKind = 'yardstick' | 'yardstick-redis' | 'embedded' | 'redis' | 'cluster';

/** Bare Socket.IO (test/load/yardstick.ts), with node's options from npm start, as the server runs; on `redisUrl`, with the least Redis work per move. */
async function startYardstick(name: string, o: Options, redisUrl?: string): Promise<Target> {
  const { child, url } = await spawnYardstick([...nodeArgs(o), ...startFlags('main', o.server)], redisUrl);
  return { name, url, processes: [{ name: 'yardstick', pid: child.pid! }], redisServers: [], usage: () => readUsage(url), stop: () => stopChild(child) };
}

/** Each figure's median over the rounds. */
function medianFigures(rounds: readonly Record<string, number>[]): Record<string, number> {
  return Object.fromEntries(Object.keys(rounds[0]!).map((key) => [key, percentile(rounds.map((r) => r[key]!), 50)]));
}

async function startTarget(kind: TargetKind, o: Options): Promise<Target> {
  if (kind === 'yardstick') return startYardstick('yardstick', o);
  if (kind === 'yardstick-redis') {
    const redis = await startRedis();
    const yardstick = await startYardstick('yardstick + redis', o, redis.url);
    return { ...yardstick, processes: [...yardstick.processes, { name: 'redis', pid: redis.pid()! }], stop: () => yardstick.stop().then(() => redis.stop()) };
  }
  const env = serverEnv(o);
  if (kind === 'embedded') {
    const server = await startServer(o);
    return { name: 'embedded', url: server.url, processes: [{ name: 'web', pid: server.child.pid! }], redisServers: [], usage: server.usage, stop: () => stopChild(server.child) };
  }
  if (kind === 'cluster') {
    const cluster = await startRedisCluster();
    const masters = await cluster.masters();
    const redisServers = masters.map((m) => ({ name: `master :${m.port}`, port: m.port }));
    return startWithWorker('cluster of 3 + worker', { ...env, REDIS_CLUSTER: cluster.seeds.join(',') }, [], redisServers, () => cluster.stop(), o);
  }
  const redis = await startRedis();
  const redisServers = [{ name: `redis :${new URL(redis.url).port}`, port: Number(new URL(redis.url).port) }];
  return startWithWorker('redis + worker', { ...env, REDIS_URL: redis.url }, [{ name: 'redis', pid: redis.pid()! }], redisServers, () => redis.stop(), o);
}

/** The built server and a bot worker on a Redis already started, which `stopRedis` stops after them. */
async function startWithWorker(name: string, env: Record<string, string>, redisProcesses: readonly ServerProcess[], redisServers: Target['redisServers'], stopRedis: () => Promise<void>, o: Options): Promise<Target> {
  const web = spawnBuilt('main', env, o.server, nodeArgs(o));
  const worker = spawnBuilt('worker', env, o.server);
  const port = await web.ready;
  await worker.ready;
  const url = `http://127.0.0.1:${port}`;
  return {
    name,
    url,
    processes: [{ name: 'web', pid: web.child.pid! }, ...redisProcesses],
    redisServers,
    usage: () => readUsage(url),
    async stop() {
      await Promise.all([stopChild(web.child), stopChild(worker.child)]);
      await stopRedis();
    },
  };
}

/** Random legal games of each kind, made once: tables replay them, so their clients need no rules. */
function randomGames(perGame: number): Record<GameId, string[][]> {
  const random = seededRandom(20261125);
  const games = {} as Record<GameId, string[][]>;
  for (const id of GAME_IDS) {
    const { rules } = GAMES[id];
    games[id] = [];
    // Games without a forced pass: the server plays those itself, the yardstick cannot.
    while (games[id].length < perGame) {
      let position = rules.start();
      const moves: string[] = [];
      while (rules.outcome(position) === null) {
        const legal = rules.legalMoves(position);
        const move = legal[Math.floor(random() * legal.length)]!;
        moves.push(rules.formatMove(move));
        position = rules.play(position, move);
      }
      if (!moves.includes('pass')) games[id].push(moves);
    }
  }
  return games;
}
const GAMES_PLAYED = randomGames(20);

interface LoopStats {
  measuring: boolean;
  acks: number[];
  errors: Map<string, number>;
  eventBytes: number;
}

/**
 * `n` tables of two sockets replaying random games: the side to move sends its move `think` ms
 * after the other's move reached it (0: at once, a closed loop). A finished game makes a new room.
 */
async function runTables(url: string, n: number, think: () => number): Promise<{ stats: LoopStats; stop(): void }> {
  const stats: LoopStats = { measuring: false, acks: [], errors: new Map(), eventBytes: 0 };
  const error = (code: string) => stats.measuring && stats.errors.set(code, (stats.errors.get(code) ?? 0) + 1);
  let stopped = false;
  const sockets: Socket[] = [];
  for (let i = 0; i < 2 * n; i += 100) sockets.push(...(await Promise.all(Array.from({ length: Math.min(100, 2 * n - i) }, () => connect(url)))));
  const table = async (t: number, round: number): Promise<void> => {
    if (stopped) return;
    const [black, white] = [sockets[2 * t]!, sockets[2 * t + 1]!];
    const game = GAME_IDS[t % GAME_IDS.length]!;
    const moves = GAMES_PLAYED[game][(t + round) % GAMES_PLAYED[game].length]!;
    const created = (await black.emitWithAck('room:create', { game, timeControl: { kind: 'none' }, seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: `t${t}a`, color: 'black' } })) as Ack<{ gameId: string; seat: { token: string } }>;
    if (!created.ok) return void error(created.error.code);
    const joined = (await white.emitWithAck('room:join', { gameId: created.gameId, name: `t${t}b`, color: 'white' })) as Ack<{ seat: { token: string } }>;
    if (!joined.ok) return void error(joined.error.code);
    const seats = { black: { socket: black, token: created.seat.token }, white: { socket: white, token: joined.seat.token } };
    const moverOf = (ply: number) => moverAt(game, ply);
    const play = (ply: number): void => {
      if (stopped) return;
      if (ply >= moves.length) return again(t, round + 1);
      const mover = moverOf(ply);
      const seat = seats[mover];
      const sent = performance.now();
      // A plain callback: a timer per move would make the load generator, not the server, the limit.
      seat.socket.emit('move', { gameId: created.gameId, token: seat.token, ply, move: moves[ply] }, (ack: Ack<{ moved: MovedEvent }>) => {
        // The mover hears its own move in the acknowledgement only.
        if (ack.ok) hear[mover](ack.moved);
        if (!stats.measuring) return;
        if (ack.ok) stats.acks.push(performance.now() - sent);
        else error(ack.error.code);
      });
    };
    const hear: Record<'black' | 'white', (e: MovedEvent) => void> = { black: () => undefined, white: () => undefined };
    // The side to move hears the other's move and answers it; a finished game makes a new room.
    const listen = (socket: Socket, color: 'black' | 'white'): void => {
      const heard = (e: MovedEvent): void => {
        if (e.gameId !== created.gameId) return;
        if (stats.measuring && stats.eventBytes === 0) stats.eventBytes = JSON.stringify(e).length;
        const next = e.ply + 1;
        if (next >= moves.length) {
          socket.off('moved', heard);
          if (color === 'black') setTimeout(() => again(t, round + 1), 0);
        } else if (moverOf(next) === color) setTimeout(() => play(next), think());
      };
      socket.on('moved', heard);
      hear[color] = heard;
    };
    listen(black, 'black');
    listen(white, 'white');
    setTimeout(() => play(0), think());
  };
  /** The table's next game; a request cut short by the end of the run is no error. */
  const again = (t: number, round: number): void => void table(t, round).catch(() => stopped || error('disconnected'));
  await Promise.all(Array.from({ length: n }, (_, t) => table(t, 0)));
  return {
    stats,
    stop() {
      stopped = true;
      for (const socket of sockets) socket.close();
    },
  };
}

/**
 * Moves/s, ack percentiles, bytes of a moved event, server CPU and RSS, and CPU µs per move of
 * each server process over `seconds`; and the work per move of each of its Redis servers.
 */
async function measureLoop(target: Target, n: number, seconds: number, think: () => number): Promise<{ figures: Record<string, number>; redis: RedisWorkPerMove[] }> {
  const { stats, stop } = await runTables(target.url, n, think);
  await sleep(1000);
  const before = await target.usage();
  const redis = await startRedisMeter(target.redisServers);
  const cpu = startCpuMeter(target.processes);
  stats.measuring = true;
  const started = performance.now();
  await sleep(seconds * 1000);
  stats.measuring = false;
  const elapsed = (performance.now() - started) / 1000;
  const after = await target.usage();
  const redisWork = await redis.perMove(stats.acks.length);
  stop();
  const errors = [...stats.errors.values()].reduce((a, b) => a + b, 0);
  const figures = {
    'moves-per-s': Math.round(stats.acks.length / elapsed),
    'ack-p50-ms': percentile(stats.acks, 50),
    'ack-p95-ms': percentile(stats.acks, 95),
    'ack-p99-ms': percentile(stats.acks, 99),
    'moved-event-bytes': stats.eventBytes,
    'server-cpu-%': Math.round(((after.cpu - before.cpu) / elapsed) * 100),
    'server-rss-MiB': Math.round(after.rss / 2 ** 20),
    ...cpu.perMove(stats.acks.length),
    errors,
  };
  return { figures, redis: redisWork };
}

/** 10,000 idle connections beside `o.tables` open-loop games: the RSS they add, and the players' acks meanwhile. */
async function idle(target: Target, o: Options, think: () => number): Promise<Record<string, number>> {
  const IDLE = 10_000;
  const { stats, stop } = await runTables(target.url, o.tables, think);
  await sleep(3000);
  const before = await target.usage();
  const idlers: Socket[] = [];
  for (let i = 0; i < IDLE; i += 250) idlers.push(...(await Promise.all(Array.from({ length: Math.min(250, IDLE - i) }, () => connect(target.url)))));
  await sleep(5000);
  const loaded = await target.usage();
  stats.measuring = true;
  await sleep(o.seconds * 1000);
  stats.measuring = false;
  stop();
  for (const s of idlers) s.close();
  return {
    idle: idlers.length,
    'rss-before-MiB': Math.round(before.rss / 2 ** 20),
    'rss-after-MiB': Math.round(loaded.rss / 2 ** 20),
    'rss-per-connection-KiB': Math.round(((loaded.rss - before.rss) / IDLE / 1024) * 10) / 10,
    'ack-p50-ms': percentile(stats.acks, 50),
    'ack-p99-ms': percentile(stats.acks, 99),
    errors: [...stats.errors.values()].reduce((a, b) => a + b, 0),
  };
}

function serverEnv(o: Options): Record<string, string> {
  return { RATE_LIMIT: '10000', RECONNECT_GRACE_MS: '30000' };
}

function nodeArgs(o: Options): string[] {
  return o.profile ? ['--cpu-prof', `--cpu-prof-dir=${o.profile}`] : [];
}

/** SIGTERM, so that a profiled process writes its profile; SIGKILL after 5 s. */
async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await gone;
  clearTimeout(timer);
}

/** The built server on its own, with the per-owner limits out of the way. */
async function startServer(o: Options): Promise<{ url: string; child: ChildProcess; usage(): Promise<{ cpu: number; rss: number }> }> {
  const spawned = spawnBuilt('main', serverEnv(o), o.server, nodeArgs(o));
  const port = await spawned.ready;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    child: spawned.child,
    usage: () => readUsage(url),
  };
}

/** N sockets in a child process watching one game: each `moved` is timed there (epoch ms, shared by both processes). */
async function startWatchers(url: string, gameId: string, n: number): Promise<{ stop(): Promise<Record<string, number[]>> }> {
  const child = fork(fileURLToPath(import.meta.url), ['--watchers-child', url, gameId, String(n)], { execArgv: ['--import', 'tsx'] });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`the watchers' process exited with ${code}`)));
  });
  return {
    stop: () =>
      new Promise((resolve) => {
        child.once('message', (receipts) => resolve(receipts as Record<string, number[]>));
        child.send('stop');
      }),
  };
}

async function watchersChild(url: string, gameId: string, n: number): Promise<void> {
  const receipts: Record<string, number[]> = {};
  const sockets: Socket[] = [];
  for (let i = 0; i < n; i += 50) sockets.push(...(await Promise.all(Array.from({ length: Math.min(50, n - i) }, () => connect(url)))));
  await Promise.all(sockets.map((s) => s.emitWithAck('room:watch', { gameId })));
  for (const s of sockets) s.on('moved', (e: MovedEvent) => (receipts[e.ply] ??= []).push(performance.timeOrigin + performance.now()));
  process.send!('ready');
  process.once('message', () => {
    for (const s of sockets) s.close();
    process.send!(receipts, () => process.exit(0));
  });
}

/** One gomoku game of two players moving 100 ms after each other, watched by `watchers`. */
async function spectators(o: Options, watchers: number): Promise<Record<string, number>> {
  const server = await startServer(o);
  try {
    const [a, b] = [await connect(server.url), await connect(server.url)];
    const created = (await a.emitWithAck('room:create', { game: 'gomoku', timeControl: { kind: 'none' }, seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: 'bench-a', color: 'black' } })) as Ack<{ gameId: string; seat: { token: string } }>;
    if (!created.ok) throw new Error(created.error.message);
    const joined = (await b.emitWithAck('room:join', { gameId: created.gameId, name: 'bench-b', color: 'white' })) as Ack<{ seat: { token: string }; view: GameView }>;
    if (!joined.ok) throw new Error(joined.error.message);
    const sentAt = new Map<number, number>();
    const eventBytes: number[] = [];
    // The watchers live in a process of their own, so their work does not slow the players here.
    const crowd = watchers > 0 ? await startWatchers(server.url, created.gameId, watchers) : undefined;
    let measuring = false;
    b.on('moved', (e: MovedEvent) => measuring && eventBytes.push(JSON.stringify(e).length));
    const acks: number[] = [];
    const players = { black: { socket: a, token: created.seat.token }, white: { socket: b, token: joined.seat.token } };
    let view = joined.view;
    const before = await server.usage();
    const started = performance.now();
    measuring = true;
    while (view.status === 'live' && performance.now() - started < o.seconds * 1000) {
      await sleep(100);
      const me = players[view.toMove];
      const move = view.legal[Math.floor(Math.random() * view.legal.length)];
      const t = performance.now();
      sentAt.set(view.ply, performance.timeOrigin + t);
      const ack = (await me.socket.emitWithAck('move', { gameId: created.gameId, token: me.token, ply: view.ply, move })) as Ack<MoveAck>;
      acks.push(performance.now() - t);
      if (!ack.ok) throw new Error(ack.error.message);
      view = viewAfter(view, ack);
    }
    await sleep(200);
    measuring = false;
    const seconds = (performance.now() - started) / 1000;
    const after = await server.usage();
    const delivery: number[] = [];
    for (const [ply, times] of Object.entries((await crowd?.stop()) ?? {})) {
      const at = sentAt.get(Number(ply));
      if (at !== undefined) for (const t of times) delivery.push(t - at);
    }
    for (const s of [a, b]) s.close();
    return {
      watchers,
      moves: acks.length,
      'ack-p50-ms': percentile(acks, 50),
      'ack-p99-ms': percentile(acks, 99),
      'moved-event-bytes-p50': percentile(eventBytes, 50),
      ...(watchers > 0 ? { 'delivery-p50-ms': percentile(delivery, 50), 'delivery-p99-ms': percentile(delivery, 99) } : {}),
      'server-cpu-%': Math.round(((after.cpu - before.cpu) / seconds) * 100),
      'server-rss-MiB': Math.round(after.rss / 2 ** 20),
    };
  } finally {
    await kill9(server.child);
  }
}

/** Thinking events a second reaching a spectator and an admin of one bot game. */
async function thinking(o: Options): Promise<Record<string, number>> {
  const server = await startServer(o);
  try {
    const host = await connect(server.url);
    const bots = { black: { kind: 'bot', bot: 'engine-4' }, white: { kind: 'bot', bot: 'engine-4' } };
    const created = (await host.emitWithAck('room:create', { game: 'othello', timeControl: { kind: 'none' }, seats: bots })) as Ack<{ gameId: string }>;
    if (!created.ok) throw new Error(created.error.message);
    const watcher = await connect(server.url);
    await watcher.emitWithAck('room:watch', { gameId: created.gameId });
    const admin = await connect(server.url, '/admin', { token: ADMIN_TOKEN });
    // An admin of a build without admin:open hears every game's thinking anyway.
    await admin.emitWithAck('admin:open', { gameId: created.gameId });
    const counts = { spectator: 0, admin: 0, moves: 0 };
    watcher.on('thinking', (t: ThinkingView) => t.gameId === created.gameId && counts.spectator++);
    watcher.on('moved', () => counts.moves++);
    admin.on('thinking', (t: ThinkingView) => t.gameId === created.gameId && counts.admin++);
    const seconds = Math.min(o.seconds, 20);
    await sleep(seconds * 1000);
    for (const s of [host, watcher, admin]) s.close();
    const rate = (n: number) => Math.round((n / seconds) * 10) / 10;
    return { 'thinking-per-s-spectator': rate(counts.spectator), 'thinking-per-s-admin': rate(counts.admin), 'moves-per-s': rate(counts.moves) };
  } finally {
    await kill9(server.child);
  }
}

/** Bytes a second reaching one admin console that follows a page of 50 rows, with `games` live. */
async function admin(o: Options, games: number): Promise<Record<string, number>> {
  const server = await startServer(o);
  try {
    const seeded = await seedGames(server.url, games, games / 2);
    const socket = await connect(server.url, '/admin', { token: ADMIN_TOKEN });
    let bytes = 0;
    let events = 0;
    socket.onAny((event: string, data: unknown) => {
      bytes += JSON.stringify([event, data]).length;
      events++;
    });
    // This build's console: a page of the table (a build before it asked for every game instead).
    const listed = (await socket.timeout(10_000).emitWithAck('admin:list', { limit: 50 }).catch(() => undefined)) as Ack | undefined;
    if (!listed?.ok) await socket.timeout(30_000).emitWithAck('admin:games', {});
    bytes = 0;
    events = 0;
    const before = await server.usage();
    const movesBefore = seeded.stats.moves;
    await sleep(o.seconds * 1000);
    const after = await server.usage();
    const movesPerSecond = Math.round((seeded.stats.moves - movesBefore) / o.seconds);
    await seeded.stop();
    socket.close();
    return {
      games,
      'admin-bytes-per-s': Math.round(bytes / o.seconds),
      'admin-events-per-s': Math.round((events / o.seconds) * 10) / 10,
      'moves-per-s': movesPerSecond,
      'server-cpu-%': Math.round(((after.cpu - before.cpu) / o.seconds) * 100),
      'server-rss-MiB': Math.round(after.rss / 2 ** 20),
    };
  } finally {
    await kill9(server.child);
  }
}

/** The closed loop on one Redis and on a cluster of three masters: moves/s, acks, and each master's Redis work per move. */
async function clusterSpread(o: Options, line: (name: string, figures: Record<string, number>) => void): Promise<void> {
  const seconds = Math.min(o.seconds, CLUSTER_SECONDS);
  for (const kind of ['redis', 'cluster'] as const) {
    const target = await startTarget(kind, o);
    const { figures, redis } = await measureLoop(target, o.tables, seconds, () => 0).finally(() => target.stop());
    line(`cluster: ${target.name}`, { 'moves-per-s': figures['moves-per-s']!, 'ack-p50-ms': figures['ack-p50-ms']!, 'ack-p99-ms': figures['ack-p99-ms']!, errors: figures.errors! });
    const commands = redis.reduce((sum, r) => sum + r.commands, 0);
    const round = (n: number): number => Math.round(n * 10) / 10;
    for (const r of redis) line(`  ${r.name}`, { 'commands-per-move': r.commands, 'command-us-per-move': r.commandUs, 'cpu-us-per-move': r.cpuUs, 'commands-share-%': Math.round((r.commands / Math.max(1e-9, commands)) * 100) });
    if (redis.length > 1) line('  masters together', { 'commands-per-move': round(commands), 'command-us-per-move': round(redis.reduce((sum, r) => sum + r.commandUs, 0)), 'cpu-us-per-move': round(redis.reduce((sum, r) => sum + r.cpuUs, 0)) });
  }
}

/** The scale case at each count of live games, one after the other, then the table and the bars. */
async function scale(o: Options): Promise<void> {
  const results: ScaleResult[] = [];
  for (const games of o.games) {
    const progress = (text: string) => (process.stderr.isTTY && text.startsWith('  ') ? process.stderr.write(`\r${text}`) : console.error(text));
    results.push(await measureScale({ games, moving: o.moving, movesPerSecond: o.moving, seconds: o.seconds, waiting: o.waiting, finished: o.finished, server: o.server, progress }));
    console.error(`\n${games} live games: commands per move ${JSON.stringify(results.at(-1)!.commandsPerMove)}; re-armed by ${results.at(-1)!.rearmSource}`);
  }
  const rows = results.map((r) => r.row);
  const bars = scaleBars(rows);
  console.log(scaleTable(rows, bars));
  if (o.json) console.log(JSON.stringify({ case: 'scale', rows, commandsPerMove: results.map((r) => r.commandsPerMove), rearmSource: results.map((r) => r.rearmSource), bars }));
}

async function main(): Promise<number> {
  const child = process.argv.indexOf('--watchers-child');
  if (child >= 0) {
    const [url, gameId, n] = process.argv.slice(child + 1);
    await watchersChild(url!, gameId!, Number(n));
    return await new Promise<number>(() => undefined); // exits when the parent says stop
  }
  const o = options();
  if (!o) return 0;
  const line = (name: string, figures: Record<string, number>) => console.log(`${name.padEnd(22)} ${Object.entries(figures).map(([k, v]) => `${k} ${v}`).join('  ')}`);
  const think = () => 500 + Math.random() * 1000;
  for (const c of o.cases) {
    if (c === 'closed' || c === 'open') {
      // The same tables on every target: the yardstick's moves/s and CPU per move are what each server is judged against.
      const kinds = ['yardstick', 'embedded', 'yardstick-redis', 'redis'] as const;
      const rounds = new Map<(typeof kinds)[number], { name: string; figures: Record<string, number> }[]>(kinds.map((k) => [k, []]));
      console.log(`(${c}: node ${startFlags('main', o.server).join(' ') || '(no options)'}, as npm start runs the server, for every target${o.rounds > 1 ? `; ${o.rounds} rounds, each figure the median` : ''})`);
      for (let round = 0; round < o.rounds; round++) {
        for (const kind of kinds) {
          const target = await startTarget(kind, o);
          console.log(`(${c}: ${target.name}: ${pinApart(target.processes)})`);
          const { figures } = await measureLoop(target, o.tables, o.seconds, c === 'closed' ? () => 0 : think).finally(() => target.stop());
          rounds.get(kind)!.push({ name: target.name, figures });
          if (o.rounds > 1) line(`  ${c}: ${target.name} (round ${round + 1})`, Object.fromEntries(Object.entries(figures).filter(([k]) => k === 'moves-per-s' || k.startsWith('cpu-us-per-move'))));
        }
      }
      const yardstick = medianFigures(rounds.get('yardstick')!.map((r) => r.figures));
      // On two cores the load generator shares the CPU: a yardstick short of a full core was held back by it.
      if (c === 'closed' && yardstick['server-cpu-%']! < 90) console.log(`(the yardstick used ${yardstick['server-cpu-%']}% of a core: the load generator was its limit, so the moves/s shares below are upper bounds)`);
      for (const kind of kinds) {
        const figures = medianFigures(rounds.get(kind)!.map((r) => r.figures));
        const shares = { 'moves-share-of-yardstick-%': Math.round((figures['moves-per-s']! / yardstick['moves-per-s']!) * 100), 'cost-share': costShare(yardstick['cpu-us-per-move']!, figures['cpu-us-per-move']!) };
        line(`${c}: ${rounds.get(kind)![0]!.name}`, kind === 'yardstick' ? figures : { ...figures, ...shares });
      }
    } else if (c === 'idle') {
      const target = await startTarget('redis', o);
      line('idle: 10,000 + games', await idle(target, o, think).finally(() => target.stop()));
    } else if (c === 'spectators') {
      line('spectators: none', await spectators(o, 0));
      line(`spectators: ${o.watchers}`, await spectators(o, o.watchers));
    } else if (c === 'thinking') line('thinking', await thinking(o));
    else if (c === 'scale') await scale(o);
    else if (c === 'cluster') await clusterSpread(o, line);
    else for (const games of o.adminGames) line(`admin: ${games} games`, await admin(o, games));
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(2);
  },
);
