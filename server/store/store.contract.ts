import { describe, expect, it } from 'vitest';
import { GAMES } from '../../shared/games.js';
import { lobbyOrder, type GameAnalysis } from '../../shared/protocol/index.js';
import { freshRecord, type RatingRecord } from '../ratings/rating.js';
import type { AgentStore } from './agents.js';
import type { LeaseStore } from './leases.js';
import type { GameStore, LobbyPageQuery, StoredGame, StoredSeat } from './store.js';

let counter = 0;
export function sampleGame(overrides: Partial<StoredGame> = {}): StoredGame {
  const rules = GAMES.othello.rules;
  const start = rules.start();
  const seat = { kind: 'human' as const, name: null, reservedFor: null, tokenHash: null, connected: false, connectedVia: null, awaySince: null, account: false };
  return {
    id: `g${++counter}-${Math.random().toString(36).slice(2, 8)}`,
    game: 'othello',
    options: {},
    timeControl: { kind: 'none' },
    showThinking: true,
    seats: { black: seat, white: seat },
    status: 'waiting',
    start: rules.formatPosition(start),
    position: start,
    moves: [],
    version: 1,
    clock: { black: null, white: null, turnStartedAt: null },
    result: null,
    drawOffer: null,
    createdAt: 1000,
    updatedAt: 1000,
    rematch: null,
    rated: false,
    ladder: false,
    owner: null,
    ratingChange: null,
    ...overrides,
    moveMs: overrides.moveMs ?? (overrides.moves ?? []).map(() => null),
  };
}

const NEWEST: LobbyPageQuery = { sort: 'newest', limit: 50 };
/** Rooms made in the same ms come greater id first; `later` was made after the others. */
const byIdDesc = (later: string) => (a: string, b: string) => (a === later ? -1 : b === later ? 1 : a < b ? 1 : -1);

/** What every GameStore, with its agents and leases, must do, run against each implementation. */
export function storeContract(name: string, open: () => Promise<GameStore & AgentStore & LeaseStore>): void {
  describe(`${name} store contract`, () => {
    it('creates a game once and reads it back whole', async () => {
      const store = await open();
      const game = sampleGame({ moves: ['f5'] });
      expect(await store.create(game)).toBe(true);
      expect(await store.create(game)).toBe(false);
      expect(await store.get(game.id)).toEqual(game);
      expect(await store.get('no-such-game')).toBeUndefined();
    });

    it('updates only from the expected version, appending the new moves', async () => {
      const store = await open();
      const game = sampleGame();
      await store.create(game);
      const next = { ...game, version: 2, moves: ['f5'], moveMs: [1200], status: 'live' as const, updatedAt: 2000 };
      expect(await store.update(next)).toBe(true);
      expect(await store.update({ ...next, moves: ['f5', 'd6'] })).toBe(false); // version 2 again: stale
      expect(await store.get(game.id)).toEqual(next);
      const third = { ...next, version: 3, moves: ['f5', 'd6'], moveMs: [1200, 803] };
      expect(await store.update(third)).toBe(true);
      expect((await store.get(game.id))?.moves).toEqual(['f5', 'd6']);
      expect((await store.get(game.id))?.moveMs).toEqual([1200, 803]);
    });

    it('appends several moves in one write, and keeps the moves through a write that adds none', async () => {
      const store = await open();
      const game = sampleGame();
      await store.create(game);
      const next = { ...game, version: 2, moves: ['f5', 'd6', 'c3'], moveMs: [5, null, 0], status: 'live' as const };
      expect(await store.update(next)).toBe(true);
      expect((await store.get(game.id))?.moves).toEqual(['f5', 'd6', 'c3']);
      expect(await store.update({ ...next, version: 3, drawOffer: 'black' as const })).toBe(true);
      expect(await store.get(game.id)).toEqual({ ...next, version: 3, drawOffer: 'black' });
    });

    it('reads a game stored before move times were kept with every time unknown, and times it from then on', async () => {
      const store = await open();
      const { moveMs: _none, ...old } = sampleGame({ status: 'live', moves: ['f5', 'd6'] });
      await store.create(old as StoredGame);
      const read = await store.get(old.id);
      expect(read?.moveMs).toEqual([null, null]);
      expect(await store.update({ ...read!, version: 2, moves: ['f5', 'd6', 'c3'], moveMs: [null, null, 4321] })).toBe(true);
      expect((await store.get(old.id))?.moveMs).toEqual([null, null, 4321]);
      expect((await store.summaries('live', 100)).find((g) => g.id === old.id)).not.toHaveProperty('moveMs');
    });

    it('lets exactly one of many concurrent writers of the same version win', async () => {
      const store = await open();
      const game = sampleGame();
      await store.create(game);
      const writers = ['f5', 'd3', 'c4', 'e6'].map((m) => store.update({ ...game, version: 2, moves: [m], moveMs: [7] }));
      const won = await Promise.all(writers);
      expect(won.filter(Boolean)).toHaveLength(1);
      const stored = await store.get(game.id);
      expect(stored?.version).toBe(2);
      expect(stored?.moves).toHaveLength(1);
      expect(['f5', 'd3', 'c4', 'e6'][won.indexOf(true)]).toBe(stored?.moves[0]);
    });

    it('lists games by status, newest change first', async () => {
      const store = await open();
      const a = sampleGame({ status: 'live', updatedAt: 10 });
      const b = sampleGame({ status: 'live', updatedAt: 20 });
      const c = sampleGame({ status: 'finished', updatedAt: 30 });
      for (const g of [a, b, c]) await store.create(g);
      const live = (await store.list('live', 100)).map((g) => g.id);
      expect(live.indexOf(b.id)).toBeLessThan(live.indexOf(a.id));
      expect(live).not.toContain(c.id);
      await store.update({ ...a, version: 2, status: 'finished', updatedAt: 40 });
      expect((await store.list('live', 100)).map((g) => g.id)).not.toContain(a.id);
      expect((await store.list('finished', 100)).map((g) => g.id)[0]).toBe(a.id);
    });

    it('summarises games by status without their moves, newest first; a move does not reorder the live games', async () => {
      const store = await open();
      const a = sampleGame({ status: 'live', updatedAt: 10, moves: ['a', 'b', 'c'] });
      const b = sampleGame({ status: 'live', updatedAt: 20 });
      await store.create(a);
      await store.create(b);
      await store.update({ ...a, version: 2, moves: [...a.moves, 'd'], moveMs: [...a.moveMs, 9], updatedAt: 30 });
      const live = (await store.summaries('live', 100)).filter((g) => g.id === a.id || g.id === b.id);
      expect(live.map((g) => [g.id, g.ply, g.version])).toEqual([
        [b.id, b.moves.length, 1],
        [a.id, 4, 2],
      ]);
      expect(live[0]).not.toHaveProperty('moves');
      expect(await store.summaries('finished', 100)).toEqual([]);
    });

    it('keeps agents by token hash and by name, one token per name', async () => {
      const store = await open();
      expect(await store.putAgent('hash-1', { name: 'edax-bridge', createdAt: 5 })).toBe(true);
      expect(await store.getAgent('hash-1')).toEqual({ name: 'edax-bridge', createdAt: 5 });
      expect(await store.getAgent('hash-2')).toBeUndefined();
      expect(await store.agentNamed('edax-bridge')).toEqual({ name: 'edax-bridge', createdAt: 5 });
      expect(await store.agentNamed('nobody')).toBeUndefined();
      expect(await store.putAgent('hash-2', { name: 'edax-bridge', createdAt: 6 })).toBe(false);
      expect(await store.getAgent('hash-2')).toBeUndefined();
      // One name in any letter case, found under the name it was registered with.
      expect(await store.putAgent('hash-3', { name: 'EDAX-Bridge', createdAt: 6 })).toBe(false);
      expect(await store.agentNamed('EDAX-BRIDGE')).toEqual({ name: 'edax-bridge', createdAt: 5 });
    });

    it('rotates an agent token (the old one stops working) and forgets an agent', async () => {
      const store = await open();
      await store.putAgent('old-hash', { name: 'rotor', createdAt: 7 });
      expect(await store.replaceAgentToken('rotor', 'new-hash')).toBe(true);
      expect(await store.getAgent('old-hash')).toBeUndefined();
      expect(await store.getAgent('new-hash')).toEqual({ name: 'rotor', createdAt: 7 });
      expect(await store.agentNamed('rotor')).toEqual({ name: 'rotor', createdAt: 7 });
      expect(await store.replaceAgentToken('nobody', 'x')).toBe(false);
      expect(await store.deleteAgent('rotor')).toBe(true);
      expect(await store.getAgent('new-hash')).toBeUndefined();
      expect(await store.agentNamed('rotor')).toBeUndefined();
      expect(await store.deleteAgent('rotor')).toBe(false);
      expect(await store.putAgent('newer-hash', { name: 'rotor', createdAt: 8 })).toBe(true); // the name is free again
    });

    it("writes a game's end with its ratings and history, all or nothing", async () => {
      const store = await open();
      const ada = { kind: 'person' as const, name: `ada${Math.random()}` };
      const bot = { kind: 'bot' as const, name: 'engine-1' };
      const game = sampleGame({ status: 'live', rated: true });
      await store.create(game);
      expect(await store.ratings('othello', [ada, bot])).toEqual([freshRecord('othello', ada), freshRecord('othello', bot)]);
      const rated = (r: RatingRecord, rating: number): RatingRecord => ({ ...r, rating, games: r.games + 1, version: r.version + 1 });
      const [a0, b0] = await store.ratings('othello', [ada, bot]);
      const end = { ratings: [rated(a0!, 1600), rated(b0!, 1400)], players: [ada, bot] };
      const finished = { ...game, version: 2, status: 'finished' as const };
      // A rating record written meanwhile (another game of the same player) stops the whole write.
      const stale = { ratings: [{ ...rated(a0!, 1600), version: 5 }, rated(b0!, 1400)], players: [ada] };
      expect(await store.update(finished, stale)).toBe(false);
      expect((await store.get(game.id))?.status).toBe('live');
      expect(await store.recentGames(ada, 10)).toEqual([]);
      expect(await store.update(finished, end)).toBe(true);
      expect((await store.ratings('othello', [ada]))[0]).toMatchObject({ rating: 1600, games: 1, version: 1 });
      expect(await store.recentGames(ada, 10)).toEqual([game.id]);
      // The same end again (a replayed event) is refused by the game's version and by the ratings'.
      expect(await store.update({ ...finished, version: 3 }, end)).toBe(false);
      expect((await store.ratings('othello', [ada]))[0]!.games).toBe(1);
      const board = await store.leaderboard('othello', 10);
      expect(board.map((r) => r.name).filter((n) => n === ada.name || n === 'engine-1').slice(0, 2)).toEqual([ada.name, 'engine-1']);
      expect(await store.leaderboard('gomoku', 10)).not.toContainEqual(expect.objectContaining({ name: ada.name }));
      expect(await store.rank('othello', ada)).toBe(board.findIndex((r) => r.name === ada.name) + 1);
      expect(await store.rank('gomoku', ada)).toBeUndefined();
    });

    it('counts games by status, lists the oldest first, and forgets removed games', async () => {
      const store = await open();
      const base = await store.count('finished');
      const old = sampleGame({ status: 'finished', updatedAt: 1 });
      const newer = sampleGame({ status: 'finished', updatedAt: 2, moves: ['f5'] });
      await store.create(old);
      await store.create(newer);
      expect(await store.count('finished')).toBe(base + 2);
      const oldest = await store.oldest('finished', 2);
      expect(oldest[0]).toEqual({ id: old.id, updatedAt: 1 });
      await store.remove([old.id, newer.id]);
      expect(await store.get(old.id)).toBeUndefined();
      expect(await store.get(newer.id)).toBeUndefined();
      expect(await store.count('finished')).toBe(base);
      expect((await store.list('finished', 100)).map((g) => g.id)).not.toContain(newer.id);
    });

    it('caches an analysis: one claim queues it, a second finds it pending, then done; a failure frees it; removal forgets it', async () => {
      const store = await open();
      const game = sampleGame({ status: 'finished', moves: ['f5'] });
      await store.create(game);
      expect(await store.analysis(game.id)).toBeUndefined();
      const claims = await Promise.all([store.claimAnalysis(game.id, 10), store.claimAnalysis(game.id, 11), store.claimAnalysis(game.id, 12)]);
      expect(claims.filter((c) => c.claimed)).toHaveLength(1);
      const first = claims.findIndex((c) => c.claimed);
      for (const c of claims) if (!c.claimed) expect(c.existing).toEqual({ state: 'pending', requestedAt: 10 + first });
      // A failed job frees the game for another request.
      await store.dropPendingAnalysis(game.id);
      expect(await store.analysis(game.id)).toBeUndefined();
      expect(await store.claimAnalysis(game.id, 20)).toEqual({ claimed: true });
      const analysis: GameAnalysis = {
        gameId: game.id,
        game: 'othello',
        budgetMs: 5,
        evaluations: [
          { ply: 0, value: 0, score: 0, proven: false, best: 'f5', depth: 4 },
          { ply: 1, value: -0.1, score: -150, proven: false, best: 'd6', depth: 4 },
        ],
        moves: [{ ply: 1, move: 'f5', color: 'black', loss: 0, mark: null, best: null }],
        thresholds: { scale: 1500, cap: 4500, inaccuracy: 0.1, mistake: 0.2, blunder: 0.3 },
        finishedAt: 30,
      };
      expect(await store.putAnalysis(game.id, analysis)).toBe(true);
      expect(await store.analysis(game.id)).toEqual({ state: 'done', analysis });
      // Asked again: nothing to run, the analysis is there; a done analysis is not dropped.
      expect(await store.claimAnalysis(game.id, 40)).toEqual({ claimed: false, existing: { state: 'done', analysis } });
      await store.dropPendingAnalysis(game.id);
      expect((await store.analysis(game.id))?.state).toBe('done');
      await store.remove([game.id]);
      expect(await store.analysis(game.id)).toBeUndefined();
      expect(await store.putAnalysis(game.id, analysis)).toBe(false); // the game is gone
      expect(await store.analysis(game.id)).toBeUndefined();
    });

    it('keeps one birth mark for every caller', async () => {
      const store = await open();
      const mark = await store.birthMark();
      expect(mark.length).toBeGreaterThan(5);
      expect(await store.birthMark()).toBe(mark);
    });

    it("keeps each server process's lease end, renewed in place", async () => {
      const store = await open();
      await store.renewLease('web-a', 10_000);
      await store.renewLease('web-b', 20_000);
      expect(await store.leases()).toEqual(new Map([['web-a', 10_000], ['web-b', 20_000]]));
      await store.renewLease('web-a', 30_000);
      expect(await store.leases()).toEqual(new Map([['web-a', 30_000], ['web-b', 20_000]]));
    });

    it('keeps a lease that ran out, however long ago, until a sweep drops it as it saw it', async () => {
      const store = await open();
      await store.renewLease('dead', 10_000);
      await store.renewLease('alive', 10_000 + 86_400_000);
      expect((await store.leases()).get('dead')).toBe(10_000);
      await store.dropLease('alive', 10_000); // renewed since that sweep read it: kept
      await store.dropLease('dead', 10_000);
      expect(await store.leases()).toEqual(new Map([['alive', 10_000 + 86_400_000]]));
    });

    it('scans the ids of a status page by page, every game of it found', async () => {
      const store = await open();
      const live = Array.from({ length: 1200 }, () => sampleGame({ status: 'live' }));
      const waiting = sampleGame({ status: 'waiting' });
      await Promise.all([...live, waiting].map((g) => store.create(g)));
      const found = new Set<string>();
      let cursor = '0';
      let pages = 0;
      do {
        const page = await store.scanIds('live', cursor, 500);
        for (const id of page.ids) found.add(id);
        cursor = page.cursor;
        pages++;
      } while (cursor !== '0');
      expect(pages).toBeGreaterThan(1);
      expect(found).toEqual(new Set(live.map((g) => g.id)));
    });

    it('keeps indexes beside games: entries added once, read by owner, removed, an index dropped whole', async () => {
      const store = await open();
      const seat = (instance: string, member: string) => ({ index: 'instance-seats' as const, owner: instance, member });
      await store.addToIndex([seat('web-a', 'g1:black'), seat('web-a', 'g2:white'), seat('web-b', 'g1:white'), { index: 'agent-games', owner: 'edax', member: 'g1' }]);
      await store.addToIndex([seat('web-a', 'g1:black')]);
      expect((await store.indexed('instance-seats', 'web-a')).sort()).toEqual(['g1:black', 'g2:white']);
      expect(await store.indexed('agent-games', 'edax')).toEqual(['g1']);
      expect(await store.indexed('agent-games', 'web-a')).toEqual([]);
      await store.removeFromIndex([seat('web-a', 'g2:white')]);
      expect(await store.indexed('instance-seats', 'web-a')).toEqual(['g1:black']);
      await store.dropIndex('instance-seats', 'web-a');
      expect(await store.indexed('instance-seats', 'web-a')).toEqual([]);
      expect(await store.indexed('instance-seats', 'web-b')).toEqual(['g1:white']);
      await store.addToIndex([{ index: 'unqueued-bot-turns', owner: '', member: 'g3' }]);
      expect(await store.indexed('unqueued-bot-turns', '')).toEqual(['g3']);
    });

    it('removes index entries for a write only while the game is still at its version', async () => {
      const store = await open();
      const game = sampleGame();
      await store.create(game);
      const entry = { index: 'instance-seats' as const, owner: 'web-a', member: `${game.id}:black` };
      await store.addToIndex([entry]);
      await store.update({ ...game, version: 2 });
      await store.removeFromIndex([entry], { gameId: game.id, version: 1 }); // written again since: kept
      expect(await store.indexed('instance-seats', 'web-a')).toEqual([entry.member]);
      await store.removeFromIndex([entry], { gameId: game.id, version: 2 });
      expect(await store.indexed('instance-seats', 'web-a')).toEqual([]);
    });

    it('reads a seat written before its presence stamp existed as held by no process', async () => {
      const store = await open();
      const { connectedVia: _dropped, ...oldSeat } = sampleGame().seats.black;
      const game = sampleGame({ seats: { black: oldSeat as StoredGame['seats']['black'], white: oldSeat as StoredGame['seats']['black'] } });
      await store.create(game);
      expect((await store.get(game.id))?.seats.black.connectedVia).toBeNull();
    });

    it('pages the lobby in creation order: no room repeated or skipped while rooms are made, the count right', async () => {
      const store = await open();
      const first = Array.from({ length: 23 }, (_, i) => sampleGame({ createdAt: 5000 + Math.floor(i / 3) * 10, updatedAt: 9000 - i }));
      for (const game of first) await store.create(game);
      const seen: string[] = [];
      let cursor: string | undefined;
      let added = 0;
      for (let pages = 0; pages < 10; pages++) {
        const page = await store.lobby('waiting', { ...NEWEST, limit: 5, cursor });
        expect(page.total).toBe(first.length + added);
        seen.push(...page.games.map((g) => g.id));
        await store.create(sampleGame({ createdAt: 9000 + pages, updatedAt: 9000 + pages })); // a newer room, on page one only
        added++;
        if (page.next === null) break;
        cursor = page.next;
      }
      expect(seen).toEqual([...first].sort(lobbyOrder('newest')).map((g) => g.id));
      const oldest = await store.lobby('waiting', { ...NEWEST, sort: 'oldest', limit: 3 });
      expect(oldest.games.map((g) => g.id)).toEqual([...first].sort(lobbyOrder('oldest')).slice(0, 3).map((g) => g.id));
      expect(oldest.games[0]).toMatchObject({ ply: 0, status: 'waiting' });
      const back = await store.lobby('waiting', { ...NEWEST, cursor: oldest.next! }); // newest first from the third oldest: the two older ones
      expect(back.games.map((g) => g.id)).toEqual(oldest.games.slice(0, 2).reverse().map((g) => g.id));
      expect(back.next).toBeNull();
    });

    it("filters the lobby by game, rating and seats, and follows a room's seats, status and removal", async () => {
      const store = await open();
      const openSeat = (kind: StoredSeat['kind']): StoredSeat => ({ ...sampleGame().seats.black, kind });
      const taken = (kind: StoredSeat['kind'], name: string): StoredSeat => ({ ...openSeat(kind), name, connected: true });
      const vsBot = sampleGame({ game: 'gomoku', seats: { black: openSeat('human'), white: taken('bot', 'engine-2') } });
      const forAgents = sampleGame({ rated: true, seats: { black: openSeat('agent'), white: taken('human', 'ann') } });
      const twoOpen = sampleGame({ createdAt: 2000, seats: { black: openSeat('human'), white: openSeat('agent') } });
      for (const game of [vsBot, forAgents, twoOpen]) await store.create(game);
      const ids = async (status: StoredGame['status'], filter: Partial<LobbyPageQuery>) => {
        const page = await store.lobby(status, { ...NEWEST, ...filter });
        expect(page.total).toBe(page.games.length);
        return page.games.map((g) => g.id);
      };
      expect(await ids('waiting', {})).toEqual([twoOpen.id, vsBot.id, forAgents.id].sort(byIdDesc(twoOpen.id)));
      expect(await ids('waiting', { game: 'gomoku' })).toEqual([vsBot.id]);
      expect(await ids('waiting', { rated: true })).toEqual([forAgents.id]);
      expect(await ids('waiting', { vs: 'bot' })).toEqual([vsBot.id]);
      expect(await ids('waiting', { open: 'agent' })).toEqual([twoOpen.id, forAgents.id].sort(byIdDesc(twoOpen.id)));
      expect(await ids('waiting', { open: 'agent', vs: 'human' })).toEqual([twoOpen.id, forAgents.id].sort(byIdDesc(twoOpen.id)));
      expect(await ids('waiting', { open: 'human', vs: 'agent' })).toEqual([twoOpen.id]);
      expect(await ids('waiting', { open: 'agent', game: 'othello', rated: false })).toEqual([twoOpen.id]);
      expect(await ids('waiting', { open: 'human', vs: 'human' })).toEqual([]);

      // An agent takes its seat: no longer open to agents; a human seat is still open, across from an agent.
      const seated = { ...twoOpen, version: 2, seats: { ...twoOpen.seats, white: taken('agent', 'edax') } };
      expect(await store.update(seated)).toBe(true);
      expect(await ids('waiting', { open: 'agent' })).toEqual([forAgents.id]);
      expect(await ids('waiting', { open: 'human', vs: 'agent' })).toEqual([twoOpen.id]);
      // The game starts and moves: it leaves the waiting pages for the live ones, under its players' kinds.
      const live = { ...seated, version: 3, status: 'live' as const, seats: { ...seated.seats, black: taken('human', 'bo') } };
      expect(await store.update(live)).toBe(true);
      expect(await store.update({ ...live, version: 4, moves: ['f5'], moveMs: [10], updatedAt: 3000 })).toBe(true);
      expect(await ids('waiting', {})).not.toContain(twoOpen.id);
      expect(await ids('live', { vs: 'agent' })).toEqual([twoOpen.id]);
      expect(await ids('live', { vs: 'bot' })).toEqual([]);
      expect((await store.lobby('live', NEWEST)).games[0]).toMatchObject({ id: twoOpen.id, ply: 1, version: 4 });
      await store.remove([twoOpen.id, vsBot.id]);
      expect(await ids('live', {})).toEqual([]);
      expect(await ids('waiting', { game: 'gomoku' })).toEqual([]);
      expect(await ids('waiting', {})).toEqual([forAgents.id]);
    });
  });
}
