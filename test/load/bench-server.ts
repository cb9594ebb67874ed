import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { io, type Socket } from 'socket.io-client';
import type { Ack, GameView, MovedEvent, ThinkingView } from '../../shared/protocol/index.js';
import { ADMIN_TOKEN, kill9, spawnBuilt } from '../support/server.js';
import { seedGames } from './seed-games.js';

const CASES = ['spectators', 'thinking', 'admin'] as const;
type Case = (typeof CASES)[number];

const HELP = `Usage: npm run bench:server -- [--case LIST] [--seconds S] [--watchers N] [--admin-games LIST] [--server DIR]

Measures the built server (npm run build first), started as a process of its own for each case,
from simulated clients in this process, one case after the other (it takes the measuring lock).

  spectators   one game of two players (each moving 100 ms after the other), with no watcher and
               then with N watchers: the players' move-ack p50/p99, and each move's delivery to
               the watchers p50/p99 (from the mover's send to the watcher's receipt)
  thinking     a bot game (engine-4 against engine-4, Othello) and one spectator and one admin
               following it: thinking events a second each receives
  admin        G live games moving every 2 s on average (for each G in the list), and one admin
               console following the first page of 50 rows: bytes a second reaching it, and the
               pages a second

  --case LIST         cases to run, comma-separated (default spectators,thinking,admin)
  --seconds S         how long each measure lasts (default 20)
  --watchers N        watchers in the spectators case (default 1000)
  --admin-games LIST  live games in the admin case (default 200,2000)
  --server DIR        the checkout whose build runs (default this one), to compare with a build before`;

interface Options {
  cases: Case[];
  seconds: number;
  watchers: number;
  adminGames: number[];
  server: string | undefined;
}

function options(): Options | undefined {
  const { values } = parseArgs({
    options: {
      case: { type: 'string', default: CASES.join(',') },
      seconds: { type: 'string', default: '20' },
      watchers: { type: 'string', default: '1000' },
      'admin-games': { type: 'string', default: '200,2000' },
      server: { type: 'string' },
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
    watchers: count('watchers', values.watchers!, 0),
    adminGames: values['admin-games']!.split(',').map((g) => count('admin-games', g.trim(), 1)),
    server: values.server,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (values: number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round((sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN) * 10) / 10;
};

function connect(url: string, namespace = '/', auth?: Record<string, string>): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = io(url + namespace, { transports: ['websocket'], reconnection: false, forceNew: true, ...(auth ? { auth } : {}) });
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/** The built server on its own, with the per-owner limits out of the way. */
async function startServer(o: Options): Promise<{ url: string; child: ChildProcess; usage(): Promise<{ cpu: number; rss: number }> }> {
  const spawned = spawnBuilt('main', { RATE_LIMIT: '10000', RECONNECT_GRACE_MS: '30000' }, o.server);
  const port = await spawned.ready;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    child: spawned.child,
    async usage() {
      const text = await (await fetch(`${url}/metrics`)).text();
      const read = (name: string): number => Number(new RegExp(`^${name} ([0-9.e+]+)`, 'm').exec(text)?.[1] ?? NaN);
      return { cpu: read('boardroom_process_cpu_seconds_total'), rss: read('boardroom_process_resident_memory_bytes') };
    },
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
      const ack = (await me.socket.emitWithAck('move', { gameId: created.gameId, token: me.token, ply: view.ply, move })) as Ack<{ view: GameView }>;
      acks.push(performance.now() - t);
      if (!ack.ok) throw new Error(ack.error.message);
      view = ack.view;
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
  for (const c of o.cases) {
    if (c === 'spectators') {
      line('spectators: none', await spectators(o, 0));
      line(`spectators: ${o.watchers}`, await spectators(o, o.watchers));
    } else if (c === 'thinking') line('thinking', await thinking(o));
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
