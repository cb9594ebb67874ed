import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameView, SeekPaired } from '../../shared/protocol/index.js';
import type { Boardroom } from '../../server/app.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { Client, expectOk, startServer } from '../support/server.js';

// Quick pairing must reach both seekers: two who seek at the same moment are paired by the second
// seek's own try, before its answer, and both hear it and play; a seeker no connection waits on is
// not seated, and one whose connection goes before it takes its seat is away.
const ROUNDS = 20;
const SEEK = { game: 'gomoku', timeControl: { kind: 'per-move', moveMs: 30_000 }, rated: true };

let redis: TestRedis;
const servers: Boardroom[] = [];
const clients: Client[] = [];
beforeAll(async () => {
  redis = await startRedis();
  const env = { REDIS_URL: redis.url, REDIS_PREFIX: 'pairing' };
  servers.push(await startServer(env), await startServer(env), await startServer());
});
afterAll(async () => {
  for (const c of clients) c.close();
  for (const s of servers) await s.close();
  await redis?.stop();
});

let count = 0;
async function signedUpClient(server: Boardroom): Promise<Client> {
  const name = `seeker${++count}${Math.random().toString(36).slice(2, 6)}`;
  const res = await fetch(`${server.url}/api/account/signup`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, password: 'a good password' }) });
  expect(res.status).toBe(201);
  const client = new Client(server.url, '/', undefined, res.headers.get('set-cookie')!.split(';')[0]);
  clients.push(client);
  return client.connected();
}

/** Both seek at once; both must hear `seek:paired` for one game and play a move in it. */
async function seekTogether(oneServer: Boardroom, twoServer: Boardroom): Promise<void> {
  const one = await signedUpClient(oneServer);
  const two = await signedUpClient(twoServer);
  const [seekOne, seekTwo] = await Promise.all([one.ask<{ seekId: string }>('seek', SEEK), two.ask<{ seekId: string }>('seek', SEEK)]);
  await playPaired([one, expectOk(seekOne).seekId], [two, expectOk(seekTwo).seekId]);
  one.close();
  two.close();
}

/** Both seekers hear `seek:paired` for one game, take their seats, play a move each, and black wins by resignation. */
async function playPaired([one, idOne]: [Client, string], [two, idTwo]: [Client, string]): Promise<void> {
  const ids = [idOne, idTwo];
  const [p1, p2] = await Promise.all([one.waitFor<SeekPaired>('seek:paired', (p) => p.seekId === ids[0], 5000), two.waitFor<SeekPaired>('seek:paired', (p) => p.seekId === ids[1], 5000)]);
  expect(p1.gameId).toBe(p2.gameId);
  expect([p1.seat.color, p2.seat.color].sort()).toEqual(['black', 'white']);
  const [black, white] = p1.seat.color === 'black' ? [[one, p1] as const, [two, p2] as const] : [[two, p2] as const, [one, p1] as const];
  for (const [client, paired] of [black, white]) expectOk(await client.ask('room:resume', { gameId: paired.gameId, token: paired.seat.token }));
  expectOk(await black[0].ask('move', { gameId: p1.gameId, token: black[1].seat.token, ply: 0, move: 'h8' }));
  expectOk(await white[0].ask('move', { gameId: p1.gameId, token: white[1].seat.token, ply: 1, move: 'h9' }));
  const ended = black[0].waitFor<{ view: GameView }>('ended', (e) => e.view.id === p1.gameId);
  expectOk(await white[0].ask('resign', { gameId: p1.gameId, token: white[1].seat.token }));
  expect((await ended).view.result?.winner).toBe('black');
}

describe('quick pairing reaches its seekers', () => {
  it(`two seeking at the same moment, Redis mode, on two processes: both hear seek:paired and play, ${ROUNDS} times in ${ROUNDS}`, async () => {
    for (let round = 0; round < ROUNDS; round++) await seekTogether(servers[0]!, servers[1]!);
  }, 120_000);

  it(`two seeking at the same moment, embedded mode: both hear seek:paired and play, ${ROUNDS} times in ${ROUNDS}`, async () => {
    for (let round = 0; round < ROUNDS; round++) await seekTogether(servers[2]!, servers[2]!);
  }, 120_000);

  it('a seek no connection waits on any longer is dropped from the pool, not paired; the seeker waiting still meets the next', async () => {
    const pool = redis.client();
    const one = await signedUpClient(servers[0]!);
    const sought = expectOk(await one.ask<{ seekId: string }>('seek', SEEK));
    // A seek left in the pool by a connection that is gone, on a live process (its cancel lost the race).
    const seek = JSON.parse((await pool.hget('pairing:seeks', sought.seekId))!);
    const ghost = { ...seek, id: 'ghost-seek', account: 'ghost', name: 'ghost' };
    await pool.hset('pairing:seeks', ghost.id, JSON.stringify(ghost));
    while (await pool.hexists('pairing:seeks', ghost.id)) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(one.events.filter((e) => e.event === 'seek:paired')).toEqual([]);
    expect(await pool.hexists('pairing:seeks', sought.seekId)).toBe(1);

    const two = await signedUpClient(servers[1]!);
    await playPaired([one, sought.seekId], [two, expectOk(await two.ask<{ seekId: string }>('seek', SEEK)).seekId]);
  }, 30_000);

  it('a connection whose seek was paired seeks again, and is paired again', async () => {
    const one = await signedUpClient(servers[0]!);
    const two = await signedUpClient(servers[1]!);
    const casual = { ...SEEK, rated: false }; // a rated first game would set their ratings too far apart to meet at once
    for (let round = 0; round < 2; round++) {
      const idOne = expectOk(await one.ask<{ seekId: string }>('seek', casual)).seekId;
      await playPaired([one, idOne], [two, expectOk(await two.ask<{ seekId: string }>('seek', casual)).seekId]);
    }
  }, 30_000);

  it('a seeker whose connection goes after its pairing, before it takes the seat, is away at once, not present while its clock runs', async () => {
    const one = await signedUpClient(servers[0]!);
    const two = await signedUpClient(servers[1]!);
    const idOne = expectOk(await one.ask<{ seekId: string }>('seek', SEEK)).seekId;
    const idTwo = expectOk(await two.ask<{ seekId: string }>('seek', SEEK)).seekId;
    const paired = await one.waitFor<SeekPaired>('seek:paired', (p) => p.seekId === idOne, 5000);
    const gone = (await two.waitFor<SeekPaired>('seek:paired', (p) => p.seekId === idTwo, 5000)).seat.color;
    expectOk(await one.ask('room:resume', { gameId: paired.gameId, token: paired.seat.token }));
    two.close();
    const away = await one.waitFor<GameView>('state', (v) => v.id === paired.gameId && !v.seats[gone].connected, 5000);
    expect(away.status).toBe('live');
  }, 30_000);
});
