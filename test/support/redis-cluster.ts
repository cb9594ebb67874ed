import { execFile, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Cluster, Redis } from 'ioredis';
import { freePort, spawnRedisServer } from './redis.js';

const run = promisify(execFile);

export interface ClusterNode {
  readonly port: number;
  /** SIGKILL: the node is gone; its replica takes its slots after `nodeTimeoutMs`. */
  kill(): Promise<void>;
  /** SIGSTOP, then SIGCONT: the process holds still (its sockets stay open) until `resume`. */
  pause(): void;
  resume(): void;
  /** What the node says it is now (INFO replication). */
  role(): Promise<'master' | 'replica'>;
  readonly alive: boolean;
}

export interface TestRedisCluster {
  /** `host:port` of every node, as REDIS_CLUSTER takes them. */
  readonly seeds: readonly string[];
  readonly nodes: readonly ClusterNode[];
  readonly nodeTimeoutMs: number;
  client(): Cluster;
  /** The node serving a key's slot as master now, asked of a live node. */
  masterOf(key: string): Promise<ClusterNode>;
  masters(): Promise<ClusterNode[]>;
  /** The node replicating `master` now (its first, by the master's INFO replication). */
  replicaOf(master: ClusterNode): Promise<ClusterNode>;
  /** Until every slot is served again (cluster_state:ok on every live node). */
  untilOk(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  readonly masters?: number;
  readonly replicasPerMaster?: number;
  readonly nodeTimeoutMs?: number;
  /**
   * `cluster-require-full-coverage`: by default a cluster refuses every command (CLUSTERDOWN)
   * while any slot has no master, from the moment a master is marked failed until its replica is
   * promoted; `false` keeps the other masters serving meanwhile.
   */
  readonly requireFullCoverage?: boolean;
}

/**
 * A node on a free port with its cluster bus on another (by default the bus is the port + 10,000,
 * which may be taken, or past 65,535); a server that ends as it starts is started again on other ports.
 */
async function spawnNode(dir: string, nodeTimeoutMs: number, requireFullCoverage: boolean): Promise<{ port: number; child: ChildProcess }> {
  mkdirSync(dir, { recursive: true });
  const coverage = ['--cluster-require-full-coverage', requireFullCoverage ? 'yes' : 'no'];
  for (let tries = 1; ; tries++) {
    const [port, bus] = [await freePort(), await freePort()];
    try {
      const child = await spawnRedisServer(port, ['--appendonly', 'no', '--dir', dir, '--cluster-enabled', 'yes', '--cluster-port', String(bus), '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', String(nodeTimeoutMs), ...coverage]);
      return { port, child };
    } catch (error) {
      // A server that ends as it starts (most often: a port taken between the choice and the start) goes again on other ports.
      if (tries >= 3 || !String(error).includes('exited with')) throw error;
    }
  }
}

async function info(port: number, section: string): Promise<string> {
  const redis = new Redis(port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    return section === 'cluster' ? await redis.cluster('INFO') as string : await redis.info(section);
  } finally {
    redis.disconnect();
  }
}

/**
 * A Redis Cluster of the tests' own: masters with replicas of `redis-server --cluster-enabled yes`
 * on free ports, joined by `redis-cli --cluster create`, keeping nothing on disk.
 */
export async function startRedisCluster(options: ClusterOptions = {}): Promise<TestRedisCluster> {
  const { masters = 3, replicasPerMaster = 1, nodeTimeoutMs = 1000, requireFullCoverage = true } = options;
  const root = mkdtempSync(join(tmpdir(), 'boardroom-cluster-'));
  const started = await Promise.all(Array.from({ length: masters * (1 + replicasPerMaster) }, (_, i) => spawnNode(join(root, String(i)), nodeTimeoutMs, requireFullCoverage)));
  const ports = started.map((node) => node.port);
  const children = started.map((node) => node.child);
  const seeds = ports.map((port) => `127.0.0.1:${port}`);
  await run('redis-cli', ['--cluster', 'create', ...seeds, '--cluster-replicas', String(replicasPerMaster), '--cluster-yes']);
  const nodes: ClusterNode[] = ports.map((port, i) => ({
    port,
    get alive() {
      return children[i]!.exitCode === null && children[i]!.signalCode === null;
    },
    async kill() {
      const child = children[i]!;
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await gone;
    },
    pause() {
      children[i]!.kill('SIGSTOP');
    },
    resume() {
      children[i]!.kill('SIGCONT');
    },
    async role() {
      return (await info(port, 'replication')).includes('role:master') ? 'master' : 'replica';
    },
  }));
  const clients: Cluster[] = [];
  const live = () => nodes.filter((n) => n.alive);

  async function untilOk(timeoutMs = 20_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const states = await Promise.all(live().map((n) => info(n.port, 'cluster').catch(() => '')));
      if (states.every((s) => s.includes('cluster_state:ok'))) {
        const known = await slotTable();
        // Every node agrees, and every slot's master is alive.
        if (known.every((range) => live().some((n) => n.port === range.port))) return;
      }
      if (Date.now() > until) throw new Error(`the cluster is not ok after ${timeoutMs} ms:\n${states.join('\n')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** A replica that never synced will not take over its master: wait for every link. */
  async function untilReplicasSynced(timeoutMs = 20_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const roles = await Promise.all(live().map((n) => info(n.port, 'replication')));
      const shown = await slotTable(true);
      if (roles.every((r) => r.includes('role:master') || r.includes('master_link_status:up')) && shown.every((range) => range.replicas > 0)) return;
      if (Date.now() > until) throw new Error(`the replicas did not sync after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function slotTable(withReplicas = false): Promise<{ from: number; to: number; port: number; replicas: number }[]> {
    const asker = new Redis(live()[0]!.port, '127.0.0.1', { maxRetriesPerRequest: 0 });
    try {
      const slots = await asker.cluster('SLOTS');
      return slots.map(([from, to, master, ...replicas]) => ({ from, to, port: master![1], replicas: withReplicas ? replicas.length : 0 }));
    } finally {
      asker.disconnect();
    }
  }

  await untilOk();
  await untilReplicasSynced();
  const { default: slotOf } = await import('cluster-key-slot');
  return {
    seeds,
    nodes,
    nodeTimeoutMs,
    client() {
      const c = new Cluster(seeds.map((seed) => ({ host: '127.0.0.1', port: Number(seed.split(':')[1]) })), { redisOptions: { maxRetriesPerRequest: null } });
      clients.push(c);
      return c;
    },
    async masterOf(key: string) {
      const slot = slotOf(key);
      const range = (await slotTable()).find((r) => r.from <= slot && slot <= r.to)!;
      return nodes.find((n) => n.port === range.port)!;
    },
    async masters() {
      const ports = new Set((await slotTable()).map((r) => r.port));
      return nodes.filter((n) => ports.has(n.port));
    },
    async replicaOf(master: ClusterNode) {
      const port = Number(/slave0:ip=[^,]+,port=(\d+)/.exec(await info(master.port, 'replication'))?.[1]);
      const replica = nodes.find((n) => n.port === port);
      if (!replica) throw new Error(`the master on ${master.port} has no replica`);
      return replica;
    },
    untilOk,
    async stop() {
      for (const c of clients) c.disconnect();
      await Promise.all(nodes.map((n) => n.kill()));
      rmSync(root, { recursive: true, force: true });
    },
  };
}
