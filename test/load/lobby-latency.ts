import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import type { Ack, CreateRoom, LobbyQuery, RoomsPage } from '../../shared/protocol/index.js';
import { GAME_IDS } from '../../shared/rules.js';
import { createGame } from '../../server/games/game.js';
import { RedisStore } from '../../server/store/redis-store.js';
import type { GameStore } from '../../server/store/store.js';
import { connect, percentile } from './client.js';

const HELP = `Usage: npx tsx test/load/lobby-latency.ts [--url URL] [--redis REDIS_URL] [--prefix P] [--rooms N] [--samples S]

Writes N waiting rooms straight into the store (Redis at REDIS_URL under the server's REDIS_PREFIX),
then asks a running server for lobby pages over one player connection and prints the p99.

  --url URL        the server (default http://127.0.0.1:3000)
  --redis URL      its Redis (default redis://127.0.0.1:6379)
  --prefix P       its REDIS_PREFIX (default boardroom)
  --rooms N        waiting rooms to write first (default 10000; 0: none)
  --samples S      lobby pages to ask (default 500)`;

/** The seat kinds a seeded room mixes: a person waiting for a person, for a bot's opponent, for an agent. */
const SEATINGS: CreateRoom['seats'][] = [
  { black: { kind: 'human' }, white: { kind: 'human' } },
  { black: { kind: 'human' }, white: { kind: 'bot', bot: 'random' } },
  { black: { kind: 'agent' }, white: { kind: 'human' } },
  { black: { kind: 'agent' }, white: { kind: 'bot', bot: 'random' } },
];

/** Writes `count` waiting rooms through the store, mixed games, seats and ratings, made a ms apart from `since`. */
export async function seedWaitingRooms(store: GameStore, count: number, since = Date.now() - count, game?: (typeof GAME_IDS)[number]): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 200) {
    const batch = Array.from({ length: Math.min(200, count - start) }, (_, j) => {
      const i = start + j;
      const spec: CreateRoom = { game: game ?? GAME_IDS[i % GAME_IDS.length]!, options: {}, timeControl: { kind: 'per-move', moveMs: 30_000 }, seats: SEATINGS[i % SEATINGS.length]!, rated: i % 5 === 0 };
      const made = createGame(spec, () => true, since + i, { owner: `address:seed-${i}` });
      if (!made.ok) throw new Error(`${made.error.code}: ${made.error.message}`);
      return made.value;
    });
    await Promise.all(batch.map((room) => store.create(room)));
    ids.push(...batch.map((room) => room.id));
  }
  return ids;
}

/** Requests sent on one connection, below the server's default message rate (`RATE_LIMIT`, 100 in 10 s). */
const ASKS_PER_CONNECTION = 90;

/**
 * The 99th percentile, in ms, of `samples` lobby pages asked one after another over player
 * connections: the first page of the waiting rooms, each fifth filtered by game, each fifth by
 * open seat and opponent, each fifth by rating and open seat, and each third a later page (from
 * the cursor the first gave). A connection asks at most 90 pages, under the message rate, then
 * the next one takes over.
 */
export async function lobbyPageP99(url: string, samples: number): Promise<number> {
  let socket = await connect(url);
  let asked = 0;
  try {
    /** A fresh connection when this one has asked its share, before a timed request, so the handshake is not timed. */
    const ready = async (): Promise<void> => {
      if (asked < ASKS_PER_CONNECTION) return;
      socket.close();
      socket = await connect(url);
      asked = 0;
    };
    const ask = async (query: Partial<LobbyQuery>): Promise<RoomsPage> => {
      asked++;
      const ack = (await socket.timeout(10_000).emitWithAck('rooms:list', { status: 'open', ...query })) as Ack<RoomsPage>;
      if (!ack.ok) throw new Error(`rooms:list: ${ack.error.code} ${ack.error.message}`);
      return ack;
    };
    const queries = (i: number): Partial<LobbyQuery> => (i % 5 === 1 ? { game: GAME_IDS[i % GAME_IDS.length] } : i % 5 === 2 ? { open: 'human', vs: 'bot' } : i % 5 === 3 ? { rated: true, open: 'agent' } : {});
    for (let i = 0; i < 20; i++) await ready().then(() => ask(queries(i))); // warm up
    const times: number[] = [];
    for (let i = 0; i < samples; i++) {
      const query = queries(i);
      await ready();
      const first = i % 3 === 2 ? await ask(query) : undefined;
      await ready();
      const started = performance.now();
      await ask(first?.next ? { ...query, cursor: first.next } : query);
      times.push(performance.now() - started);
    }
    return percentile(times, 99);
  } finally {
    socket.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { url: { type: 'string' }, redis: { type: 'string' }, prefix: { type: 'string' }, rooms: { type: 'string' }, samples: { type: 'string' }, help: { type: 'boolean' } } });
  if (values.help) return void console.log(HELP);
  const rooms = Number(values.rooms ?? 10_000);
  if (rooms > 0) {
    const redis = new Redis(values.redis ?? 'redis://127.0.0.1:6379');
    await seedWaitingRooms(new RedisStore(redis, `${values.prefix ?? 'boardroom'}:`), rooms);
    await redis.quit();
  }
  const p99 = await lobbyPageP99(values.url ?? 'http://127.0.0.1:3000', Number(values.samples ?? 500));
  console.log(`lobby page p99 with ${rooms} waiting rooms written: ${p99.toFixed(1)} ms`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
