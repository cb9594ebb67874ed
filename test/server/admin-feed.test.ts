import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminPage, GameView, ThinkingView } from '../../shared/protocol/index.js';
import type { Boardroom } from '../../server/app.js';
import { THINKING_EVERY_MS } from '../../server/socket/broadcaster.js';
import { ADMIN_OPEN_MAX } from '../../server/socket/admin.js';
import { ADMIN_TOKEN, Client, expectOk, startServer } from '../support/server.js';

// The admin feed: pages of the live-games table cut by the server, pushed again once a second
// while they change; moves and thinking only of the games an admin opened; thinking to anyone
// at a bounded rate, and none to spectators of a rated game.
let server: Boardroom;
beforeAll(async () => {
  server = await startServer({ RECONNECT_GRACE_MS: '30000', RATE_LIMIT: '10000' });
});
afterAll(() => server?.close());

type Created = { gameId: string; seat: { token: string }; view: GameView };
const GAMES = ['othello', 'gomoku', 'minichess'] as const;

/** A human game with both seats held by `host`: `tag-a` plays black, `tag-b` white. */
async function humanGame(host: Client, game: (typeof GAMES)[number], tag: string) {
  const created = expectOk(await host.ask<Created>('room:create', { game, timeControl: { kind: 'none' }, seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: `${tag}-a`, color: 'black' } }));
  const joined = expectOk(await host.ask<{ seat: { token: string }; view: GameView }>('room:join', { gameId: created.gameId, name: `${tag}-b`, color: 'white' }));
  return { id: created.gameId, tokens: { black: created.seat.token, white: joined.seat.token }, view: joined.view };
}

describe('the admin feed', () => {
  it('answers pages the server filters, sorts and counts, and pushes a page again when a row changes', async () => {
    const host = await new Client(server.url).connected();
    const tag = `feed${Math.floor(Math.random() * 1e6)}`;
    const games = [];
    for (let i = 0; i < 12; i++) games.push(await humanGame(host, GAMES[i % 3]!, `${tag}x${i}`));
    const admin = await new Client(server.url, '/admin', { token: ADMIN_TOKEN }).connected();

    const all = expectOk(await admin.ask<{ page: AdminPage }>('admin:list', { limit: 100 })).page;
    expect(all.summary.live).toBeGreaterThanOrEqual(12);
    expect(all.summary.byKind['human-human']).toBeGreaterThanOrEqual(12);
    expect(GAMES.map((g) => all.summary.byGame[g]).reduce((a, b) => a + b)).toBe(all.summary.live);

    const gomoku = expectOk(await admin.ask<{ page: AdminPage }>('admin:list', { game: 'gomoku', q: tag, limit: 2, sort: 'started', dir: 'desc' })).page;
    expect(gomoku.total).toBe(4);
    expect(gomoku.rows.map((r) => r.id)).toEqual([games[10]!.id, games[7]!.id]);
    expect(gomoku.rows[0]).toMatchObject({ game: 'gomoku', black: { kind: 'human', name: `${tag}x10-a`, here: true }, state: 'playing', ply: 0, toMove: 'black' });
    const second = expectOk(await admin.ask<{ page: AdminPage }>('admin:list', { game: 'gomoku', q: tag, limit: 2, offset: 2, sort: 'started', dir: 'desc' })).page;
    expect(second.rows.map((r) => r.id)).toEqual([games[4]!.id, games[1]!.id]);
    const one = expectOk(await admin.ask<{ page: AdminPage }>('admin:list', { q: `${tag}x5-B` })).page;
    expect(one.rows.map((r) => r.id)).toEqual([games[5]!.id]);
    expect((await admin.ask('admin:list', { limit: 1000 })).ok).toBe(false);
    expect((await admin.ask('admin:list', { sort: 'nonsense' })).ok).toBe(false);

    // Following that page: a move in one of its games brings a new page within about a second.
    const followed = games[5]!;
    const pushed = admin.waitFor<AdminPage>('admin:page', (p) => p.rows.some((r) => r.id === followed.id && r.ply === 1), 3000);
    expectOk(await host.ask('move', { gameId: followed.id, token: followed.tokens[followed.view.toMove], ply: 0, move: followed.view.legal[0] }));
    await pushed;

    // A player gone: the game waits for a reconnect, and the table says so.
    const leaver = await new Client(server.url).connected();
    const left = await humanGame(leaver, 'othello', `${tag}gone`);
    leaver.close();
    await expect
      .poll(async () => expectOk(await admin.ask<{ page: AdminPage }>('admin:list', { state: 'away', q: `${tag}gone` })).page.rows.map((r) => r.id), { timeout: 4000, interval: 250 })
      .toEqual([left.id]);
    host.close();
    admin.close();
  });

  it('sends an admin the moves of the games it opened and of no other', async () => {
    const host = await new Client(server.url).connected();
    const [a, b] = [await humanGame(host, 'gomoku', 'opened'), await humanGame(host, 'gomoku', 'closed')];
    const admin = await new Client(server.url, '/admin', { token: ADMIN_TOKEN }).connected();
    const opened = expectOk(await admin.ask<{ view: GameView; thinking: ThinkingView | null }>('admin:open', { gameId: a.id }));
    expect(opened.view.id).toBe(a.id);
    expectOk(await host.ask('move', { gameId: b.id, token: b.tokens.black, ply: 0, move: 'h8' }));
    expectOk(await host.ask('move', { gameId: a.id, token: a.tokens.black, ply: 0, move: 'h8' }));
    await admin.waitFor<{ gameId: string }>('moved', (e) => e.gameId === a.id, 3000);
    expectOk(await admin.ask('admin:close', { gameId: a.id }));
    expectOk(await host.ask('move', { gameId: a.id, token: a.tokens.white, ply: 1, move: 'h9' }));
    await new Promise((r) => setTimeout(r, 300));
    expect(admin.events.filter((e) => e.event === 'moved').map((e) => (e.data as { gameId: string; ply: number }).gameId)).toEqual([a.id]);
    expect(admin.events.some((e) => e.event === 'rooms:changed')).toBe(false);

    const more = [];
    for (let i = 0; i < ADMIN_OPEN_MAX + 1; i++) more.push((await humanGame(host, 'othello', `many${i}`)).id);
    for (const id of more.slice(0, ADMIN_OPEN_MAX)) expectOk(await admin.ask('admin:open', { gameId: id }));
    const refused = await admin.ask('admin:open', { gameId: more.at(-1) });
    expect(refused.ok ? 'ok' : refused.error.code).toBe('admin/too_many_open');
    expect((await admin.ask('admin:open', { gameId: 'no-such-game' })).ok).toBe(false);
    host.close();
    admin.close();
  });

  it('sends bot thinking at most once per window per game, and none to the spectators of a rated game', async () => {
    const host = await new Client(server.url).connected();
    const watcher = await new Client(server.url).connected();
    const admin = await new Client(server.url, '/admin', { token: ADMIN_TOKEN }).connected();
    const bots = { black: { kind: 'bot', bot: 'engine-4' }, white: { kind: 'bot', bot: 'engine-4' } };
    const casual = expectOk(await host.ask<Created>('room:create', { game: 'othello', timeControl: { kind: 'none' }, seats: bots }));
    const rated = expectOk(await host.ask<Created>('room:create', { game: 'othello', timeControl: { kind: 'none' }, rated: true, seats: bots }));
    expect(casual.view.showThinking).toBe(true);
    expect(rated.view.showThinking).toBe(false);
    for (const id of [casual.gameId, rated.gameId]) {
      expectOk(await watcher.ask('room:watch', { gameId: id }));
      expectOk(await admin.ask('admin:open', { gameId: id }));
    }
    await new Promise((r) => setTimeout(r, 4000));
    const times = (client: Client, gameId: string) => client.events.filter((e) => e.event === 'thinking' && (e.data as ThinkingView).gameId === gameId).length;
    const arrivals: number[] = [];
    watcher.socket.on('thinking', (t: ThinkingView) => t.gameId === casual.gameId && arrivals.push(performance.now()));
    await new Promise((r) => setTimeout(r, 3000));
    const gaps = arrivals.slice(1).map((t, i) => t - arrivals[i]!);
    expect(arrivals.length).toBeGreaterThan(3);
    expect(Math.min(...gaps)).toBeGreaterThan(THINKING_EVERY_MS * 0.8);
    expect(arrivals.length).toBeLessThanOrEqual(3000 / THINKING_EVERY_MS + 1);
    expect(times(watcher, rated.gameId)).toBe(0);
    expect(times(admin, rated.gameId)).toBeGreaterThan(0);
    for (const c of [host, watcher, admin]) c.close();
  }, 20_000);
});
