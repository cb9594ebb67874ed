import { parseArgs } from 'node:util';
import type { Socket } from 'socket.io-client';
import { applyMoved, type Ack, type GameView, type MovedEvent } from '../../shared/protocol/index.js';
import { GAME_IDS } from '../../shared/rules.js';
import { connect, percentile, readUsage } from './client.js';

const HELP = `Usage: npm run loadtest -- [--url URL] [--games N] [--seconds S] [--game G] [--think-min MS] [--think-max MS] [--bank MS] [--reconnect]

Plays N concurrent games of simulated players against a running server, all from this one
address, so start the server with its per-owner quotas raised:
  QUOTA_LIVE_ROOMS=100000 QUOTA_ROOMS_PER_MINUTE=100000 QUOTA_CONNECTIONS=100000 npm start
Two sockets a game, each answering with a random legal move after a think time.
A finished game is replaced by a new one. Prints moves/s, move-ack latency (p50/p95/p99),
errors, and the server's CPU and memory read from its /metrics.

  --url URLS       the server, or a comma-separated list of its web processes: table i plays on
                   the i-th, round the list (default http://127.0.0.1:3000)
  --games N        concurrent games (default 500)
  --seconds S      how long to measure (default 60), after the games are set up
  --game G         othello, gomoku, minichess or mixed (default mixed)
  --think-min MS   shortest think time (default 500)
  --think-max MS   longest think time (default 1500)
  --bank MS        a bank of MS per side, no increment, so every move arms a flag (default: no clock)
  --reconnect      players whose connection drops reconnect by themselves and take their seats back
                   with room:resume, as the web client does (for a web process killed under load);
                   a move whose answer the dropped connection took is counted apart, not an error`;

interface Options {
  urls: string[];
  reconnect: boolean;
  games: number;
  seconds: number;
  game: string;
  thinkMin: number;
  thinkMax: number;
  bankMs: number | undefined;
}

function options(): Options | undefined {
  const { values } = parseArgs({
    options: {
      url: { type: 'string', default: 'http://127.0.0.1:3000' },
      games: { type: 'string', default: '500' },
      seconds: { type: 'string', default: '60' },
      game: { type: 'string', default: 'mixed' },
      'think-min': { type: 'string', default: '500' },
      'think-max': { type: 'string', default: '1500' },
      bank: { type: 'string' },
      reconnect: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(HELP);
    return undefined;
  }
  const n = (name: string, v: string | undefined, min: number): number => {
    const x = Number(v);
    if (!Number.isFinite(x) || x < min) throw new Error(`--${name} must be a number of at least ${min}, not "${v}".`);
    return x;
  };
  const game = values.game!;
  if (game !== 'mixed' && !(GAME_IDS as readonly string[]).includes(game)) throw new Error(`--game must be othello, gomoku, minichess or mixed, not "${game}".`);
  return {
    urls: values.url!.split(',').filter(Boolean),
    reconnect: values.reconnect!,
    games: n('games', values.games, 1),
    seconds: n('seconds', values.seconds, 1),
    game,
    thinkMin: n('think-min', values['think-min'], 0),
    thinkMax: n('think-max', values['think-max'], 0),
    bankMs: values.bank === undefined ? undefined : n('bank', values.bank, 1000),
  };
}

class Stats {
  latencies: number[] = [];
  moves = 0;
  errors = new Map<string, number>();
  gamesDone = 0;
  /** Moves sent on a connection that dropped before their answer (with --reconnect). */
  unanswered = 0;
  measuring = false;
  error(code: string): void {
    this.errors.set(code, (this.errors.get(code) ?? 0) + 1);
  }
}

/** One seat's player: answers each of its turns after a think time, until stopped. */
function player(socket: Socket, gameId: string, token: string, color: string, o: Options, stats: Stats, onEnd: () => void): void {
  let lastPly = -1;
  /** Applies a move to this player's view as a `moved` event would (set once the view is kept, below). */
  let applyOwn: (e: MovedEvent) => void = () => undefined;
  /** Counts the connection's drops: a move sent before a drop, or while dropped, may never be answered. */
  let drops = 0;
  const consider = (view: GameView): void => {
    if (view.id !== gameId) return;
    if (view.status === 'finished') return onEnd();
    if (view.status !== 'live' || view.toMove !== color || view.ply <= lastPly) return;
    lastPly = view.ply;
    const think = o.thinkMin + Math.random() * (o.thinkMax - o.thinkMin);
    setTimeout(() => {
      const move = view.legal[Math.floor(Math.random() * view.legal.length)];
      const sentIn = socket.connected ? drops : -1;
      const lost = (): boolean => {
        if (!o.reconnect || sentIn === drops) return false;
        if (stats.measuring) stats.unanswered++;
        if (lastPly === view.ply) {
          lastPly = -1; // the turn, not played since, is played again from the state the server holds
          sync();
        }
        return true;
      };
      const sent = performance.now();
      socket
        .timeout(10_000)
        .emitWithAck('move', { gameId, token, ply: view.ply, move })
        .then((ack: Ack<{ moved: MovedEvent }>) => {
          if (!ack.ok && lost()) return;
          // The mover hears its own move in the acknowledgement only.
          if (ack.ok) applyOwn(ack.moved);
          if (stats.measuring) {
            stats.latencies.push(performance.now() - sent);
            if (ack.ok) stats.moves++;
            else stats.error(ack.error.code);
          }
        })
        .catch(() => lost() || (stats.measuring && stats.error('timeout')));
    }, think);
  };
  // The view is kept as clients keep it: moves arrive as deltas applied with the rules, and a gap
  // in plies asks for the whole view again.
  let current: GameView | undefined;
  const update = (view: GameView): void => {
    if (current && view.ply < current.ply) return;
    current = view;
    consider(view);
  };
  const sync = (): void =>
    void socket
      .emitWithAck('room:sync', { gameId })
      .then((ack: Ack<{ view: GameView }>) => ack.ok && update(ack.view))
      .catch(() => undefined);
  const onMoved = (e: MovedEvent): void => {
    if (e.gameId !== gameId || !current) return;
    const next = applyMoved(current, e);
    if (!next) sync();
    else if (next !== current) update(next);
  };
  applyOwn = onMoved;
  socket.on('moved', onMoved);
  socket.on('state', update);
  socket.on('ended', (e: { view: GameView }) => update(e.view));
  socket
    .emitWithAck('room:watch', { gameId })
    .then((ack: Ack<{ view: GameView }>) => ack.ok && update(ack.view))
    .catch(() => undefined);
  socket.on('disconnect', () => void drops++);
  socket.on('connect', () =>
    void socket
      .emitWithAck('room:resume', { gameId, token })
      .then((ack: Ack<{ view: GameView }>) => {
        if (!ack.ok) return;
        current = undefined;
        update(ack.view);
      })
      .catch(() => undefined),
  );
}

/**
 * Sets a table's next game up. With --reconnect, a set-up that a dropped connection broke is
 * counted apart and tried again a second later, as a person would; else it is an error and the
 * table stops.
 */
async function table(o: Options, stats: Stats, index: number, sockets: [Socket, Socket], stopped: () => boolean): Promise<void> {
  const drops = sockets.map(() => 0);
  sockets.forEach((s, i) => s.once('disconnect', () => drops[i]!++));
  const broken = (): boolean => o.reconnect && (drops.some((d) => d > 0) || sockets.some((s) => !s.connected));
  const failed = await setUp(o, stats, index, sockets, stopped).then(
    (code) => code,
    () => 'timeout',
  );
  if (failed === undefined) return;
  if (!broken()) return void stats.error(failed);
  if (stats.measuring) stats.unanswered++;
  if (!stopped()) setTimeout(() => void table(o, stats, index, sockets, stopped), 1000);
}

/** Makes the room and seats both players; the refusal's code if it could not. */
async function setUp(o: Options, stats: Stats, index: number, sockets: [Socket, Socket], stopped: () => boolean): Promise<string | undefined> {
  const game = o.game === 'mixed' ? GAME_IDS[index % GAME_IDS.length]! : o.game;
  const [a, b] = sockets;
  const created = (await a.timeout(10_000).emitWithAck('room:create', {
    game,
    timeControl: o.bankMs === undefined ? { kind: 'none' } : { kind: 'bank', initialMs: o.bankMs, incrementMs: 0 },
    seats: { black: { kind: 'human' }, white: { kind: 'human' } },
    sit: { name: `load-${index}-a`, color: 'black' },
  })) as Ack<{ gameId: string; seat: { token: string } }>;
  if (!created.ok) return created.error.code;
  const joined = (await b.timeout(10_000).emitWithAck('room:join', { gameId: created.gameId, name: `load-${index}-b` })) as Ack<{ seat: { token: string } }>;
  if (!joined.ok) return joined.error.code;
  let ended = false;
  const onEnd = (): void => {
    if (ended) return;
    ended = true;
    a.removeAllListeners();
    b.removeAllListeners();
    if (stats.measuring) stats.gamesDone++;
    if (!stopped()) void table(o, stats, index, sockets, stopped);
  };
  player(a, created.gameId, created.seat.token, 'black', o, stats, onEnd);
  player(b, created.gameId, joined.seat.token, 'white', o, stats, onEnd);
  return undefined;
}

const serverUsage = (url: string) => readUsage(url).catch(() => undefined);

async function main(): Promise<number> {
  const o = options();
  if (!o) return 0;
  for (const url of o.urls) {
    const health = await fetch(`${url}/health`).catch(() => undefined);
    if (!health?.ok) {
      console.error(`No Boardroom server answers at ${url}: start one with npm start (or pass --url).`);
      return 2;
    }
  }
  const stats = new Stats();
  let stop = false;
  console.error(`setting up ${o.games} games (${o.games * 2} connections) on ${o.urls.join(', ')} …`);
  const sockets: [Socket, Socket][] = [];
  for (let i = 0; i < o.games; i++) {
    const url = o.urls[i % o.urls.length]!;
    sockets.push([await connect(url, '/', {}, o.reconnect), await connect(url, '/', {}, o.reconnect)]);
    if (i % 100 === 99) console.error(`  ${i + 1} tables connected`);
  }
  await Promise.all(sockets.map((s, i) => table(o, stats, i, s, () => stop)));
  await new Promise((r) => setTimeout(r, o.thinkMax)); // let every table reach its steady rhythm
  const before = await serverUsage(o.urls[0]!);
  stats.measuring = true;
  const started = performance.now();
  for (let s = 1; s <= o.seconds; s++) {
    await new Promise((r) => setTimeout(r, 1000));
    if (process.stderr.isTTY) process.stderr.write(`\r  measuring ${s}/${o.seconds} s, ${stats.moves} moves`);
  }
  stats.measuring = false;
  const seconds = (performance.now() - started) / 1000;
  const after = await serverUsage(o.urls[0]!);
  stop = true;
  if (process.stderr.isTTY) process.stderr.write('\n');
  for (const [a, b] of sockets) {
    a.close();
    b.close();
  }
  const latencies = stats.latencies;
  const errors = [...stats.errors.values()].reduce((x, y) => x + y, 0);
  const cpu = before && after ? ((after.cpu - before.cpu) / seconds) * 100 : NaN;
  const result = {
    games: o.games,
    seconds: Math.round(seconds),
    moves: stats.moves,
    movesPerSecond: Math.round((stats.moves / seconds) * 10) / 10,
    ackMs: { p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99), max: percentile(latencies, 100) },
    errors,
    errorCodes: Object.fromEntries(stats.errors),
    gamesFinished: stats.gamesDone,
    unansweredOnDroppedConnections: stats.unanswered,
    serverCpuPercent: round(cpu),
    serverRssMiB: after ? round(after.rss / 1024 / 1024) : null,
  };
  console.log(`${result.moves} moves in ${result.seconds} s: ${result.movesPerSecond} moves/s over ${o.games} games`);
  console.log(`move-ack latency ms: p50 ${result.ackMs.p50}  p95 ${result.ackMs.p95}  p99 ${result.ackMs.p99}  max ${result.ackMs.max}`);
  console.log(`errors: ${errors}${errors ? ' ' + JSON.stringify(result.errorCodes) : ''}; games finished: ${result.gamesFinished}${o.reconnect ? `; moves unanswered on a dropped connection: ${stats.unanswered}` : ''}`);
  console.log(`server: CPU ${result.serverCpuPercent}% of one core, RSS ${result.serverRssMiB} MiB`);
  console.log(JSON.stringify(result));
  return errors > 0 ? 1 : 0;
}

function round(x: number): number {
  return Math.round(x * 10) / 10;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(2);
  },
);
