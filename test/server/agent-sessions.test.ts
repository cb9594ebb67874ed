import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ack, AgentTurn, GameView, RoomSummary } from '../../shared/protocol/index.js';
import type { Boardroom } from '../../server/app.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { ADMIN_TOKEN, Client, expectOk, startServer } from '../support/server.js';

// Agents as the platform's players: paced by their turns, not a message budget; one connection
// each; resigning and drawing like people; and a flag that falls whatever they do.
let redis: TestRedis;
const servers: Boardroom[] = [];
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  for (const s of servers) await s.close();
  await redis?.stop();
});

async function serve(env: Record<string, string>): Promise<Boardroom> {
  const server = await startServer(env);
  servers.push(server);
  return server;
}

let agentCount = 0;
async function newAgent(server: Boardroom, prefix: string): Promise<{ name: string; token: string }> {
  const name = `${prefix}-${++agentCount}`;
  const res = await fetch(`${server.url}/admin/api/agents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify({ name }),
  });
  expect(res.status).toBe(201);
  return { name, token: ((await res.json()) as { token: string }).token };
}

async function connectAgent(server: Boardroom, token: string): Promise<Client> {
  return new Client(server.url, '/agent', { token }).connected();
}

/** A room between two agents, made by the first (which sits as black); the second joins. */
async function agentGame(a: Client, b: Client, game: string, timeControl: object): Promise<string> {
  const created = expectOk(await a.ask<{ gameId: string }>('room:create', { game, timeControl, seats: { black: { kind: 'agent' }, white: { kind: 'agent' } }, sit: { color: 'black' } }));
  expectOk(await b.ask('room:join', { gameId: created.gameId }));
  return created.gameId;
}

/** A room with Ann (a person, black, already seated) against the agent `agent` (white). */
async function annAgainst(ann: Client, agent: string, game: string, timeControl?: object): Promise<{ gameId: string; seat: { token: string } }> {
  return expectOk(await ann.ask<{ gameId: string; seat: { token: string } }>('room:create', { game, ...(timeControl ? { timeControl } : {}), seats: { black: { kind: 'human' }, white: { kind: 'agent', agent } }, sit: { name: 'Ann', color: 'black' } }));
}

describe('agents at full speed', () => {
  it('an agent playing five games at once at full speed is never refused a move on its own turn', async () => {
    const server = await serve({ REDIS_URL: redis.url, REDIS_PREFIX: 'fast', RATE_LIMIT: '100' });
    const [x, y] = [await newAgent(server, 'fast'), await newAgent(server, 'fast')];
    const a = await connectAgent(server, x.token);
    const b = await connectAgent(server, y.token);
    const acks: Ack<unknown>[] = [];
    for (const agent of [a, b]) {
      agent.socket.on('turn', (turn: AgentTurn) => void agent.ask('move', { gameId: turn.gameId, ply: turn.ply, move: turn.legal[0] }).then((ack) => acks.push(ack), () => undefined));
    }
    const ids = await Promise.all(Array.from({ length: 5 }, () => agentGame(a, b, 'othello', { kind: 'none' })));
    const ends = await Promise.all(ids.map((id) => a.waitFor<{ view: GameView }>('ended', (e) => e.view.id === id, 60_000)));
    expect(ends.map((e) => e.view.result?.reason).every((r) => r === 'no-moves' || r === 'board-full')).toBe(true);
    const moves = ends.reduce((n, e) => n + e.view.moves.length, 0);
    expect(moves).toBeGreaterThan(200); // well past the 100 messages a connection may send in 10 s
    expect(acks.filter((ack) => !ack.ok)).toEqual([]);
    a.close();
    b.close();
  });

  it('a refused move says when to send it again', async () => {
    const server = await serve({ RATE_LIMIT: '5' });
    const x = await newAgent(server, 'pushy');
    const agent = await connectAgent(server, x.token);
    const acks = await Promise.all(Array.from({ length: 8 }, () => agent.ask('move', { gameId: 'nope', ply: 0, move: 'f5' })));
    const limited = acks.filter((ack) => !ack.ok && ack.error.code === 'rate/limited');
    expect(limited.length).toBeGreaterThan(0);
    for (const ack of limited) if (!ack.ok) expect(ack.error.retryAfterMs).toBeGreaterThan(0);
    agent.close();
  });
});

describe.each(['embedded', 'redis'])('flags between agents (%s)', (mode) => {
  it('two agents on a 1 s per-move clock that sometimes do not answer never leave a game live past its flag', async () => {
    const server = await serve({ ...(mode === 'redis' ? { REDIS_URL: redis.url, REDIS_PREFIX: 'flags' } : {}), RATE_LIMIT: '100' });
    const [x, y] = [await newAgent(server, 'flaky'), await newAgent(server, 'flaky')];
    const a = await connectAgent(server, x.token);
    const b = await connectAgent(server, y.token);
    const silentAt = new Map<string, number>();
    let turns = 0;
    for (const agent of [a, b]) {
      agent.socket.on('turn', (turn: AgentTurn) => {
        // Every game goes silent at some turn of its own (from the 3rd to the 12th): the mover just never answers.
        if (silentAt.has(turn.gameId)) return;
        if (turn.ply >= 2 + (++turns % 11)) return void silentAt.set(turn.gameId, Date.now());
        void agent.ask('move', { gameId: turn.gameId, ply: turn.ply, move: turn.legal[turn.ply % turn.legal.length] }).catch(() => undefined);
      });
    }
    const ids = await Promise.all(Array.from({ length: 6 }, () => agentGame(a, b, 'gomoku', { kind: 'per-move', moveMs: 1000 })));
    const ends = await Promise.all(ids.map((id) => a.waitFor<{ view: GameView }>('ended', (e) => e.view.id === id, 20_000).then((e) => ({ e, at: Date.now() }))));
    for (const { e, at } of ends) {
      expect(e.view.result?.reason).toBe('timeout');
      expect(at - silentAt.get(e.view.id)!).toBeLessThan(1000 + 2500);
    }
    a.close();
    b.close();
  });
});

describe('agent sessions', () => {
  let server: Boardroom;
  beforeAll(async () => {
    server = await serve({ REDIS_URL: redis.url, REDIS_PREFIX: 'sessions', RECONNECT_GRACE_MS: '1500' });
  });

  it('an agent that listed the rooms hears rooms:changed', async () => {
    const x = await newAgent(server, 'lister');
    const agent = await connectAgent(server, x.token);
    expectOk(await agent.ask('rooms:list', { status: 'open' }));
    const host = await new Client(server.url).connected();
    const created = expectOk(await host.ask<{ gameId: string }>('room:create', { game: 'gomoku', seats: { black: { kind: 'human' }, white: { kind: 'agent' } }, sit: { name: 'Ann', color: 'black' } }));
    const changed = await agent.waitFor<RoomSummary>('rooms:changed', (s) => s.id === created.gameId, 5000);
    expect(changed.seats.white.kind).toBe('agent');
    agent.close();
    host.close();
  });

  it('a second connection with the same token takes over: the first is told and closed, turns go to the second only', async () => {
    const x = await newAgent(server, 'twin');
    const first = await connectAgent(server, x.token);
    const host = await new Client(server.url).connected();
    const created = await annAgainst(host, x.name, 'othello');
    expectOk(await first.ask('room:join', { gameId: created.gameId }));
    const second = await connectAgent(server, x.token);
    await first.waitFor('session:replaced', () => true, 5000);
    await new Promise<void>((resolve) => (first.socket.connected ? first.socket.once('disconnect', () => resolve()) : resolve()));
    expectOk(await host.ask('move', { gameId: created.gameId, token: created.seat.token, ply: 0, move: 'f5' }));
    const turn = await second.waitFor<AgentTurn>('turn', (t) => t.gameId === created.gameId && t.ply === 1, 5000);
    expect(first.events.some((e) => e.event === 'turn' && (e.data as AgentTurn).ply === 1)).toBe(false);
    expectOk(await second.ask('move', { gameId: created.gameId, ply: 1, move: turn.legal[0] }));
    const view = expectOk(await host.ask<{ view: GameView }>('room:watch', { gameId: created.gameId })).view;
    expect(view.seats.white.connected).toBe(true); // the takeover did not leave the seat away
    second.close();
    host.close();
  });

  it('an agent resigns, offers, accepts and declines draws', async () => {
    const x = await newAgent(server, 'polite');
    const agent = await connectAgent(server, x.token);
    const ann = await new Client(server.url).connected();
    const room = async () => {
      const created = await annAgainst(ann, x.name, 'gomoku');
      expectOk(await agent.ask('room:join', { gameId: created.gameId }));
      return { gameId: created.gameId, token: created.seat.token };
    };
    const one = await room();
    expectOk(await agent.ask('draw:offer', { gameId: one.gameId }));
    expect((await ann.waitFor<GameView>('state', (v) => v.id === one.gameId && v.drawOffer === 'white')).drawOffer).toBe('white');
    expectOk(await ann.ask('draw:decline', { gameId: one.gameId, token: one.token }));
    expectOk(await ann.ask('draw:offer', { gameId: one.gameId, token: one.token }));
    expect(await agent.ask('draw:accept', { gameId: 'nope' })).toMatchObject({ ok: false, error: { code: 'room/not_found' } });
    expectOk(await agent.ask('draw:decline', { gameId: one.gameId }));
    expectOk(await ann.ask('draw:offer', { gameId: one.gameId, token: one.token }));
    expectOk(await agent.ask('draw:accept', { gameId: one.gameId }));
    const drawn = await ann.waitFor<{ view: GameView }>('ended', (e) => e.view.id === one.gameId);
    expect(drawn.view.result).toEqual({ winner: null, reason: 'agreement' });
    const two = await room();
    expectOk(await agent.ask('resign', { gameId: two.gameId }));
    const resigned = await ann.waitFor<{ view: GameView }>('ended', (e) => e.view.id === two.gameId);
    expect(resigned.view.result).toEqual({ winner: 'black', reason: 'resignation' });
    agent.close();
    ann.close();
  });

  it('an agent whose connection is gone loses by abandonment after the grace, in a game with no clock', async () => {
    const x = await newAgent(server, 'leaver');
    const agent = await connectAgent(server, x.token);
    const ann = await new Client(server.url).connected();
    const created = await annAgainst(ann, x.name, 'gomoku', { kind: 'none' });
    expectOk(await agent.ask('room:join', { gameId: created.gameId }));
    // Both sides move first: a side that leaves before then aborts the game instead.
    expectOk(await ann.ask('move', { gameId: created.gameId, token: created.seat.token, ply: 0, move: 'h8' }));
    expectOk(await agent.ask('move', { gameId: created.gameId, ply: 1, move: 'a1' }));
    agent.close();
    const away = await ann.waitFor<GameView>('state', (v) => v.id === created.gameId && !v.seats.white.connected, 5000);
    expect(away.status).toBe('live');
    const ended = await ann.waitFor<{ view: GameView }>('ended', (e) => e.view.id === created.gameId, 10_000);
    expect(ended.view.result).toEqual({ winner: 'black', reason: 'abandonment' });
    ann.close();
  });

  it('an agent whose connection is gone before it has made its first move aborts the game after the grace: no winner', async () => {
    const x = await newAgent(server, 'early-leaver');
    const agent = await connectAgent(server, x.token);
    const ann = await new Client(server.url).connected();
    const created = await annAgainst(ann, x.name, 'gomoku', { kind: 'none' });
    expectOk(await agent.ask('room:join', { gameId: created.gameId }));
    expectOk(await ann.ask('move', { gameId: created.gameId, token: created.seat.token, ply: 0, move: 'h8' }));
    agent.close();
    const ended = await ann.waitFor<{ view: GameView }>('ended', (e) => e.view.id === created.gameId, 10_000);
    expect(ended.view.result).toMatchObject({ winner: null, reason: 'aborted' });
    ann.close();
  });

  it('an agent makes a room and sits in it; rooms naming unknown or other agents are refused with their own codes', async () => {
    const x = await newAgent(server, 'maker');
    const other = await newAgent(server, 'other');
    const agent = await connectAgent(server, x.token);
    const made = expectOk(await agent.ask<{ gameId: string; seat: { color: string; token?: string }; view: GameView }>('room:create', { game: 'minichess', seats: { black: { kind: 'human' }, white: { kind: 'agent' } }, sit: { color: 'white' } }));
    expect(made.seat).toEqual({ gameId: made.gameId, color: 'white' });
    expect(made.view.seats.white.name).toBe(x.name);
    const ghost = await agent.ask('room:create', { game: 'othello', seats: { black: { kind: 'human' }, white: { kind: 'agent', agent: 'no-such-agent' } } });
    expect(ghost).toMatchObject({ ok: false, error: { code: 'room/bad_seat' } });
    const reserved = expectOk(await agent.ask<{ gameId: string }>('room:create', { game: 'othello', seats: { black: { kind: 'human' }, white: { kind: 'agent', agent: other.name } } }));
    const refused = await agent.ask('room:join', { gameId: reserved.gameId, color: 'white' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'room/reserved', message: `The white seat is reserved for the agent ${other.name}.` } });
    const twice = await fetch(`${server.url}/admin/api/agents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
      body: JSON.stringify({ name: x.name }),
    });
    expect(twice.status).toBe(409);
    expect(await twice.json()).toMatchObject({ ok: false, error: { code: 'agent/name_taken' } });
    agent.close();
  });

  it('an agent challenges a bot, a person and another agent, which accepts one challenge and declines another', async () => {
    const x = await newAgent(server, 'challenger');
    const y = await newAgent(server, 'challenged');
    const a = await connectAgent(server, x.token);
    const b = await connectAgent(server, y.token);
    const vsBot = expectOk(await a.ask<{ gameId: string; seat: { color: string }; view: GameView }>('challenge', { game: 'othello', color: 'black', opponent: { kind: 'bot', bot: 'engine-1' } }));
    expect(vsBot.view.status).toBe('live');
    expect(vsBot.view.seats.white).toMatchObject({ kind: 'bot', name: 'engine-1' });
    expect((await a.waitFor<AgentTurn>('turn', (t) => t.gameId === vsBot.gameId)).ply).toBe(0);
    const open = expectOk(await a.ask<{ gameId: string; view: GameView }>('challenge', { game: 'gomoku', color: 'white', opponent: { kind: 'open' } }));
    expect(open.view.seats.black).toMatchObject({ kind: 'human', name: null });
    const ann = await new Client(server.url).connected();
    expect(expectOk(await ann.ask<{ view: GameView }>('room:join', { gameId: open.gameId, name: 'Ann' })).view.status).toBe('live');
    const offered = expectOk(await a.ask<{ gameId: string }>('challenge', { game: 'minichess', color: 'white', opponent: { kind: 'agent', agent: y.name } }));
    const offer = await b.waitFor<{ gameId: string; from: string; color: string }>('challenge', (o) => o.gameId === offered.gameId, 5000);
    expect(offer).toMatchObject({ from: x.name, color: 'black', game: 'minichess' });
    expect(expectOk(await b.ask<{ view: GameView }>('room:join', { gameId: offer.gameId })).view.status).toBe('live');
    const declined = expectOk(await a.ask<{ gameId: string }>('challenge', { game: 'othello', opponent: { kind: 'agent', agent: y.name } }));
    expect(await a.ask('challenge:decline', { gameId: declined.gameId })).toMatchObject({ ok: false, error: { code: 'challenge/not_found' } });
    expectOk(await b.ask('challenge:decline', { gameId: declined.gameId }));
    expect(await a.waitFor<{ gameId: string; by: string }>('challenge:declined', (e) => e.gameId === declined.gameId, 5000)).toMatchObject({ by: y.name });
    const view = expectOk(await ann.ask<{ view: GameView }>('room:watch', { gameId: declined.gameId })).view;
    expect(view).toMatchObject({ status: 'finished', result: { winner: null, reason: 'declined' } });
    expect(await a.ask('challenge', { game: 'othello', opponent: { kind: 'agent', agent: x.name } })).toMatchObject({ ok: false, error: { code: 'room/bad_seat' } });
    expect(await a.ask('challenge', { game: 'othello', opponent: { kind: 'agent', agent: 'nobody-here' } })).toMatchObject({ ok: false, error: { code: 'room/bad_seat' } });
    for (const c of [a, b, ann]) c.close();
  });

  it('the admin rotates an agent token (the old one and its connections stop) and revokes it', async () => {
    const x = await newAgent(server, 'rotated');
    const before = await connectAgent(server, x.token);
    const admin = (path: string, method: string) => fetch(`${server.url}/admin/api/agents/${path}`, { method, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    const rotated = await admin(`${x.name}/token`, 'POST');
    expect(rotated.status).toBe(201);
    const { token } = (await rotated.json()) as { token: string };
    await new Promise<void>((resolve) => (before.socket.connected ? before.socket.once('disconnect', () => resolve()) : resolve()));
    await expect(connectAgent(server, x.token)).rejects.toMatchObject({ data: { code: 'auth/bad_token' } });
    const after = await connectAgent(server, token);
    expect(expectOk(await after.ask<{ agent: string }>('hello', {})).agent).toBe(x.name);
    expect((await admin(x.name, 'DELETE')).status).toBe(200);
    await new Promise<void>((resolve) => (after.socket.connected ? after.socket.once('disconnect', () => resolve()) : resolve()));
    await expect(connectAgent(server, token)).rejects.toMatchObject({ data: { code: 'auth/bad_token' } });
    const missing = await admin('nobody-here', 'DELETE');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 'agent/not_found' } });
  });
});
