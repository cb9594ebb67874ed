import type { GameId } from '../../shared/rules.js';
import type { Account, LadderConfig, LadderEntrant, PlatformStore, Seek } from './platform.js';

/** The embedded default's platform store: this process's memory. */
export class MemoryPlatform implements PlatformStore {
  private readonly accounts = new Map<string, Account>();
  private readonly sessions = new Map<string, { account: string; until: number }>();
  private readonly hits = new Map<string, { count: number; until: number }>();
  private readonly seekPool = new Map<string, Seek>();
  private readonly locks = new Map<string, { holder: string; until: number }>();
  private readonly ladderConfigs = new Map<GameId, LadderConfig>();
  private readonly entrants = new Map<GameId, Map<string, LadderEntrant>>();
  private readonly played = new Map<GameId, Map<string, number>>();
  private readonly rooms = new Map<string, Map<string, number>>();
  private readonly connectionCounts = new Map<string, number>();

  async createAccount(account: Account): Promise<boolean> {
    const key = account.name.toLowerCase();
    if (this.accounts.has(key)) return false;
    this.accounts.set(key, { ...account });
    return true;
  }

  async account(name: string): Promise<Account | undefined> {
    const found = this.accounts.get(name.toLowerCase());
    return found && { ...found };
  }

  async putSession(idHash: string, account: string, ttlMs: number): Promise<void> {
    this.sessions.set(idHash, { account, until: Date.now() + ttlMs });
  }

  async sessionAccount(idHash: string): Promise<string | undefined> {
    const session = this.sessions.get(idHash);
    if (session && session.until <= Date.now()) this.sessions.delete(idHash);
    return session && session.until > Date.now() ? session.account : undefined;
  }

  async deleteSession(idHash: string): Promise<void> {
    this.sessions.delete(idHash);
  }

  async hit(key: string, windowMs: number, by = 1): Promise<{ count: number; resetInMs: number }> {
    const now = Date.now();
    let entry = this.hits.get(key);
    if (!entry || entry.until <= now) this.hits.set(key, (entry = { count: 0, until: now + windowMs }));
    entry.count += by;
    return { count: entry.count, resetInMs: entry.until - now };
  }

  async holdRoom(set: string, owner: string, gameId: string): Promise<void> {
    await this.reserveRoom(set, owner, gameId, Infinity);
  }

  async reserveRoom(set: string, owner: string, gameId: string, limit: number): Promise<boolean> {
    const held = this.roomSet(set, owner);
    if (held.has(gameId)) return true;
    if (held.size >= limit) return false;
    held.set(gameId, Date.now());
    return true;
  }

  async releaseRoom(set: string, owner: string, gameId: string): Promise<void> {
    this.rooms.get(`${set}|${owner}`)?.delete(gameId);
  }

  async heldRooms(set: string, owner: string, addedBefore = Infinity): Promise<string[]> {
    return [...(this.rooms.get(`${set}|${owner}`) ?? [])].filter(([, added]) => added < addedBefore).map(([gameId]) => gameId);
  }

  /** An owner's rooms in a set, each with when it was added. */
  private roomSet(set: string, owner: string): Map<string, number> {
    const key = `${set}|${owner}`;
    if (!this.rooms.has(key)) this.rooms.set(key, new Map());
    return this.rooms.get(key)!;
  }

  async countConnection(instance: string, address: string, delta: number): Promise<void> {
    const key = `${instance}|${address}`;
    const next = (this.connectionCounts.get(key) ?? 0) + delta;
    if (next > 0) this.connectionCounts.set(key, next);
    else this.connectionCounts.delete(key);
  }

  async connections(address: string, instances: readonly string[]): Promise<number> {
    return instances.reduce((sum, instance) => sum + (this.connectionCounts.get(`${instance}|${address}`) ?? 0), 0);
  }

  async allConnections(instances: readonly string[]): Promise<number> {
    let sum = 0;
    for (const [key, n] of this.connectionCounts) if (instances.includes(key.slice(0, key.indexOf('|')))) sum += n;
    return sum;
  }

  async putSeek(seek: Seek): Promise<void> {
    this.seekPool.set(seek.id, structuredClone(seek));
  }

  async seeks(): Promise<Seek[]> {
    return [...this.seekPool.values()].map((s) => structuredClone(s));
  }

  async takeSeeks(ids: readonly string[]): Promise<boolean> {
    if (!ids.every((id) => this.seekPool.has(id))) return false;
    for (const id of ids) this.seekPool.delete(id);
    return true;
  }

  async lock(name: string, holder: string, ms: number): Promise<boolean> {
    const held = this.locks.get(name);
    if (held && held.holder !== holder && held.until > Date.now()) return false;
    this.locks.set(name, { holder, until: Date.now() + ms });
    return true;
  }

  async setLadder(config: LadderConfig): Promise<void> {
    this.ladderConfigs.set(config.game, { ...config, bots: [...config.bots] });
  }

  async ladders(): Promise<LadderConfig[]> {
    return [...this.ladderConfigs.values()].map((c) => ({ ...c, bots: [...c.bots] }));
  }

  async putLadderEntrant(game: GameId, entrant: LadderEntrant): Promise<void> {
    if (!this.entrants.has(game)) this.entrants.set(game, new Map());
    this.entrants.get(game)!.set(entrant.name, { ...entrant });
  }

  async removeLadderEntrant(game: GameId, name: string): Promise<void> {
    this.entrants.get(game)?.delete(name);
  }

  async ladderEntrants(game: GameId): Promise<LadderEntrant[]> {
    return [...(this.entrants.get(game)?.values() ?? [])].map((e) => ({ ...e }));
  }

  async countLadderGame(game: GameId, names: readonly string[]): Promise<void> {
    if (!this.played.has(game)) this.played.set(game, new Map());
    const counts = this.played.get(game)!;
    for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  }

  async ladderPlayed(game: GameId): Promise<Map<string, number>> {
    return new Map(this.played.get(game) ?? []);
  }
}
