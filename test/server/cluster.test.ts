import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { GameView, MovedEvent } from '../../shared/protocol/index.js';
import type { Boardroom } from '../../server/app.js';
import { botQueueOf, botQueuePrefixes } from '../../server/runtime/bot-queues.js';
import { BOT_QUEUE } from '../../server/runtime/bullmq-bot-turns.js';
import { connect, masterAddressOf, redisTarget } from '../../server/redis/connections.js';
import { RedisMoveRelay } from '../../server/socket/move-relay.js';
import { RedisStore } from '../../server/store/redis-store.js';
import { startRedisCluster, type TestRedisCluster } from '../support/redis-cluster.js';
import { ADMIN_TOKEN, Client, expectOk, startBotWorker, startServer } from '../support/server.js';
import { playRandomly, rulesAgree } from './play.js';

// Two web processes and a bot worker on a local Redis Cluster of three masters, each with a replica.
let cluster: TestRedisCluster;
let web: [Boardroom, Boardroom];
let worker: { close(): Promise<void> };
const clients: Client[] = [];
const PREFIX = 'onc';

beforeAll(async () => {
  cluster = await startRedisCluster();
  const env = { REDIS_CLUSTER: cluster.seeds.join(','), REDIS_PREFIX: PREFIX };
  web = [await startServer(env), await startServer(env)];
  worker = startBotWorker(cluster.seeds.join(','), PREFIX);
}, 90_000);
afterAll(async () => {
  for (const c of clients) c.close();
  for (const s of web ?? []) await s.close();
  await worker?.close();
  await cluster?.stop();
});

type Created = { gameId: string; seat: { color: 'black' | 'white'; token: string } | null; view: GameView };

async function client(server: Boardroom): Promise<Client> {
  const c = await new Client(server.url).connected();
  clients.push(c);
  return c;
}

/** A person on each web process, playing at random to the end; the final view as the mover saw it. */
async function humanGame(game: 'othello' | 'gomoku' | 'minichess'): Promise<GameView> {
  const ann = await client(web[0]);
  const bob = await client(web[1]);
  const created = expectOk(await ann.ask<Created>('room:create', { game, seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: 'Ann', color: 'random' } }));
  const joined = expectOk(await bob.ask<{ seat: { color: 'black' | 'white'; token: string }; view: GameView }>('room:join', { gameId: created.gameId, name: 'Bob' }));
  // Both play from the live view: a state of the waiting room that reached Ann first is no news
  // (playRandomly reads events already received, and would take it for a change).
  ann.events.length = 0;
  const [a, b] = await Promise.all([
    playRandomly(ann, created.gameId, created.seat!.token, created.seat!.color, joined.view),
    playRandomly(bob, created.gameId, joined.seat.token, joined.seat.color, joined.view),
  ]);
  expect(a.moves).toEqual(b.moves);
  return a;
}

async function botGame(): Promise<GameView> {
  const ann = await client(web[1]);
  const created = expectOk(await ann.ask<Created>('room:create', { game: 'othello', seats: { black: { kind: 'human' }, white: { kind: 'bot', bot: 'engine-1' } }, sit: { name: 'Ann', color: 'black' } }));
  return playRandomly(ann, created.gameId, created.seat!.token, 'black', created.view);
}

describe('Boardroom on a Redis Cluster', () => {
  it('plays people across two web processes and bots from the worker to the end, every acknowledged move stored, the games on every master', async () => {
    const games = await Promise.all([...Array.from({ length: 6 }, (_, i) => humanGame((['othello', 'gomoku', 'minichess'] as const)[i % 3]!)), botGame(), botGame()]);
    const store = new RedisStore(cluster.client(), `${PREFIX}:`);
    for (const view of games) {
      expect(view.status).toBe('finished');
      expect(rulesAgree(view)).toBe(true);
      expect((await store.get(view.id))?.moves).toEqual(view.moves);
    }
    const masters = new Set(await Promise.all(games.map(async (g) => (await cluster.masterOf(`${PREFIX}:game:{${g.id}}`)).port)));
    expect(masters.size).toBeGreaterThan(1);
  }, 180_000);

  it('spreads bot games over the three bot queues, one on each master, and the one worker plays them all', async () => {
    const prefixes = botQueuePrefixes(PREFIX, true);
    const watcher = await client(web[0]);
    // Games are made until each queue has one (a game's queue is its id's): five or six on average.
    const games: string[] = [];
    while (new Set(games.map((id) => botQueueOf(id, 3))).size < 3 && games.length < 30) {
      const created = expectOk(await watcher.ask<Created>('room:create', { game: 'minichess', seats: { black: { kind: 'bot', bot: 'engine-1' }, white: { kind: 'bot', bot: 'random' } } }));
      games.push(created.gameId);
    }
    const ends = await Promise.all(games.map((id) => watcher.waitFor<{ view: GameView }>('ended', (e) => e.view.id === id, 120_000)));
    for (const { view } of ends) expect(view.status).toBe('finished');
    const queues = prefixes.map((prefix) => new Queue(BOT_QUEUE, { connection: cluster.client(), prefix }));
    try {
      for (const id of games) {
        const ply = ends.find((e) => e.view.id === id)!.view.moves.length - 1;
        const holders = await Promise.all(queues.map(async (queue) => (await queue.getJob(`${id}-${ply}`)) !== undefined || (await queue.getJob(`${id}-${ply - 1}`)) !== undefined));
        expect(holders.map((held, i) => (held ? i : -1)).filter((i) => i >= 0)).toEqual([botQueueOf(id, 3)]);
      }
      const completed = await Promise.all(queues.map((queue) => queue.getJobCountByTypes('completed')));
      for (const count of completed) expect(count).toBeGreaterThan(0);
      const masters = new Set(await Promise.all(prefixes.map(async (prefix) => (await cluster.masterOf(`${prefix}:${BOT_QUEUE}:id`)).port)));
      expect(masters.size).toBe(3);
      // The admin's queue line counts the three queues' jobs.
      const stats = (await (await fetch(`${web[1].url}/admin/api/queue`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json()) as { queue: Record<string, number> };
      expect(stats.queue.completed).toBe(completed.reduce((a, b) => a + b, 0));
      // The dashboard shows the three, each by its prefix.
      const board = (await (await fetch(`${web[0].url}/admin/queues/api/queues`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json()) as { queues: { name: string }[] };
      expect(board.queues.map((q) => q.name).sort()).toEqual(prefixes.map((prefix) => `${prefix}:${BOT_QUEUE}`).sort());
    } finally {
      await Promise.all(queues.map((queue) => queue.close()));
    }
  }, 180_000);
});

describe('the move relay on a cluster', () => {
  it('sends each move on two channels of two masters, and another process delivers each once, in order', async () => {
    const target = redisTarget({ REDIS_URL: undefined, REDIS_CLUSTER: cluster.seeds.join(',') })!;
    const [pubA, subA, pubB, subB] = [connect(target, 'publisher'), connect(target, 'subscriber'), connect(target, 'publisher'), connect(target, 'subscriber')];
    try {
      const a = new RedisMoveRelay(pubA, subA, 'relay-test', 'a', true);
      const b = new RedisMoveRelay(pubB, subB, 'relay-test', 'b', true);
      const heard: number[] = [];
      await Promise.all([a.onMove(() => undefined), b.onMove((event) => heard.push(event.ply))]);
      if (pubA.status !== 'ready') await new Promise((resolve) => pubA.once('ready', resolve));
      const sent = vi.spyOn(pubA, 'spublish');
      const moved = (ply: number) => ({ gameId: 'relay-game', ply, move: 'f5', spentMs: 0, color: ply % 2 ? 'white' : 'black', clock: null, status: 'live', result: null, drawOffer: null }) as unknown as MovedEvent;
      for (let ply = 0; ply < 20; ply++) a.publish(moved(ply));
      for (let waited = 0; waited < 5000 && heard.length < 20; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise((resolve) => setTimeout(resolve, 200)); // any second copy has come by now
      expect(heard).toEqual(Array.from({ length: 20 }, (_, ply) => ply));
      const channels = [...new Set(sent.mock.calls.map(([channel]) => String(channel)))];
      expect(sent).toHaveBeenCalledTimes(40);
      expect(channels).toHaveLength(2);
      expect(masterAddressOf(pubA, channels[0]!)).not.toBe(masterAddressOf(pubA, channels[1]!));
    } finally {
      for (const connection of [pubA, subA, pubB, subB]) connection.disconnect();
    }
  });
});
