import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectForAttach } from '../../bots/bridges/attach-connection.js';
import { attach, type AttachEvent } from '../../bots/bridges/attach.js';
import type { EngineBridge } from '../../bots/bridges/engine.js';
import type { GameView, RatingView, SeekPaired } from '../../shared/protocol/index.js';
import type { Boardroom } from '../../server/app.js';
import { freshRecord, rateGame } from '../../server/ratings/rating.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { ADMIN_TOKEN, Client, expectOk, startBotWorker, startServer } from '../support/server.js';

// One rating pool: accounts, rated games, quick pairing across processes, and the bot ladder,
// on a real Redis shared by two web processes (and BullMQ workers for the bots).
let redis: TestRedis;
let web: [Boardroom, Boardroom];
let worker: { close(): Promise<void> };
const clients: Client[] = [];
beforeAll(async () => {
  redis = await startRedis();
  const env = { REDIS_URL: redis.url, REDIS_PREFIX: 'rated', LOGIN_LIMIT: '3', BOT_THREADS: '4' };
  web = [await startServer(env), await startServer(env)];
  worker = startBotWorker(redis.url, 'rated');
});
afterAll(async () => {
  for (const c of clients) c.close();
  for (const s of web ?? []) await s.close();
  await worker?.close();
  await redis?.stop();
});

let count = 0;
const uniqueName = (prefix: string): string => `${prefix}${++count}${Math.random().toString(36).slice(2, 6)}`;

async function post(server: Boardroom, path: string, body: unknown, cookie?: string): Promise<{ status: number; body: any; cookie: string | undefined; setCookie: string | null }> {
  const res = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: JSON.stringify(body) });
  const setCookie = res.headers.get('set-cookie');
  return { status: res.status, body: await res.json(), cookie: setCookie?.split(';')[0], setCookie };
}

async function signUp(server: Boardroom, name = uniqueName('p')): Promise<{ name: string; cookie: string }> {
  const made = await post(server, '/api/account/signup', { name, password: 'a good password' });
  expect(made.status).toBe(201);
  return { name, cookie: made.cookie! };
}

function connect(server: Boardroom, cookie?: string): Promise<Client> {
  const client = new Client(server.url, '/', undefined, cookie);
  clients.push(client);
  return client.connected();
}

describe('accounts', () => {
  it('signs up, in and out with an HttpOnly SameSite session cookie; a wrong password is refused, then rate-limited', async () => {
    const [a, b] = web;
    const name = uniqueName('ada');
    const made = await post(a, '/api/account/signup', { name, password: 'correct horse' });
    expect(made.status).toBe(201);
    expect(made.setCookie).toMatch(/^boardroom_session=[\w-]{40,};/);
    expect(made.setCookie).toMatch(/HttpOnly/i);
    expect(made.setCookie).toMatch(/SameSite=Lax/i);
    expect(made.setCookie).not.toContain('correct');
    expect((await post(b, '/api/account/signup', { name: name.toUpperCase(), password: 'another one' })).body.error.code).toBe('account/name_taken');
    expect((await post(b, '/api/account/signup', { name: 'engine-3', password: 'another one' })).body.error.code).toBe('account/name_taken');
    // The session works on the other process too.
    const me = await fetch(`${b.url}/api/account`, { headers: { cookie: made.cookie! } });
    expect(((await me.json()) as any).account).toEqual({ name });
    expect((await post(b, '/api/account/signout', {}, made.cookie)).status).toBe(200);
    expect(((await (await fetch(`${a.url}/api/account`, { headers: { cookie: made.cookie! } })).json()) as any).account).toBeNull();

    const wrong = await post(a, '/api/account/signin', { name, password: 'wrong horse' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('auth/bad_credentials');
    expect((await post(a, '/api/account/signin', { name: 'nobody-here', password: 'wrong horse' })).body.error.code).toBe('auth/bad_credentials');
    expect((await post(b, '/api/account/signin', { name, password: 'correct horse' })).status).toBe(200); // the 2nd attempt for this name
    expect((await post(b, '/api/account/signin', { name, password: 'wrong again' })).status).toBe(401); // the 3rd
    const limited = await post(a, '/api/account/signin', { name, password: 'correct horse' }); // the 4th, on the other process
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('auth/rate_limited');
    expect(limited.body.error.retryAfterMs).toBeGreaterThan(0);
  });
});

describe('rated games', () => {
  it('a rated game between two accounts changes both ratings once, by Glicko-2, and the leaderboard and profiles show it, with the same rank', async () => {
    const [a, b] = web;
    const ann = await signUp(a);
    const bob = await signUp(b);
    const annSocket = await connect(a, ann.cookie);
    const bobSocket = await connect(b, bob.cookie);
    const created = expectOk(await annSocket.ask<{ gameId: string; seat: { token: string } }>('room:create', { game: 'othello', rated: true, seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: 'ignored', color: 'black' } }));
    // A guest cannot sit in a rated room.
    const guest = await connect(b);
    expect((await guest.ask('room:join', { gameId: created.gameId, name: 'Guest' })) as any).toMatchObject({ ok: false, error: { code: 'rating/needs_account' } });
    const joined = expectOk(await bobSocket.ask<{ seat: { token: string }; view: GameView }>('room:join', { gameId: created.gameId, name: 'ignored too' }));
    expect(joined.view.seats.black).toMatchObject({ name: ann.name, identity: 'person' });
    expect(joined.view.rated).toBe(true);
    expectOk(await annSocket.ask('move', { gameId: created.gameId, token: created.seat.token, ply: 0, move: 'f5' }));
    expectOk(await bobSocket.ask('move', { gameId: created.gameId, token: joined.seat.token, ply: 1, move: 'd6' }));
    const ended = bobSocket.waitFor<{ view: GameView }>('ended', (e) => e.view.id === created.gameId);
    // Both resign at once on two processes: the game ends once, and the ratings change once.
    await Promise.all([annSocket.ask('resign', { gameId: created.gameId, token: created.seat.token }), bobSocket.ask('resign', { gameId: created.gameId, token: joined.seat.token })]);
    const { view } = await ended;
    const fresh = (name: string) => freshRecord('othello', { kind: 'person', name });
    const expected = rateGame(fresh(ann.name), fresh(bob.name), view.result!.winner, 0);
    expect(view.ratingChange!.black.before).toBe(1500);
    expect(view.ratingChange!.black.after).toBeCloseTo(expected.black.rating, 6);
    expect(view.ratingChange!.white.after).toBeCloseTo(expected.white.rating, 6);
    expect(Math.abs(view.ratingChange!.black.after - 1500)).toBeGreaterThan(100); // a first game moves a 350-RD rating far

    const board = ((await (await fetch(`${b.url}/api/ratings/othello`)).json()) as { ratings: RatingView[] }).ratings;
    const annRow = board.find((r) => r.name === ann.name)!;
    expect(annRow).toMatchObject({ kind: 'person', games: 1, provisional: true, rating: Math.round(expected.black.rating) });
    expect(annRow.wins + annRow.losses).toBe(1);
    const profile = (await (await fetch(`${a.url}/api/players/${bob.name}`)).json()) as any;
    expect(profile).toMatchObject({ ok: true, name: bob.name, kind: 'person' });
    expect(profile.ratings.othello.games).toBe(1);
    expect(profile.ratings.othello.rank).toBe(board.findIndex((r) => r.name === bob.name) + 1);
    const annProfile = (await (await fetch(`${b.url}/api/players/${ann.name}`)).json()) as any;
    expect(annProfile.ratings.othello.rank).toBe(board.findIndex((r) => r.name === ann.name) + 1);
    expect(profile.recent[0]).toMatchObject({ id: created.gameId, rated: true });
    expect(((await (await fetch(`${a.url}/api/players/no-such-player`)).json()) as any).error.code).toBe('player/not_found');
  });
});

describe('quick pairing', () => {
  it('pairs two seekers connected to different processes, nearest ratings first', async () => {
    const [a, b] = web;
    const one = await connect(a, (await signUp(a)).cookie);
    const two = await connect(b, (await signUp(b)).cookie);
    const seek = { game: 'gomoku', timeControl: { kind: 'per-move', moveMs: 20_000 }, rated: true };
    expectOk(await one.ask('seek', seek));
    expectOk(await two.ask('seek', seek));
    const [p1, p2] = await Promise.all([one.waitFor<SeekPaired>('seek:paired'), two.waitFor<SeekPaired>('seek:paired')]);
    expect(p1.gameId).toBe(p2.gameId);
    expect(p1.seat.color).not.toBe(p2.seat.color);
    // Each takes its seat on its own connection, and plays.
    const black = p1.seat.color === 'black' ? [one, p1] as const : [two, p2] as const;
    expectOk(await black[0].ask('room:resume', { gameId: p1.gameId, token: black[1].seat.token }));
    expectOk(await black[0].ask('move', { gameId: p1.gameId, token: black[1].seat.token, ply: 0, move: 'h8' }));
    expect(p1.view.rated).toBe(true);
  });

  it('a guest cannot seek a rated game; a seek is cancelled with its connection', async () => {
    const [a] = web;
    const guest = await connect(a);
    expect(((await guest.ask('seek', { game: 'othello', rated: true })) as any).error.code).toBe('rating/needs_account');
    const sought = expectOk(await guest.ask<{ seekId: string }>('seek', { game: 'othello', rated: false, name: 'Gus' }));
    guest.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const other = await connect(a);
    expect(((await other.ask('seek:cancel', { seekId: sought.seekId })) as any).error.code).toBe('seek/not_found');
  });

  it('a seeker who chooses a bot plays the roster bot nearest its rating, rated', async () => {
    const [a] = web;
    const player = await connect(a, (await signUp(a)).cookie);
    const sought = expectOk(await player.ask<{ seekId: string }>('seek', { game: 'minichess', timeControl: { kind: 'per-move', moveMs: 10_000 }, rated: true }));
    const paired = expectOk(await player.ask<SeekPaired>('seek:bot', { seekId: sought.seekId }));
    const seats = [paired.view.seats.black, paired.view.seats.white];
    expect(seats.map((s) => s.kind).sort()).toEqual(['bot', 'human']);
    expect(paired.view.rated).toBe(true);
    expect(paired.view.status).toBe('live');
    expect(((await player.ask('seek:cancel', { seekId: sought.seekId })) as any).error.code).toBe('seek/not_found');
  });
});

/** An engine that plays the first legal move at once. */
const firstLegal = (): EngineBridge => ({ think: async (turn) => turn.legal[0]!, close: async () => undefined });

describe('the bot ladder', () => {
  it('pairs two attached agents and two roster bots in rated games, and the leaderboard lists all four with their kind', async () => {
    const [a, b] = web;
    const agents: string[] = [];
    const stops: (() => Promise<void>)[] = [];
    const events: AttachEvent[] = [];
    for (const server of [a, b]) {
      const name = uniqueName('ladder-agent-');
      const res = await fetch(`${server.url}/admin/api/agents`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` }, body: JSON.stringify({ name }) });
      const { token } = (await res.json()) as { token: string };
      const connection = await connectForAttach(server.url, token);
      agents.push(name);
      void attach(connection, { game: 'minichess', games: 2, play: 'ladder', newBridge: firstLegal, report: (event) => events.push(event) });
      stops.push(() => connection.close());
    }
    const set = await fetch(`${a.url}/admin/api/ladder`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` }, body: JSON.stringify({ game: 'minichess', bots: ['random', 'engine-1'], concurrent: 2 }) });
    expect(set.status).toBe(200);
    const everyone = [...agents, 'random', 'engine-1'];
    let board: RatingView[] = [];
    for (let waited = 0; waited < 90_000; waited += 500) {
      board = ((await (await fetch(`${b.url}/api/ratings/minichess`)).json()) as { ratings: RatingView[] }).ratings;
      if (everyone.every((name) => board.some((r) => r.name === name && r.games >= 2))) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await fetch(`${a.url}/admin/api/ladder`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` }, body: JSON.stringify({ game: 'minichess', bots: [], concurrent: 0 }) });
    for (const stop of stops) await stop();
    const kinds = Object.fromEntries(board.filter((r) => everyone.includes(r.name)).map((r) => [r.name, r.kind]));
    expect(kinds).toEqual({ [agents[0]!]: 'agent', [agents[1]!]: 'agent', random: 'bot', 'engine-1': 'bot' });
    for (const name of everyone) expect(board.find((r) => r.name === name)!.games).toBeGreaterThanOrEqual(2);
    // attach reports each rated end with our rating's change.
    const rated = events.filter((e) => e.event === 'ended' && e.plies >= 2);
    expect(rated.length).toBeGreaterThan(0);
    for (const e of rated) if (e.event === 'ended') expect(e.rating!.change).toBe(e.rating!.after - e.rating!.before);
  }, 120_000);

  it('answers a concurrent above the cap with the cap and why', async () => {
    const [a] = web;
    const configure = (concurrent: number) =>
      fetch(`${a.url}/admin/api/ladder`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` }, body: JSON.stringify({ game: 'gomoku', bots: [], concurrent }) }).then((res) => res.json() as Promise<any>);
    const capped = await configure(5);
    expect(capped.ladder).toMatchObject({ game: 'gomoku', concurrent: 2 });
    expect(capped.capped).toMatchObject({ asked: 5, max: 2 });
    expect(capped.capped.message).toMatch(/at most 2 .*half of the server's bot threads/);
    const within = await configure(2);
    expect(within.ladder.concurrent).toBe(2);
    expect(within.capped).toBeUndefined();
    await configure(0);
  });
});
