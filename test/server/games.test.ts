import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { moverAt } from '../../shared/games.js';
import type { GameView } from '../../shared/protocol/index.js';
import { GAME_IDS } from '../../shared/rules.js';
import type { Boardroom } from '../../server/app.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { Client, expectOk, playMove, startBotWorker, startServer } from '../support/server.js';
import { playRandomly, rulesAgree } from './play.js';

// Full games over socket.io-client, against a real redis-server and BullMQ bot workers.
let redis: TestRedis;
let server: Boardroom;
let worker: { close(): Promise<void> };
const BOT = 'engine-1';

beforeAll(async () => {
  redis = await startRedis();
  server = await startServer({ REDIS_URL: redis.url, REDIS_PREFIX: 'games' });
  worker = startBotWorker(redis.url, 'games');
});
afterAll(async () => {
  await worker?.close();
  await server?.close();
  await redis?.stop();
});

/** Answers of `BOT` in `game` counted by the think-time histogram at /metrics. */
async function botThinkCount(game: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`boardroom_bot_think_seconds_count{game="${game}",bot="${BOT}"}`));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

type Created = { gameId: string; seat: { color: 'black' | 'white'; token: string } | null; view: GameView };

describe.each(GAME_IDS)('%s over the network', (game) => {
  it('human against human, to the end', async () => {
    const ann = await new Client(server.url).connected();
    const bob = await new Client(server.url).connected();
    const created = expectOk(await ann.ask<Created>('room:create', { game, seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: 'Ann', color: 'random' } }));
    const joined = expectOk(await bob.ask<{ seat: { color: 'black' | 'white'; token: string }; view: GameView }>('room:join', { gameId: created.gameId, name: 'Bob' }));
    expect(joined.view.status).toBe('live');
    const [a, b] = await Promise.all([
      playRandomly(ann, created.gameId, created.seat!.token, created.seat!.color, joined.view),
      playRandomly(bob, created.gameId, joined.seat.token, joined.seat.color, joined.view),
    ]);
    expect(a.moves).toEqual(b.moves);
    expect(rulesAgree(a)).toBe(true);
    const record = (await (await fetch(`${server.url}/api/games/${created.gameId}`)).json()) as { record: string; result: unknown; players: unknown };
    expect(record).toMatchObject({ record: a.moves.join(' '), result: a.result, players: { black: { kind: 'human' }, white: { kind: 'human' } } });
    ann.close();
    bob.close();
  });

  it(`human against ${BOT}, to the end`, async () => {
    const thoughtBefore = await botThinkCount(game);
    const ann = await new Client(server.url).connected();
    const created = expectOk(await ann.ask<Created>('room:create', { game, seats: { black: { kind: 'human' }, white: { kind: 'bot', bot: BOT } }, sit: { name: 'Ann', color: 'black' } }));
    const end = await playRandomly(ann, created.gameId, created.seat!.token, 'black', created.view);
    expect(rulesAgree(end)).toBe(true);
    // The bot's last answer may be counted after the end reached Ann: the next test counts from here.
    const answers = end.moves.filter((m, ply) => m !== 'pass' && moverAt(game, ply) === 'white').length;
    await vi.waitFor(async () => expect((await botThinkCount(game)) - thoughtBefore).toBe(answers));
    ann.close();
  });

  it(`${BOT} against ${BOT}, watched to the end, each answer's thinking time in /metrics`, async () => {
    const thoughtBefore = await botThinkCount(game);
    const host = await new Client(server.url).connected();
    const created = expectOk(await host.ask<Created>('room:create', { game, seats: { black: { kind: 'bot', bot: BOT }, white: { kind: 'bot', bot: BOT } } }));
    const watcher = await new Client(server.url).connected();
    expectOk(await watcher.ask('room:watch', { gameId: created.gameId }));
    const ended = await watcher.waitFor<{ view: GameView }>('ended', (e) => e.view.id === created.gameId, 90_000);
    expect(rulesAgree(ended.view)).toBe(true);
    expect(watcher.events.some((e) => e.event === 'thinking')).toBe(true);
    // Every move but a forced pass (the server plays those) was a bot's answer, applied by this, the
    // only, web process, which counts it once the move is written (the end may reach us first).
    const answers = ended.view.moves.filter((m) => m !== 'pass').length;
    await vi.waitFor(async () => expect((await botThinkCount(game)) - thoughtBefore).toBe(answers));
    host.close();
    watcher.close();
  });
});

describe('spectators', () => {
  it('a spectator who unwatches gets no more of the game, while the players play on', async () => {
    const ann = await new Client(server.url).connected();
    const bob = await new Client(server.url).connected();
    const watcher = await new Client(server.url).connected();
    const created = expectOk(await ann.ask<Created>('room:create', { game: 'othello', seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: 'Ann', color: 'black' } }));
    const joined = expectOk(await bob.ask<{ seat: { token: string }; view: GameView }>('room:join', { gameId: created.gameId, name: 'Bob' }));
    let view = expectOk(await watcher.ask<{ view: GameView }>('room:watch', { gameId: created.gameId })).view;
    const play = async (client: Client, token: string): Promise<void> => {
      view = await playMove(client, view, token, view.legal[0]!);
    };
    await play(ann, created.seat!.token);
    await watcher.waitFor('moved', (e: { ply: number }) => e.ply === 0);
    expectOk(await watcher.ask('room:unwatch', { gameId: created.gameId }));
    await play(bob, joined.seat.token);
    await play(ann, created.seat!.token);
    await bob.waitFor('moved', (e: { ply: number }) => e.ply === 2);
    expect(watcher.events.filter((e) => e.event === 'moved').map((e) => (e.data as { ply: number }).ply)).toEqual([0]);
    expect((await watcher.ask('room:unwatch', {})).ok).toBe(false);
    for (const c of [ann, bob, watcher]) c.close();
  });
});
