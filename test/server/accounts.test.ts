import { createHash } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GameView, SessionEnded, StoreEmptied } from '../../shared/protocol/index.js';
import { startBoardroom, type Boardroom } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { ADMIN_TOKEN, Client, expectOk, startServer, testEnv } from '../support/server.js';

// Accounts, sessions and names on a real Redis shared by two web processes.
let redis: TestRedis;
let web: [Boardroom, Boardroom];
const clients: Client[] = [];
const PREFIX = 'accounts';
beforeAll(async () => {
  redis = await startRedis();
  const env = { REDIS_URL: redis.url, REDIS_PREFIX: PREFIX, LOGIN_LIMIT: '100' };
  web = [await startServer(env), await startServer(env)];
});
afterAll(async () => {
  for (const c of clients) c.close();
  for (const s of web ?? []) await s.close();
  await redis?.stop();
});

let count = 0;
const uniqueName = (prefix: string): string => `${prefix}${++count}${Math.random().toString(36).slice(2, 6)}`;

async function post(server: Boardroom, path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any; cookie: string | undefined }> {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json(), cookie: res.headers.get('set-cookie')?.split(';')[0] };
}

async function signUp(server: Boardroom, name = uniqueName('p')): Promise<{ name: string; cookie: string }> {
  const made = await post(server, '/api/account/signup', { name, password: 'a good password' });
  expect(made.status).toBe(201);
  return { name, cookie: made.cookie! };
}

const newAgent = (server: Boardroom, name: string) => post(server, '/admin/api/agents', { name }, { authorization: `Bearer ${ADMIN_TOKEN}` });

function connect(server: Boardroom, namespace = '/', auth?: Record<string, string>, cookie?: string): Promise<Client> {
  const client = new Client(server.url, namespace, auth, cookie);
  clients.push(client);
  return client.connected();
}

const RATED_ROOM = { game: 'othello', rated: true, seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: 'ignored', color: 'black' } };
const sessionKey = (cookie: string): string => `${PREFIX}:session:${createHash('sha256').update(cookie.split('=')[1]!).digest('hex')}`;

describe('sessions', () => {
  it('a sign-out on one process ends the session on a connection opened before it on another: session:ended, then a guest', async () => {
    const [a, b] = web;
    const ada = await signUp(a);
    const socket = await connect(a, '/', undefined, ada.cookie);
    expectOk(await socket.ask('room:create', RATED_ROOM)); // signed in: a rated room is the account's

    expect((await post(b, '/api/account/signout', {}, { cookie: ada.cookie })).status).toBe(200);
    const ended = await socket.waitFor<SessionEnded>('session:ended', () => true, 5000);
    expect(ended.code).toBe('session/ended');
    const refused = await socket.ask('room:create', RATED_ROOM);
    expect(refused.ok ? undefined : refused.error.code).toBe('rating/needs_account');
    const seek = await socket.ask('seek', { game: 'gomoku', rated: true });
    expect(seek.ok ? undefined : seek.error.code).toBe('rating/needs_account');
    // As a guest it still plays casual games, under the name it gives.
    const casual = expectOk(await socket.ask<{ view: GameView }>('room:create', { ...RATED_ROOM, rated: false, sit: { name: 'Guest Ada', color: 'black' } }));
    expect(casual.view.seats.black.name).toBe('Guest Ada');
  });

  it('an expired session does not act as the account on a connection opened while it lived', async () => {
    const [a] = web;
    const bea = await signUp(a);
    const socket = await connect(a, '/', undefined, bea.cookie);
    await redis.client().pexpire(sessionKey(bea.cookie), 1); // the session runs out while the page is open
    await new Promise((r) => setTimeout(r, 20));
    const refused = await socket.ask('room:create', RATED_ROOM);
    expect(refused.ok ? undefined : refused.error.code).toBe('rating/needs_account');
    expect((await socket.waitFor<SessionEnded>('session:ended', () => true, 1000)).code).toBe('session/ended');
  });

  it('a rematch asks the session again: a page signed out since the game cannot start a rated rematch', async () => {
    const [a, b] = web;
    const [fay, gus] = [await signUp(a), await signUp(b)];
    const fays = await connect(a, '/', undefined, fay.cookie);
    const guss = await connect(b, '/', undefined, gus.cookie);
    const created = expectOk(await fays.ask<{ gameId: string; seat: { token: string } }>('room:create', RATED_ROOM));
    const joined = expectOk(await guss.ask<{ seat: { token: string } }>('room:join', { gameId: created.gameId, name: 'ignored' }));
    expectOk(await fays.ask('resign', { gameId: created.gameId, token: created.seat.token }));

    expect((await post(b, '/api/account/signout', {}, { cookie: fay.cookie })).status).toBe(200);
    await fays.waitFor<SessionEnded>('session:ended', () => true, 5000);
    const refused = await fays.ask('rematch', { gameId: created.gameId, token: created.seat.token });
    expect(refused.ok ? undefined : refused.error.code).toBe('rating/needs_account');
    // The one still signed in sits in it as the account.
    const again = expectOk(await guss.ask<{ gameId: string }>('rematch', { gameId: created.gameId, token: joined.seat.token }));
    const { view } = expectOk(await guss.ask<{ view: GameView }>('room:watch', { gameId: again.gameId }));
    expect(view.seats.black).toMatchObject({ name: gus.name, identity: 'person' });
  });
});

describe('one player, one seat of a rated room', () => {
  it('an account cannot take the second seat of a rated room from another connection or process: room/same_player', async () => {
    const [a, b] = web;
    const cy = await signUp(a);
    const first = await connect(a, '/', undefined, cy.cookie);
    const second = await connect(b, '/', undefined, cy.cookie);
    const created = expectOk(await first.ask<{ gameId: string }>('room:create', RATED_ROOM));
    const again = await second.ask('room:join', { gameId: created.gameId, name: 'ignored' });
    expect(again.ok ? undefined : again.error.code).toBe('room/same_player');
    // Another account takes it; a casual room may still be played against oneself.
    const dee = await signUp(b);
    expectOk(await (await connect(b, '/', undefined, dee.cookie)).ask('room:join', { gameId: created.gameId, name: 'ignored' }));
    const casual = expectOk(await first.ask<{ gameId: string }>('room:create', { ...RATED_ROOM, rated: false }));
    expectOk(await second.ask('room:join', { gameId: casual.gameId, name: 'ignored' }));
  });

  it('an agent cannot hold both seats of a rated room', async () => {
    const [a, b] = web;
    const made = await newAgent(a, uniqueName('solo-'));
    expect(made.status).toBe(201);
    const one = await connect(a, '/agent', { token: made.body.token });
    const created = expectOk(await one.ask<{ gameId: string }>('room:create', { game: 'gomoku', rated: true, seats: { black: { kind: 'agent' }, white: { kind: 'agent' } }, sit: { color: 'black' } }));
    const other = await connect(b, '/agent', { token: made.body.token });
    const again = await other.ask('room:join', { gameId: created.gameId });
    expect(again.ok ? undefined : again.error.code).toBe('room/same_player');
  });
});

describe('one namespace of names', () => {
  it('agent names are unique in any letter case, and shared with account names both ways', async () => {
    const [a, b] = web;
    const name = uniqueName('dup-name-');
    expect((await newAgent(a, name)).status).toBe(201);
    const upper = await newAgent(b, name.toUpperCase());
    expect(upper.status).toBe(409);
    expect(upper.body.error.code).toBe('agent/name_taken');
    const account = await post(b, '/api/account/signup', { name: name.toUpperCase(), password: 'a good password' });
    expect(account.status).toBe(409);
    expect(account.body.error.code).toBe('account/name_taken');
    const person = await signUp(a, uniqueName('Person-'));
    const agentAsPerson = await newAgent(b, person.name.toLowerCase());
    expect(agentAsPerson.body.error.code).toBe('agent/name_taken');
    // The profile finds the agent in any case, under its own name.
    const profile = (await (await fetch(`${a.url}/api/players/${name.toUpperCase()}`)).json()) as { name: string; kind: string };
    expect(profile).toMatchObject({ name, kind: 'agent' });
  });

  it("a bot's name is in the namespace in any letter case: no account or agent takes it, and its profile is found under the catalog's spelling", async () => {
    const [a, b] = web;
    const account = await post(a, '/api/account/signup', { name: 'Engine-2', password: 'a good password' });
    expect([account.status, account.body.error.code]).toEqual([409, 'account/name_taken']);
    const agent = await newAgent(b, 'RANDOM');
    expect([agent.status, agent.body.error?.code]).toEqual([409, 'agent/name_taken']);
    const profile = (await (await fetch(`${a.url}/api/players/ENGINE-1`)).json()) as { name: string; kind: string };
    expect(profile).toMatchObject({ name: 'engine-1', kind: 'bot' });
  });

  it('a challenge naming an agent in another letter case reaches it, and it takes the seat or declines', async () => {
    const [a, b] = web;
    const [challenger, challenged] = [uniqueName('hal-'), uniqueName('Iris-')];
    const [made, other] = [await newAgent(a, challenger), await newAgent(b, challenged)];
    const hal = await connect(a, '/agent', { token: made.body.token });
    const iris = await connect(b, '/agent', { token: other.body.token });
    for (const answer of ['join', 'decline'] as const) {
      const offered = expectOk(await hal.ask<{ gameId: string; view: GameView }>('challenge', { game: 'gomoku', color: 'black', opponent: { kind: 'agent', agent: challenged.toUpperCase() } }));
      expect(offered.view.seats.white.name).toBe(challenged);
      const offer = await iris.waitFor<{ gameId: string }>('challenge', (o) => o.gameId === offered.gameId, 5000);
      if (answer === 'join') expectOk(await iris.ask('room:join', { gameId: offer.gameId, color: 'white' }));
      else expectOk(await iris.ask('challenge:decline', { gameId: offer.gameId }));
    }
  });
});

describe('a store that came back empty', () => {
  it('says that accounts, sessions and ratings are gone, in the log and to the admin console, and ends the signed-in connections’ sessions', async () => {
    const own = await startRedis();
    const lines: string[] = [];
    const log = pino({ level: 'info' }, new Writable({ write: (chunk: Buffer, _encoding, done) => void (lines.push(chunk.toString()), done()) }));
    const server = await startBoardroom(loadConfig(testEnv({ REDIS_URL: own.url, REDIS_PREFIX: 'emptied' })), log);
    try {
      const eve = await signUp(server);
      const player = await connect(server, '/', undefined, eve.cookie);
      const admin = await connect(server, '/admin', { token: ADMIN_TOKEN });
      await own.client().flushall();
      const notice = await admin.waitFor<StoreEmptied>('store:emptied', () => true, 10_000);
      expect(notice.code).toBe('store/emptied');
      expect(notice.message).toMatch(/accounts/);
      const ended = await player.waitFor<SessionEnded>('session:ended', () => true, 2000);
      expect(ended.code).toBe('session/lost');
      const refused = await player.ask('room:create', RATED_ROOM);
      expect(refused.ok ? undefined : refused.error.code).toBe('rating/needs_account');
      expect(lines.some((line) => /came back empty/.test(line) && /accounts, sessions and ratings/.test(line))).toBe(true);
      // An admin who connects after it is told too.
      const late = await connect(server, '/admin', { token: ADMIN_TOKEN });
      expect(await late.waitFor<StoreEmptied>('store:emptied', () => true, 2000)).toEqual(notice);
    } finally {
      await server.close();
      await own.stop();
    }
  });
});
