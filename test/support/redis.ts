import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';

export interface TestRedis {
  readonly url: string;
  readonly port: number;
  /** The redis-server's process id while it runs. */
  pid(): number | undefined;
  client(): Redis;
  /** SIGKILL, then a new empty redis-server on the same port after `downMs`. */
  restartEmpty(downMs?: number): Promise<void>;
  /** SIGKILL: the server is gone until `start`. */
  kill(): Promise<void>;
  /** A redis-server again on the same port and directory (with AOF, it reloads what it had written). */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** With `appendfsync`, the server keeps an append-only file, synced on every write or every second. */
export interface RedisOptions {
  readonly appendfsync?: 'always' | 'everysec';
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function spawnRedis(port: number, dir: string, options: RedisOptions = {}): Promise<ChildProcess> {
  const persistence = options.appendfsync ? ['--appendonly', 'yes', '--appendfsync', options.appendfsync] : ['--appendonly', 'no'];
  return spawnRedisServer(port, [...persistence, '--dir', dir]);
}

/** A redis-server on `port` (loopback, no snapshots) with `args` besides, once it accepts connections. */
export async function spawnRedisServer(port: number, args: readonly string[]): Promise<ChildProcess> {
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start on port ${port}:\n${output}`)), 10_000);
    child.once('error', (error) => reject(new Error(`could not start redis-server (is it installed?): ${error.message}`)));
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    // 'close', not 'exit': a process's last output may still be unread when it exits, and the caller reads why it failed from it.
    child.once('close', (code) => reject(new Error(`redis-server exited with ${code}:\n${output}`)));
  });
  child.stdout!.resume();
  child.stderr!.resume();
  return child;
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await gone;
}

/** A redis-server of the tests' own on a free port, keeping nothing on disk unless asked for AOF. */
export async function startRedis(options: RedisOptions = {}): Promise<TestRedis> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'boardroom-redis-'));
  let child = await spawnRedis(port, dir, options);
  const clients: Redis[] = [];
  const url = `redis://127.0.0.1:${port}`;
  return {
    url,
    port,
    pid: () => child.pid,
    client() {
      const c = new Redis(url, { maxRetriesPerRequest: null });
      clients.push(c);
      return c;
    },
    async restartEmpty(downMs = 500) {
      await kill(child);
      await new Promise((r) => setTimeout(r, downMs));
      child = await spawnRedis(port, dir);
    },
    async kill() {
      await kill(child);
    },
    async start() {
      child = await spawnRedis(port, dir, options);
    },
    async stop() {
      for (const c of clients) c.disconnect();
      await kill(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
