import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectForAttach } from '../../bots/bridges/attach-connection.js';
import type { Boardroom } from '../../server/app.js';
import { RedisStore } from '../../server/store/redis-store.js';
import { lobbyRoom, matchesLobbyFilter, type LobbyFilter, type RoomsPage, type RoomSummary } from '../../shared/protocol/index.js';
import { lobbyPageP99, seedWaitingRooms } from '../load/lobby-latency.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { ADMIN_TOKEN, Client, expectOk, startServer } from '../support/server.js';

// The lobby in pages, as players and agents ask for it: 230 waiting rooms written straight into
// the store (mixed games, seats and ratings), read through a real server over Socket.IO.
const ROOMS = 230;
let redis: TestRedis;
let server: Boardroom;
let seeded: string[];
let player: Client;
beforeAll(async () => {
  redis = await startRedis();
  server = await startServer({ REDIS_URL: redis.url, REDIS_PREFIX: 'lobby' });
  seeded = await seedWaitingRooms(new RedisStore(redis.client(), 'lobby:'), ROOMS, 1_795_000_000_000);
  player = await new Client(server.url).connected();
});
afterAll(async () => {
  player?.socket.close();
  await server?.close();
  await redis?.stop();
});

async function allPages(client: Client, query: object): Promise<{ rooms: RoomSummary[]; totals: number[] }> {
  const rooms: RoomSummary[] = [];
  const totals: number[] = [];
  let cursor: string | undefined;
  do {
    const page = expectOk(await client.ask<RoomsPage>('rooms:list', { ...query, ...(cursor ? { cursor } : {}) }));
    rooms.push(...page.rooms);
    totals.push(page.total);
    cursor = page.next ?? undefined;
  } while (cursor);
  return { rooms, totals };
}

describe('rooms:list in pages', () => {
  it('answers a page of at most 100 rooms with the count and the next cursor; the pages hold every room once, newest first', async () => {
    const first = expectOk(await player.ask<RoomsPage>('rooms:list', { status: 'open', limit: 100 }));
    expect(first.rooms).toHaveLength(100);
    expect(first.total).toBe(ROOMS);
    expect(first.next).toEqual(expect.any(String));
    const { rooms, totals } = await allPages(player, { status: 'open', limit: 100 });
    expect(totals).toEqual([ROOMS, ROOMS, ROOMS]);
    expect(rooms.map((r) => r.id)).toEqual([...seeded].reverse()); // seeded a ms apart, oldest first
    const oldest = expectOk(await player.ask<RoomsPage>('rooms:list', { status: 'waiting', sort: 'oldest', limit: 3 }));
    expect(oldest.rooms.map((r) => r.id)).toEqual(seeded.slice(0, 3));
  });

  it("keeps answering an older client's { status } with the first page, and refuses a page too long or a cursor it did not make", async () => {
    const old = expectOk(await player.ask<RoomsPage>('rooms:list', { status: 'open' }));
    expect(old.rooms).toHaveLength(50);
    expect(old.rooms.every((r) => r.status === 'waiting')).toBe(true);
    const all = expectOk(await player.ask<RoomsPage>('rooms:list', {}));
    expect(all.rooms).toHaveLength(50);
    expect(all.next).toBeNull();
    for (const bad of [{ status: 'open', limit: 101 }, { status: 'open', cursor: 'nonsense' }, { status: 'open', vs: 'martian' }]) {
      const refused = await player.ask('rooms:list', bad);
      expect(refused.ok ? 'accepted' : refused.error.code).toBe('payload/invalid');
    }
  });

  it('filters by game, rating and seats: every page holds only matching rooms, and all of them', async () => {
    const filters: LobbyFilter[] = [{ game: 'gomoku' }, { rated: true }, { vs: 'bot' }, { open: 'human', vs: 'human' }, { open: 'agent', game: 'minichess', rated: false }];
    for (const filter of filters) {
      const { rooms, totals } = await allPages(player, { status: 'open', limit: 40, ...filter });
      const expected = (await allPages(player, { status: 'open', limit: 100 })).rooms.filter((r) => matchesLobbyFilter(lobbyRoom(r), filter));
      expect(expected.length).toBeGreaterThan(0);
      expect(rooms.map((r) => r.id)).toEqual(expected.map((r) => r.id));
      expect(totals.every((t) => t === expected.length)).toBe(true);
    }
  });

  it('a new room that matches the filter comes first on the first page, and the next page still starts where the last ended', async () => {
    const first = expectOk(await player.ask<RoomsPage>('rooms:list', { status: 'open', game: 'othello', limit: 10 }));
    const created = expectOk(await player.ask<{ gameId: string }>('room:create', { game: 'othello', seats: { black: { kind: 'human' }, white: { kind: 'human' } }, sit: { name: 'Ann', color: 'black' } }));
    const changed = await player.waitFor<RoomSummary>('rooms:changed', (r) => r.id === created.gameId);
    expect(matchesLobbyFilter(lobbyRoom(changed), { game: 'othello', vs: 'human' })).toBe(true);
    const again = expectOk(await player.ask<RoomsPage>('rooms:list', { status: 'open', game: 'othello', limit: 10 }));
    expect(again.rooms[0]!.id).toBe(created.gameId);
    expect(again.total).toBe(first.total + 1);
    const second = expectOk(await player.ask<RoomsPage>('rooms:list', { status: 'open', game: 'othello', limit: 10, cursor: first.next }));
    expect(second.rooms[0]!.createdAt).toBeLessThan(first.rooms.at(-1)!.createdAt);
  });

  it('agents page with the same filters, and attach finds open agent seats beyond the first page', async () => {
    const res = await fetch(`${server.url}/admin/api/agents`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` }, body: JSON.stringify({ name: 'pager' }) });
    const { token } = (await res.json()) as { token: string };
    const agent = await new Client(server.url, '/agent', { token }).connected();
    await seedWaitingRooms(new RedisStore(redis.client(), 'lobby:'), 160, 1_796_000_000_000, 'gomoku'); // 80 more open to agents
    const page = expectOk(await agent.ask<RoomsPage>('rooms:list', { status: 'open', open: 'agent', game: 'gomoku', limit: 100 }));
    expect(page.rooms).toHaveLength(100);
    expect(page.rooms.every((r) => r.game === 'gomoku' && matchesLobbyFilter(lobbyRoom(r), { open: 'agent' }))).toBe(true);
    const attach = await connectForAttach(server.url, token);
    const found = await attach.listOpenRooms('gomoku');
    expect(found.length).toBe(page.total);
    expect(new Set(found.map((r) => r.id)).size).toBe(page.total);
    expect(page.total).toBeGreaterThan(100);
    await attach.close();
    agent.socket.close();
  });

  it('GET /api/rooms pages with the same query as rooms:list, and refuses a malformed one', async () => {
    type HttpPage = { ok: true; rooms: RoomSummary[]; total: number; next: string | null };
    const get = async (query: string) => (await fetch(`${server.url}/api/rooms?${query}`)).json() as Promise<HttpPage>;
    const filter: LobbyFilter = { game: 'gomoku', rated: true };
    const expected = (await allPages(player, { status: 'open', ...filter, limit: 100 })).rooms.map((r) => r.id);
    const ids: string[] = [];
    let page = await get('status=open&game=gomoku&rated=true&limit=7');
    for (;;) {
      expect(page.total).toBe(expected.length);
      ids.push(...page.rooms.map((r) => r.id));
      if (!page.next) break;
      page = await get(`status=open&game=gomoku&rated=true&limit=7&cursor=${encodeURIComponent(page.next)}`);
    }
    expect(ids).toEqual(expected);
    const refused = await fetch(`${server.url}/api/rooms?status=open&limit=1000`);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ ok: false, error: { code: 'payload/invalid' } });
  });

  it('lobbyPageP99 measures lobby pages over a player connection', async () => {
    expect(await lobbyPageP99(server.url, 30)).toBeGreaterThan(0);
  });
});
