import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentError, connectAgent, type Agent, type GameView } from '../bots/agent/index.js';
import type { Boardroom } from '../server/app.js';
import { GAME_IDS } from '../shared/rules.js';
import { startRedis, type TestRedis } from './support/redis.js';
import { ADMIN_TOKEN, startBotWorker, startServer } from './support/server.js';

// The SDK against a real (embedded) server: it plays whole games, keeps time, answers a turn
// sent twice once, and reports refusals with their codes.
let server: Boardroom;
beforeAll(async () => {
  server = await startServer({ RECONNECT_GRACE_MS: '5000' });
});
afterAll(() => server?.close());

let count = 0;
async function token(on = server): Promise<{ name: string; token: string }> {
  const name = `sdk-${++count}`;
  const res = await fetch(`${on.url}/admin/api/agents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify({ name }),
  });
  return { name, token: ((await res.json()) as { token: string }).token };
}

function ended(agent: Agent, gameId: string): Promise<{ view: GameView }> {
  return new Promise((resolve) => {
    const off = agent.on('ended', (e) => e.gameId === gameId && (off(), resolve(e)));
  });
}

describe('the agent SDK', () => {
  it.each(GAME_IDS)('plays a whole %s game against engine-1', async (game) => {
    const me = await token();
    const agent = await connectAgent({ url: server.url, token: me.token });
    expect(agent.name).toBe(me.name);
    agent.onTurn((turn) => turn.legal[turn.ply % turn.legal.length]!);
    const { gameId } = await agent.challenge({ game, opponent: { kind: 'bot', bot: 'engine-1' }, timeControl: { kind: 'none' } });
    const { view } = await ended(agent, gameId);
    expect(view.status).toBe('finished');
    expect(['timeout', 'abandonment']).not.toContain(view.result?.reason);
    await agent.close();
  });

  it('aborts a slow handler at its deadline, and the move it then gives still lands in time', async () => {
    const agent = await connectAgent({ url: server.url, token: (await token()).token });
    let aborted = 0;
    agent.onTurn(
      (turn, signal) =>
        new Promise((resolve) => {
          if (turn.ply >= 4) return resolve(turn.legal[0]!); // from then on, at once
          signal.addEventListener('abort', () => (aborted++, resolve(turn.legal[0]!)));
        }),
    );
    const { gameId } = await agent.challenge({ game: 'othello', color: 'black', opponent: { kind: 'bot', bot: 'random' }, timeControl: { kind: 'per-move', moveMs: 1000 } });
    const { view } = await ended(agent, gameId);
    expect(aborted).toBeGreaterThanOrEqual(2);
    expect(view.result?.reason).not.toBe('timeout');
    await agent.close();
  });

  it('resigns, and refusals reject with their codes', async () => {
    const agent = await connectAgent({ url: server.url, token: (await token()).token });
    agent.onTurn(() => null); // never moves: the game waits on us
    const { gameId } = await agent.challenge({ game: 'gomoku', color: 'black', opponent: { kind: 'bot', bot: 'random' }, timeControl: { kind: 'none' } });
    await expect(agent.join('no-such-room')).rejects.toMatchObject({ code: 'room/not_found' });
    await expect(agent.acceptDraw(gameId)).rejects.toMatchObject({ code: 'game/no_draw_offer' });
    await expect(agent.move(gameId, 0, 'z99')).rejects.toBeInstanceOf(AgentError);
    const end = ended(agent, gameId);
    await agent.resign(gameId);
    expect((await end).view.result).toEqual({ winner: 'white', reason: 'resignation' });
    await agent.close();
  });

  it('refuses a bad token with its code', async () => {
    await expect(connectAgent({ url: server.url, token: 'not-a-token-at-all', reconnect: false })).rejects.toMatchObject({ code: 'auth/bad_token' });
  });

  // Debian's python3-socketio (which .ci/run installs) belongs to the system Python.
  it.each([
    ...GAME_IDS.map((game) => ['examples/js-agent.mjs', process.execPath, game] as const),
    ...GAME_IDS.map((game) => ['examples/python-agent.py', '/usr/bin/python3', game] as const),
  ])('the example agent %s (run by %s) plays a %s game and exits 0', async (file, runner, game) => {
    const me = await token();
    const example = fileURLToPath(new URL(`../${file}`, import.meta.url));
    const { stdout } = await promisify(execFile)(runner, [example], {
      env: { ...process.env, BOARDROOM_URL: server.url, AGENT_TOKEN: me.token, GAME: game, GAMES: '1' },
      timeout: 60_000,
    });
    expect(stdout).toMatch(new RegExp(`${game} as (black|white) against engine-1: (won|lost|draw)`));
  });
});

it('the Python example without python3-requests says what to install, and stops', async () => {
  const shadow = await mkdtemp(join(tmpdir(), 'no-requests-'));
  await writeFile(join(shadow, 'requests.py'), 'raise ImportError("requests is not installed")\n');
  const example = fileURLToPath(new URL('../examples/python-agent.py', import.meta.url));
  const outcome = await promisify(execFile)('/usr/bin/python3', [example], { env: { ...process.env, PYTHONPATH: shadow, BOARDROOM_URL: server.url, AGENT_TOKEN: 'unused' }, timeout: 30_000 }).then(
    () => ({ code: 0, stderr: '' }),
    (error: { code: number; stderr: string }) => error,
  );
  await rm(shadow, { recursive: true, force: true });
  expect(outcome.code).toBe(1);
  expect(outcome.stderr).toContain('apt-get install python3-socketio python3-requests');
});

describe('the example agent on a Redis server', () => {
  let redis: TestRedis;
  let redisServer: Boardroom;
  let worker: { close(): Promise<void> };
  beforeAll(async () => {
    redis = await startRedis();
    redisServer = await startServer({ REDIS_URL: redis.url, REDIS_PREFIX: 'sdk' });
    worker = startBotWorker(redis.url, 'sdk');
  });
  afterAll(async () => {
    await redisServer?.close();
    await worker?.close();
    await redis?.stop();
  });

  it('an agent closed while its last move is on its way waits for that move\'s answer: the move counts, and no transport error', async () => {
    const [me, them] = [await token(redisServer), await token(redisServer)];
    const [black, white] = [await connectAgent({ url: redisServer.url, token: me.token }), await connectAgent({ url: redisServer.url, token: them.token })];
    const errors: string[] = [];
    black.on('error', ({ error }) => errors.push(`${error.code}: ${error.message}`));
    const script = { black: ['h8', 'i8', 'j8', 'k8', 'l8'], white: ['h1', 'i1', 'j1', 'k1'] };
    let closed: Promise<void> | undefined;
    black.onTurn((turn) => {
      // As js-agent.mjs does after its last game: close, with the winning move just sent.
      if (turn.ply === 8) setImmediate(() => (closed = black.close()));
      return script.black[turn.ply / 2]!;
    });
    white.onTurn((turn) => script.white[(turn.ply - 1) / 2]!);
    const { gameId } = await black.create({ game: 'gomoku', timeControl: { kind: 'none' }, seats: { black: { kind: 'agent', agent: me.name }, white: { kind: 'agent', agent: them.name } }, sit: { color: 'black' } });
    const over = ended(white, gameId);
    await white.join(gameId);
    const { view } = await over;
    await white.close();
    await closed;
    expect(view.result).toMatchObject({ winner: 'black', reason: 'five' });
    expect(errors).toEqual([]);
  });

  it('plays three games and exits 0 with nothing on stderr (no request left unanswered at the end)', async () => {
    const me = await token(redisServer);
    const example = fileURLToPath(new URL('../examples/js-agent.mjs', import.meta.url));
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [example], {
      env: { ...process.env, BOARDROOM_URL: redisServer.url, AGENT_TOKEN: me.token, GAME: 'othello', GAMES: '3' },
      timeout: 90_000,
    });
    expect(stdout.trim().split('\n')).toHaveLength(3);
    expect(stderr).toBe('');
  }, 120_000);
});
