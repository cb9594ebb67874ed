import type { GameOptions, GameId } from '../../shared/rules.js';
import type { TimeControl } from '../../shared/protocol/index.js';

export interface Account {
  readonly name: string;
  /** The scrypt hash of the password with its salt and cost (`server/accounts/passwords.ts`). */
  readonly passwordHash: string;
  readonly createdAt: number;
}

/** A player waiting for quick pairing. */
export interface Seek {
  readonly id: string;
  readonly game: GameId;
  readonly options: GameOptions;
  readonly timeControl: TimeControl;
  readonly rated: boolean;
  /** The signed-in account seeking, or null for a guest (casual seeks only). */
  readonly account: string | null;
  /** The name shown on the board. */
  readonly name: string;
  readonly rating: number;
  /** Whose quotas and queue share the game counts against (`account:…` or `address:…`). */
  readonly owner: string;
  /** The server process holding the seeker's connection. */
  readonly instance: string;
  readonly since: number;
}

/** The bot ladder of one game: the roster bots the admin entered and how many games run at once. */
export interface LadderConfig {
  readonly game: GameId;
  readonly bots: readonly string[];
  readonly concurrent: number;
}

/** An agent on the ladder (`ladder:join`), while its connection lasts. */
export interface LadderEntrant {
  readonly name: string;
  /** Ladder games it plays at once at most. */
  readonly games: number;
  readonly instance: string;
}

/**
 * What the platform keeps beside games: accounts and their sessions, counters for rate limits,
 * the quick-pairing pool, the ladder, and locks that let one process at a time pair players.
 * Redis in production, memory in the embedded default; one contract suite (platform.contract.ts).
 */
export interface PlatformStore {
  /** False (and nothing written) when the name is taken, in any letter case. */
  createAccount(account: Account): Promise<boolean>;
  /** By name, in any letter case. */
  account(name: string): Promise<Account | undefined>;
  /** Sessions are kept by the hash of their id, never the id itself. */
  putSession(idHash: string, account: string, ttlMs: number): Promise<void>;
  sessionAccount(idHash: string): Promise<string | undefined>;
  deleteSession(idHash: string): Promise<void>;
  /** `by` more (default 1) under `key` in a window that starts at the first: the count so far and the ms left in the window. */
  hit(key: string, windowMs: number, by?: number): Promise<{ count: number; resetInMs: number }>;
  /** Adds a room to an owner's set of rooms under a name (`rooms`, `bot-games`): what its quotas count. */
  holdRoom(set: string, owner: string, gameId: string): Promise<void>;
  /**
   * Adds a room to the set only while it holds fewer than `limit`, counted and added in one step,
   * so requests at once cannot all pass: false (nothing added) at the limit. A room held already is kept.
   */
  reserveRoom(set: string, owner: string, gameId: string, limit: number): Promise<boolean>;
  releaseRoom(set: string, owner: string, gameId: string): Promise<void>;
  /** The rooms in the set, or only those added before `addedBefore` (ms since the epoch). */
  heldRooms(set: string, owner: string, addedBefore?: number): Promise<string[]>;
  /** This process's open connections from an address go up or down by `delta`. */
  countConnection(instance: string, address: string, delta: number): Promise<void>;
  /** Open connections from an address, summed over the processes named. */
  connections(address: string, instances: readonly string[]): Promise<number>;
  /** Open connections from every address, summed over the processes named. */
  allConnections(instances: readonly string[]): Promise<number>;
  putSeek(seek: Seek): Promise<void>;
  seeks(): Promise<Seek[]>;
  /** Removes every seek named if all are still there, else none: a pairing claims its seekers. */
  takeSeeks(ids: readonly string[]): Promise<boolean>;
  /** Takes the named lock for `holder` for `ms`, or renews it for its holder; false while another holds it. */
  lock(name: string, holder: string, ms: number): Promise<boolean>;
  setLadder(config: LadderConfig): Promise<void>;
  ladders(): Promise<LadderConfig[]>;
  putLadderEntrant(game: GameId, entrant: LadderEntrant): Promise<void>;
  removeLadderEntrant(game: GameId, name: string): Promise<void>;
  ladderEntrants(game: GameId): Promise<LadderEntrant[]>;
  /** Counts one ladder game for each name: the rotation gives the next game to whoever has played least. */
  countLadderGame(game: GameId, names: readonly string[]): Promise<void>;
  ladderPlayed(game: GameId): Promise<Map<string, number>>;
}
