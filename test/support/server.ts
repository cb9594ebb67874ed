import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { io, type Socket } from 'socket.io-client';
import { startBoardroom, type Boardroom } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { createLogger } from '../../server/log.js';
import { connect, redisTarget } from '../../server/redis/connections.js';
import { botQueuePrefixes } from '../../server/runtime/bot-queues.js';
import { BOT_LOCK_MS, startBotWorker as botWorker } from '../../server/runtime/bot-worker.js';
import { applyMoved, type Ack, type GameView, type MovedEvent } from '../../shared/protocol/index.js';

export const ADMIN_TOKEN = 'test-admin-token-0123456789';
const root = fileURLToPath(new URL('../..', import.meta.url));
/** The built processor (npm test builds first): BullMQ's sandbox loads JavaScript. */
export const BUILT_PROCESSOR = `${root}dist/bots/jobs/processor.js`;

export function testEnv(overrides: Record<string, string> = {}): Record<string, string> {
  // Every test connects from 127.0.0.1, so the per-owner quotas are raised out of the way; the
  // quota tests set their own.
  const quotas = { QUOTA_LIVE_ROOMS: '100000', QUOTA_ROOMS_PER_MINUTE: '100000', QUOTA_LIVE_BOT_GAMES: '100000', QUOTA_BOT_SECONDS_PER_MINUTE: '1000000', QUOTA_CONNECTIONS: '100000' };
  return { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ADMIN_TOKEN, RECONNECT_GRACE_MS: '2000', BOT_THREADS: '2', RATE_LIMIT: '1000', ...quotas, ...overrides };
}

/** A server in this process; silent unless TEST_LOG_LEVEL names a level (`TEST_LOG_LEVEL=warn npx vitest run …`). */
export async function startServer(env: Record<string, string> = {}): Promise<Boardroom> {
  const config = loadConfig(testEnv(env));
  return startBoardroom(config, createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'));
}

/** BullMQ bot workers in this process (sandboxed threads running the built processor). */
/** `redis`: a redis:// URL, or a cluster's seed nodes as REDIS_CLUSTER takes them; `queues`: BOT_QUEUES, unset as the servers' default. */
export function startBotWorker(redis: string, prefix: string, lockMs = BOT_LOCK_MS, concurrency = 2, queues?: number): { close(): Promise<void> } {
  const cluster = !redis.startsWith('redis');
  const connection = connect(redisTarget(cluster ? { REDIS_URL: undefined, REDIS_CLUSTER: redis } : { REDIS_URL: redis, REDIS_CLUSTER: undefined })!, 'jobs');
  const worker = botWorker(connection, { prefixes: botQueuePrefixes(prefix, cluster, queues), concurrency, lockMs, processor: BUILT_PROCESSOR, name: `test-${process.pid}`, log: createLogger('silent') });
  for (const each of worker.each) each.on('error', () => undefined);
  return {
    async close() {
      await worker.close(true);
      connection.disconnect();
    },
  };
}

/**
 * The options for node itself that the checkout's npm script (`start`, `worker`) starts the process
 * with: a built process here runs as `npm start` runs it.
 */
export function startFlags(which: 'main' | 'worker', dir = root): string[] {
  const script = which === 'main' ? 'start' : 'worker';
  const scripts = (JSON.parse(readFileSync(`${dir.replace(/\/?$/, '/')}package.json`, 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
  const command = scripts[script] ?? '';
  const flags = new RegExp(`^node((?:\\s+--\\S+)*)\\s+dist/server/${which}\\.js$`).exec(command.trim());
  if (!flags) throw new Error(`package.json's ${script} script is not "node [--flag…] dist/server/${which}.js": ${command}`);
  return flags[1]!.split(/\s+/).filter(Boolean);
}

/** The built server or worker as a child process, for kill -9 tests. */
/**
 * `dir`: the checkout whose build runs (another one, to measure a change against the build before
 * it); `nodeArgs`: options for node itself (`--cpu-prof`, which NODE_OPTIONS refuses).
 */
export function spawnBuilt(which: 'main' | 'worker', env: Record<string, string>, dir = root, nodeArgs: readonly string[] = []): { child: ChildProcess; ready: Promise<number>; output(): string } {
  const child = spawn(process.execPath, [...nodeArgs, ...startFlags(which, dir), `${dir.replace(/\/?$/, '/')}dist/server/${which}.js`], {
    env: { ...process.env, ...testEnv(env) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const ready = new Promise<number>((resolve, reject) => {
    // Long enough for a start on a machine loaded with other tests.
    const timer = setTimeout(() => reject(new Error(`${which} did not start in 60 s:\n${out}`)), 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const port = /localhost:(\d+)/.exec(out)?.[1];
      if (out.includes('is up')) {
        clearTimeout(timer);
        resolve(port ? Number(port) : 0);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${which} exited with ${code}:\n${out}`)));
  });
  ready.catch(() => undefined);
  return { child, ready, output: () => out };
}

export async function kill9(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await gone;
}

/** A socket.io client with a request helper that resolves with the server's acknowledgement. */
/** An agent made through the admin API, with its token. */
export async function newAgentToken(url: string, name: string): Promise<string> {
  const res = await fetch(`${url}/admin/api/agents`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` }, body: JSON.stringify({ name }) });
  return ((await res.json()) as { token: string }).token;
}

/** What a test file opens (servers, clients, workers), closed together at its end, the newest first. */
export class Opened {
  private readonly closers: (() => Promise<void> | void)[] = [];

  add(close: () => Promise<void> | void): void {
    this.closers.push(close);
  }

  async server(env: Record<string, string>): Promise<Boardroom> {
    const server = await startServer(env);
    this.add(() => server.close());
    return server;
  }

  async client(server: Boardroom, namespace = '/', auth?: Record<string, string>): Promise<Client> {
    const client = await new Client(server.url, namespace, auth).connected();
    this.add(() => client.close());
    return client;
  }

  async closeAll(): Promise<void> {
    for (const close of this.closers.reverse()) await close();
    this.closers.length = 0;
  }
}

export class Client {
  readonly socket: Socket;
  readonly events: { event: string; data: unknown }[] = [];

  /** `cookie`: a signed-in player's Cookie header (its session). */
  constructor(url: string, namespace = '/', auth?: Record<string, string>, cookie?: string) {
    this.socket = io(url + namespace, { transports: ['websocket'], reconnection: false, ...(auth ? { auth } : {}), ...(cookie ? { extraHeaders: { cookie }, forceNew: true } : {}) });
    this.socket.onAny((event, data) => this.events.push({ event, data }));
  }

  async connected(): Promise<this> {
    if (this.socket.connected) return this;
    await new Promise<void>((resolve, reject) => {
      this.socket.once('connect', () => resolve());
      this.socket.once('connect_error', (error) => reject(error));
    });
    return this;
  }

  ask<T = Record<string, unknown>>(event: string, payload?: unknown): Promise<Ack<T>> {
    return this.socket.timeout(10_000).emitWithAck(event, payload) as Promise<Ack<T>>;
  }

  /** Resolves with the first event (already received or coming) that satisfies `match`. */
  waitFor<T>(event: string, match: (data: T) => boolean = () => true, timeoutMs = 30_000): Promise<T> {
    const seen = this.events.find((e) => e.event === event && match(e.data as T));
    if (seen) return Promise.resolve(seen.data as T);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.socket.off(event, listener);
        reject(new Error(`no "${event}" event within ${timeoutMs} ms`));
      }, timeoutMs);
      const listener = (data: T) => {
        if (!match(data)) return;
        clearTimeout(timer);
        this.socket.off(event, listener);
        resolve(data);
      };
      this.socket.on(event, listener);
    });
  }

  close(): void {
    this.socket.close();
  }
}

/** Resolves once a bot's search in the game has reported, followed from an admin connection. */
export async function searching(admin: Client, gameId: string, timeoutMs = 20_000): Promise<void> {
  const opened = expectOk(await admin.ask<{ thinking: unknown }>('admin:open', { gameId }));
  if (opened.thinking === null) await admin.waitFor<{ gameId: string }>('thinking', (t) => t.gameId === gameId, timeoutMs);
}

/** Plays a move and returns the view after it, made from the acknowledged delta as clients make it. */
export async function playMove(client: Client, view: GameView, token: string, move: string): Promise<GameView> {
  const ack = expectOk(await client.ask<{ moved: MovedEvent }>('move', { gameId: view.id, token, ply: view.ply, move }));
  const next = applyMoved(view, ack.moved);
  if (!next) throw new Error(`the delta of ${move} does not follow ply ${view.ply}`);
  return next;
}

/** Two guests, Ann (black) and Bob, play `moves` in a new room of `game`; resolves with the room's id and its last view. */
export async function playScripted(url: string, game: string, moves: readonly string[]): Promise<{ gameId: string; view: GameView }> {
  type Seat = { gameId: string; color: 'black' | 'white'; token: string };
  const ann = await new Client(url).connected();
  const bob = await new Client(url).connected();
  try {
    const created = expectOk(await ann.ask<{ gameId: string; seat: Seat }>('room:create', { game, seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: 'Ann', color: 'black' } }));
    const joined = expectOk(await bob.ask<{ seat: Seat; view: GameView }>('room:join', { gameId: created.gameId, name: 'Bob' }));
    let view = joined.view;
    for (const move of moves) view = view.toMove === 'black' ? await playMove(ann, view, created.seat.token, move) : await playMove(bob, view, joined.seat.token, move);
    return { gameId: created.gameId, view };
  } finally {
    ann.close();
    bob.close();
  }
}

export function expectOk<T>(ack: Ack<T>): T {
  if (!ack.ok) throw new Error(`refused: ${ack.error.code}: ${ack.error.message}`);
  return ack as T;
}
