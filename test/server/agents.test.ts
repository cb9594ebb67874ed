import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentTurn, GameView } from '../../shared/protocol/index.js';
import type { Boardroom } from '../../server/app.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { ADMIN_TOKEN, Client, expectOk, startServer } from '../support/server.js';
import { playRandomly, rulesAgree } from './play.js';

let redis: TestRedis;
let server: Boardroom;
beforeAll(async () => {
  redis = await startRedis();
  server = await startServer({ REDIS_URL: redis.url, REDIS_PREFIX: 'agents' });
});
afterAll(async () => {
  await server?.close();
  await redis?.stop();
});

async function newAgent(name: string): Promise<string> {
  const res = await fetch(`${server.url}/admin/api/agents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify({ name }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

/** A minimal outside agent, as PROTOCOL.md describes: answer every turn with its first legal move. */
function firstMoveAgent(agent: Client): void {
  agent.socket.on('turn', (turn: AgentTurn) => {
    // Its last answer may be in flight when the test closes the connection: nothing to wait for.
    void agent.ask('move', { gameId: turn.gameId, ply: turn.ply, move: turn.legal[0] }).catch(() => undefined);
  });
}

describe('outside agents', () => {
  it('an agent with a token made by the admin API plays a human to the end', async () => {
    const token = await newAgent('first-mover');
    const agent = await new Client(server.url, '/agent', { token }).connected();
    expect(expectOk(await agent.ask<{ agent: string }>('hello', {})).agent).toBe('first-mover');
    firstMoveAgent(agent);
    const ann = await new Client(server.url).connected();
    const created = expectOk(await ann.ask<{ gameId: string; seat: { token: string }; view: GameView }>('room:create', {
      game: 'othello',
      seats: { black: { kind: 'human' }, white: { kind: 'agent', agent: 'first-mover' } },
      sit: { name: 'Ann', color: 'black' },
    }));
    expect(created.view.status).toBe('waiting');
    const joined = expectOk(await agent.ask<{ seat: { color: string; token?: string }; view: GameView }>('room:join', { gameId: created.gameId }));
    expect(joined.seat.color).toBe('white');
    expect(joined.seat.token).toBeUndefined(); // an agent's seat is its identity, no token travels
    const end = await playRandomly(ann, created.gameId, created.seat.token, 'black', joined.view);
    expect(rulesAgree(end)).toBe(true);
    expect(end.seats.white.name).toBe('first-mover');
    ann.close();
    agent.close();
  });

  it('an agent gets its pending turn again when it reconnects, and a wrong move is refused with its code', async () => {
    const token = await newAgent('slow');
    const host = await new Client(server.url).connected();
    const created = expectOk(await host.ask<{ gameId: string }>('room:create', {
      game: 'gomoku',
      seats: { black: { kind: 'agent', agent: 'slow' }, white: { kind: 'bot', bot: 'random' } },
    }));
    const first = await new Client(server.url, '/agent', { token }).connected();
    expectOk(await first.ask('room:join', { gameId: created.gameId, color: 'black' }));
    const turn = await first.waitFor<AgentTurn>('turn', (t) => t.gameId === created.gameId);
    expect(turn).toMatchObject({ ply: 0, color: 'black', game: 'gomoku' });
    expect(turn.legal).toContain('h8');
    first.close();
    const second = await new Client(server.url, '/agent', { token }).connected();
    const again = await second.waitFor<AgentTurn>('turn', (t) => t.gameId === created.gameId);
    expect(again.ply).toBe(0);
    const refused = await second.ask('move', { gameId: created.gameId, ply: 0, move: 'hello' });
    expect(refused).toMatchObject({ ok: false, error: { code: 'move/syntax' } });
    expectOk(await second.ask('move', { gameId: created.gameId, ply: 0, move: 'h8' }));
    const stranger = await new Client(server.url, '/agent', { token: await newAgent('stranger') }).connected();
    expect(await stranger.ask('move', { gameId: created.gameId, ply: 2, move: 'h9' })).toMatchObject({ ok: false, error: { code: 'seat/bad_token' } });
    for (const c of [host, second, stranger]) c.close();
  });
});
