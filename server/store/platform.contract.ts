import { describe, expect, it } from 'vitest';
import type { PlatformStore, Seek } from './platform.js';

const seek = (id: string, overrides: Partial<Seek> = {}): Seek => ({
  id,
  game: 'othello',
  options: {},
  timeControl: { kind: 'per-move', moveMs: 10_000 },
  rated: true,
  account: id,
  owner: `account:${id}`,
  name: id,
  rating: 1500,
  instance: 'web-a',
  since: 1000,
  ...overrides,
});

/** What every PlatformStore must do, run against each implementation. */
export function platformContract(name: string, open: () => Promise<PlatformStore>): void {
  describe(`${name} platform store contract`, () => {
    it('keeps one account per name in any letter case', async () => {
      const store = await open();
      expect(await store.createAccount({ name: 'Ada', passwordHash: 'h1', createdAt: 1 })).toBe(true);
      expect(await store.createAccount({ name: 'ada', passwordHash: 'h2', createdAt: 2 })).toBe(false);
      expect(await store.account('ADA')).toEqual({ name: 'Ada', passwordHash: 'h1', createdAt: 1 });
      expect(await store.account('bob')).toBeUndefined();
    });

    it('keeps sessions until they expire or are deleted', async () => {
      const store = await open();
      await store.putSession('s1', 'Ada', 60_000);
      await store.putSession('s2', 'Ada', 30);
      expect(await store.sessionAccount('s1')).toBe('Ada');
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(await store.sessionAccount('s2')).toBeUndefined();
      await store.deleteSession('s1');
      expect(await store.sessionAccount('s1')).toBeUndefined();
    });

    it('counts hits in a window that starts at the first', async () => {
      const store = await open();
      const key = `k${Math.random()}`;
      expect((await store.hit(key, 50)).count).toBe(1);
      const second = await store.hit(key, 50);
      expect(second.count).toBe(2);
      expect(second.resetInMs).toBeGreaterThan(0);
      expect(second.resetInMs).toBeLessThanOrEqual(50);
      await new Promise((resolve) => setTimeout(resolve, 70));
      expect((await store.hit(key, 50)).count).toBe(1);
    });

    it('lets a pairing take its seekers only if all are still waiting', async () => {
      const store = await open();
      await store.putSeek(seek('a'));
      await store.putSeek(seek('b'));
      await store.putSeek(seek('c', { rating: 1700 }));
      expect((await store.seeks()).map((s) => s.id).sort()).toEqual(['a', 'b', 'c']);
      expect(await store.takeSeeks(['a', 'b'])).toBe(true);
      expect(await store.takeSeeks(['b', 'c'])).toBe(false); // b is gone: c stays
      expect(await store.seeks()).toEqual([seek('c', { rating: 1700 })]);
    });

    it('gives a lock to one holder at a time, renewable by it, free after its time', async () => {
      const store = await open();
      const name = `l${Math.random()}`;
      expect(await store.lock(name, 'web-a', 60)).toBe(true);
      expect(await store.lock(name, 'web-b', 60)).toBe(false);
      expect(await store.lock(name, 'web-a', 60)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 90));
      expect(await store.lock(name, 'web-b', 60)).toBe(true);
    });

    it('keeps ladders, their entrants and who has played how often', async () => {
      const store = await open();
      await store.setLadder({ game: 'gomoku', bots: ['engine-1', 'random'], concurrent: 2 });
      expect(await store.ladders()).toEqual([{ game: 'gomoku', bots: ['engine-1', 'random'], concurrent: 2 }]);
      await store.putLadderEntrant('gomoku', { name: 'bridge', games: 2, instance: 'web-a' });
      await store.putLadderEntrant('othello', { name: 'other', games: 1, instance: 'web-a' });
      expect(await store.ladderEntrants('gomoku')).toEqual([{ name: 'bridge', games: 2, instance: 'web-a' }]);
      await store.removeLadderEntrant('gomoku', 'bridge');
      expect(await store.ladderEntrants('gomoku')).toEqual([]);
      await store.countLadderGame('gomoku', ['engine-1', 'random']);
      await store.countLadderGame('gomoku', ['engine-1', 'bridge']);
      expect(await store.ladderPlayed('gomoku')).toEqual(new Map([['engine-1', 2], ['random', 1], ['bridge', 1]]));
    });

    it('reserves rooms up to a limit in one step, however many ask at once', async () => {
      const store = await open();
      const owner = `agent:${Math.random()}`;
      const ids = Array.from({ length: 30 }, (_, i) => `g${i}`);
      const taken = await Promise.all(ids.map((id) => store.reserveRoom('rooms', owner, id, 20)));
      expect(taken.filter(Boolean)).toHaveLength(20);
      const held = await store.heldRooms('rooms', owner);
      expect(held.sort()).toEqual(ids.filter((_, i) => taken[i]).sort());
      expect(await store.reserveRoom('rooms', owner, held[0]!, 20)).toBe(true); // held already: kept
      expect(await store.heldRooms('rooms', owner)).toHaveLength(20);
      await store.releaseRoom('rooms', owner, held[0]!);
      expect(await store.reserveRoom('rooms', owner, 'late', 20)).toBe(true);
      expect(await store.reserveRoom('rooms', owner, 'later', 20)).toBe(false);
      expect(await store.heldRooms('bot-games', owner)).toEqual([]); // sets are apart
    });

    it('tells the rooms held since before a time', async () => {
      const store = await open();
      const owner = `account:${Math.random()}`;
      await store.holdRoom('rooms', owner, 'early');
      await new Promise((resolve) => setTimeout(resolve, 20));
      const between = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await store.reserveRoom('rooms', owner, 'recent', 5)).toBe(true);
      expect(await store.heldRooms('rooms', owner, between)).toEqual(['early']);
      expect((await store.heldRooms('rooms', owner)).sort()).toEqual(['early', 'recent']);
    });

    it('counts connections per process and address, and over every address', async () => {
      const store = await open();
      const [a, b] = [`web-${Math.random()}`, `web-${Math.random()}`];
      await store.countConnection(a, '10.0.0.1', 1);
      await store.countConnection(a, '10.0.0.1', 1);
      await store.countConnection(a, '10.0.0.2', 1);
      await store.countConnection(b, '10.0.0.1', 1);
      await store.countConnection(b, '10.0.0.1', -1);
      expect(await store.connections('10.0.0.1', [a, b])).toBe(2);
      expect(await store.allConnections([a, b])).toBe(3);
      expect(await store.allConnections([b])).toBe(0);
    });

    it('keeps a connection counted while another from the address closes at the same time', async () => {
      const store = await open();
      const web = `web-${Math.random()}`;
      await store.countConnection(web, '10.0.0.1', 1);
      for (let i = 0; i < 20; i++) await Promise.all([store.countConnection(web, '10.0.0.1', -1), store.countConnection(web, '10.0.0.1', 1)]);
      expect(await store.connections('10.0.0.1', [web])).toBe(1);
    });
  });
}
