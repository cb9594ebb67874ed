import { filterTags, lobbyOrder, makeCursor, readCursor, type GameAnalysis, type GameStatus } from '../../shared/protocol/index.js';
import type { GameId } from '../../shared/rules.js';
import { freshRecord, identityKey, type Identity, type RatingRecord } from '../ratings/rating.js';
import { agentKey, lobbyTagsOf, withDefaults, type AgentIdentity, type GameEnd, type GameIndex, type GameStore, type GameSummary, type IndexEntry, type LobbyPage, type LobbyPageQuery, type StoredAnalysis, type StoredGame } from './store.js';
import type { AgentStore } from './agents.js';
import type { LeaseStore } from './leases.js';

const RECENT_KEPT = 50;

function summary(game: StoredGame): GameSummary {
  const { moves, moveMs: _times, ...rest } = withDefaults(game);
  return { ...rest, ply: moves.length };
}

/**
 * The embedded default: games in this process's memory, gone when it stops. A game is an
 * immutable value (every field readonly; each change makes a new one), so the store keeps and
 * hands out the objects themselves rather than copies: a write costs nothing per move played.
 */
export class MemoryStore implements GameStore, AgentStore, LeaseStore {
  private readonly games = new Map<string, StoredGame>();
  /** When each game entered its status's list: a live game keeps the time it went live through its moves. */
  private readonly listedAt = new Map<string, number>();
  private readonly agents = new Map<string, AgentIdentity>();
  private readonly agentNames = new Map<string, AgentIdentity & { tokenHash: string }>();
  private readonly leaseEnds = new Map<string, number>();
  private readonly ratingRecords = new Map<string, RatingRecord>();
  private readonly recent = new Map<string, string[]>();
  private readonly analyses = new Map<string, StoredAnalysis>();
  private readonly indexes = new Map<string, Set<string>>();
  private readonly born = `${Date.now()}-${Math.random().toString(36).slice(2, 10)}`;

  async create(game: StoredGame): Promise<boolean> {
    if (this.games.has(game.id)) return false;
    this.games.set(game.id, { ...game, version: 1 });
    this.listedAt.set(game.id, game.updatedAt);
    return true;
  }

  async get(id: string): Promise<StoredGame | undefined> {
    const game = this.games.get(id);
    return game && withDefaults(game);
  }

  async update(next: StoredGame, end?: GameEnd): Promise<boolean> {
    const current = this.games.get(next.id);
    if (!current || current.version !== next.version - 1) return false;
    const key = (r: RatingRecord): string => `${r.game}|${identityKey(r)}`;
    if (end?.ratings.some((r) => (this.ratingRecords.get(key(r))?.version ?? 0) !== r.version - 1)) return false;
    this.games.set(next.id, next);
    if (!(current.status === 'live' && next.status === 'live')) this.listedAt.set(next.id, next.updatedAt);
    for (const record of end?.ratings ?? []) this.ratingRecords.set(key(record), { ...record });
    for (const player of end?.players ?? []) this.recent.set(identityKey(player), [next.id, ...(this.recent.get(identityKey(player)) ?? [])].slice(0, RECENT_KEPT));
    return true;
  }

  async ratings(game: GameId, identities: readonly Identity[]): Promise<RatingRecord[]> {
    return identities.map((identity) => ({ ...(this.ratingRecords.get(`${game}|${identityKey(identity)}`) ?? freshRecord(game, identity)) }));
  }

  async leaderboard(game: GameId, limit: number): Promise<RatingRecord[]> {
    return [...this.ratingRecords.values()]
      .filter((r) => r.game === game)
      .sort((a, b) => b.rating - a.rating)
      .slice(0, limit)
      .map((r) => ({ ...r }));
  }

  async rank(game: GameId, identity: Identity): Promise<number | undefined> {
    const board = await this.leaderboard(game, Infinity);
    const place = board.findIndex((r) => identityKey(r) === identityKey(identity));
    return place < 0 ? undefined : place + 1;
  }

  async recentGames(identity: Identity, limit: number): Promise<string[]> {
    return (this.recent.get(identityKey(identity)) ?? []).slice(0, limit);
  }

  async summaries(status: GameStatus, limit: number): Promise<GameSummary[]> {
    return this.byChange(status, limit).map(summary);
  }

  async lobby(status: GameStatus, query: LobbyPageQuery): Promise<LobbyPage> {
    const wanted = filterTags(query);
    const order = lobbyOrder(query.sort);
    const matching = [...this.games.values()].filter((g) => g.status === status && wanted.every((tag) => lobbyTagsOf(g).includes(tag))).sort(order);
    const after = query.cursor === undefined ? undefined : readCursor(query.cursor);
    const from = after ? matching.filter((g) => order(g, after) > 0) : matching;
    const page = from.slice(0, query.limit);
    return { games: page.map(summary), total: matching.length, next: from.length > page.length ? makeCursor(page.at(-1)!) : null };
  }

  async list(status: GameStatus, limit: number): Promise<StoredGame[]> {
    return this.byChange(status, limit).map((g) => withDefaults(g));
  }

  private byChange(status: GameStatus, limit: number): StoredGame[] {
    return [...this.games.values()]
      .filter((g) => g.status === status)
      .sort((a, b) => this.listedAt.get(b.id)! - this.listedAt.get(a.id)!)
      .slice(0, limit);
  }

  async count(status: GameStatus): Promise<number> {
    let n = 0;
    for (const g of this.games.values()) if (g.status === status) n++;
    return n;
  }

  async oldest(status: GameStatus, limit: number): Promise<{ id: string; updatedAt: number }[]> {
    return [...this.games.values()]
      .filter((g) => g.status === status)
      .sort((a, b) => a.updatedAt - b.updatedAt)
      .slice(0, limit)
      .map((g) => ({ id: g.id, updatedAt: g.updatedAt }));
  }

  /** The cursor is an offset into the games of the status as they are now. */
  async scanIds(status: GameStatus, cursor: string, count: number): Promise<{ cursor: string; ids: string[] }> {
    const from = Number(cursor);
    const all = [...this.games.values()].filter((g) => g.status === status).map((g) => g.id);
    const next = from + count;
    return { cursor: next >= all.length ? '0' : String(next), ids: all.slice(from, next) };
  }

  async addToIndex(entries: readonly IndexEntry[]): Promise<void> {
    for (const { index, owner, member } of entries) {
      const key = indexKey(index, owner);
      this.indexes.set(key, (this.indexes.get(key) ?? new Set()).add(member));
    }
  }

  async removeFromIndex(entries: readonly IndexEntry[], whileAt?: { readonly gameId: string; readonly version: number }): Promise<void> {
    if (whileAt && this.games.get(whileAt.gameId)?.version !== whileAt.version) return;
    for (const { index, owner, member } of entries) {
      const key = indexKey(index, owner);
      const members = this.indexes.get(key);
      members?.delete(member);
      if (members?.size === 0) this.indexes.delete(key);
    }
  }

  async indexed(index: GameIndex, owner: string): Promise<string[]> {
    return [...(this.indexes.get(indexKey(index, owner)) ?? [])];
  }

  async dropIndex(index: GameIndex, owner: string): Promise<void> {
    this.indexes.delete(indexKey(index, owner));
  }

  async remove(ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      this.games.delete(id);
      this.listedAt.delete(id);
      this.analyses.delete(id);
    }
  }

  async analysis(id: string): Promise<StoredAnalysis | undefined> {
    return this.analyses.get(id);
  }

  async claimAnalysis(id: string, requestedAt: number): Promise<{ claimed: true } | { claimed: false; existing: StoredAnalysis }> {
    const existing = this.analyses.get(id);
    if (existing) return { claimed: false, existing };
    this.analyses.set(id, { state: 'pending', requestedAt });
    return { claimed: true };
  }

  async putAnalysis(id: string, analysis: GameAnalysis): Promise<boolean> {
    if (!this.games.has(id)) return false;
    this.analyses.set(id, { state: 'done', analysis });
    return true;
  }

  async dropPendingAnalysis(id: string): Promise<void> {
    if (this.analyses.get(id)?.state === 'pending') this.analyses.delete(id);
  }

  async putAgent(tokenHash: string, agent: AgentIdentity): Promise<boolean> {
    const key = agentKey(agent.name);
    if (this.agentNames.has(key)) return false;
    this.agentNames.set(key, { ...agent, tokenHash });
    this.agents.set(tokenHash, agent);
    return true;
  }

  async agentNamed(name: string): Promise<AgentIdentity | undefined> {
    const found = this.agentNames.get(agentKey(name));
    return found && { name: found.name, createdAt: found.createdAt };
  }

  async replaceAgentToken(name: string, tokenHash: string): Promise<boolean> {
    const found = this.agentNames.get(agentKey(name));
    if (!found) return false;
    this.agents.delete(found.tokenHash);
    const identity = { name: found.name, createdAt: found.createdAt };
    this.agents.set(tokenHash, identity);
    this.agentNames.set(agentKey(name), { ...identity, tokenHash });
    return true;
  }

  async deleteAgent(name: string): Promise<boolean> {
    const found = this.agentNames.get(agentKey(name));
    if (!found) return false;
    this.agents.delete(found.tokenHash);
    this.agentNames.delete(agentKey(name));
    return true;
  }

  async renewLease(instance: string, until: number): Promise<void> {
    this.leaseEnds.set(instance, until);
  }

  async leases(): Promise<Map<string, number>> {
    return new Map(this.leaseEnds);
  }

  async dropLease(instance: string, until: number): Promise<void> {
    if (this.leaseEnds.get(instance) === until) this.leaseEnds.delete(instance);
  }

  async getAgent(tokenHash: string): Promise<AgentIdentity | undefined> {
    return this.agents.get(tokenHash);
  }

  async birthMark(): Promise<string> {
    return this.born;
  }

  async close(): Promise<void> {}
}

function indexKey(index: GameIndex, owner: string): string {
  return `${index}|${owner}`;
}
