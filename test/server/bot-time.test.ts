import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameView, MovedEvent } from '../../shared/protocol/index.js';
import { freePort, startRedis, type TestRedis } from '../support/redis.js';
import { ADMIN_TOKEN, Client, expectOk, kill9, searching, spawnBuilt, startServer } from '../support/server.js';

// The time the platform loses on a bot's turn is the platform's to pay: a bot's answer that the
// platform delivers after its flag still counts, and a takeover after a worker died is given
// back to the bot's clock and left out of its move's time.
let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis({ appendfsync: 'always' });
});
afterAll(() => redis?.stop());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
type Seat = { gameId: string; color: 'black' | 'white'; token: string };

async function record(url: string, gameId: string): Promise<{ status: string; moves: string[]; moveMs: (number | null)[]; result: unknown }> {
  return (await (await fetch(`${url}/api/games/${gameId}`)).json()) as { status: string; moves: string[]; moveMs: (number | null)[]; result: unknown };
}

describe('a bot answer the platform delivers late', () => {
  it('the web process down from the bot’s turn until past its flag: the answer found on restart is played, the bot does not lose on time', async () => {
    const env = { REDIS_URL: redis.url, REDIS_PREFIX: 'late', PORT: String(await freePort()), RECONNECT_GRACE_MS: '60000' };
    let web = spawnBuilt('main', env);
    const url = `http://127.0.0.1:${await web.ready}`;
    const worker = spawnBuilt('worker', env);
    await worker.ready;
    const ann = await new Client(url).connected();
    const room = expectOk(await ann.ask<{ gameId: string; seat: Seat; view: GameView }>('room:create', {
      game: 'othello',
      timeControl: { kind: 'per-move', moveMs: 3000 },
      seats: { black: { kind: 'human' }, white: { kind: 'bot', bot: 'random' } },
      sit: { name: 'Ann', color: 'black' },
    }));
    // The bot's job is queued before Ann's move is acknowledged; the worker answers it at once,
    // while no web process hears the answer.
    expectOk(await ann.ask('move', { gameId: room.gameId, token: room.seat.token, ply: 0, move: 'f5' }));
    await kill9(web.child);
    ann.close();
    await sleep(4500);
    web = spawnBuilt('main', env);
    await web.ready;
    let game = await record(url, room.gameId);
    for (let waited = 0; waited < 10_000 && game.moves.length < 2 && game.status === 'live'; waited += 200) {
      await sleep(200);
      game = await record(url, room.gameId);
    }
    expect({ status: game.status, result: game.result, plies: game.moves.length }).toEqual({ status: 'live', result: null, plies: 2 });
    await kill9(web.child);
    await kill9(worker.child);
  }, 60_000);
});

describe('a bot worker killed during a search', () => {
  it('the takeover is credited: the bot’s move time and its bank leave out the time its job was lost', async () => {
    const env = { REDIS_URL: redis.url, REDIS_PREFIX: 'lost', BOT_THREADS: '1' };
    const server = await startServer(env);
    let worker = spawnBuilt('worker', env);
    await worker.ready;
    const admin = await new Client(server.url, '/admin', { token: ADMIN_TOKEN }).connected();
    const ann = await new Client(server.url).connected();
    const bank = 60_000; // the flag is far: nothing falls, the bot is given the time back anyway
    const room = expectOk(await ann.ask<{ gameId: string }>('room:create', {
      game: 'othello',
      timeControl: { kind: 'bank', initialMs: bank, incrementMs: 0 },
      seats: { black: { kind: 'bot', bot: 'engine-5' }, white: { kind: 'human' } },
      sit: { name: 'Ann', color: 'white' },
    }));
    const started = Date.now();
    await searching(admin, room.gameId);
    await sleep(Math.max(0, started + 1000 - Date.now()));
    await kill9(worker.child);
    await sleep(2000);
    worker = spawnBuilt('worker', env);
    await worker.ready;
    const moved = await ann.waitFor<MovedEvent>('moved', (e) => e.gameId === room.gameId, 30_000);
    const turnMs = Date.now() - started;
    // engine-5 searches 5 s; the turn took that plus the second searched in vain, the 2 s the
    // worker was down and the takeover.
    expect(turnMs).toBeGreaterThan(8000);
    expect(moved.spentMs).toBeLessThan(6500);
    expect(moved.clock.black).toBe(bank - moved.spentMs!);
    for (const c of [ann, admin]) c.close();
    await kill9(worker.child);
    await server.close();
  }, 60_000);
});
