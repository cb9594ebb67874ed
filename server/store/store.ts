import type { Color } from '../../shared/color.js';
import type { Position } from '../../shared/games.js';
import type { GameId, GameOptions } from '../../shared/rules.js';
import { roomTags, type GameAnalysis, type GameResult, type GameStatus, type LobbyQuery, type TimeControl } from '../../shared/protocol/index.js';
import type { Identity, RatingChange, RatingRecord } from '../ratings/rating.js';

export interface StoredSeat {
  readonly kind: 'human' | 'bot' | 'agent';
  /** The player's or agent's name, the bot's roster name; null while open. */
  readonly name: string | null;
  /** For agent seats reserved to one agent. */
  readonly reservedFor: string | null;
  /** SHA-256 of the seat token, never the token itself. */
  readonly tokenHash: string | null;
  readonly connected: boolean;
  /**
   * The server process (its instance id) that holds the seat's connection, while connected. A seat
   * held by a process whose lease has run out is not connected, whatever `connected` says.
   */
  readonly connectedVia: string | null;
  /** Epoch ms the seat's last connection dropped, while it is away. */
  readonly awaySince: number | null;
  /** A human seat taken by a signed-in account (its name is the account's): it can be rated. */
  readonly account: boolean;
}

export interface StoredClock {
  readonly black: number | null;
  readonly white: number | null;
  /** Epoch ms the side to move's clock started, while one runs. */
  readonly turnStartedAt: number | null;
  /** Time given back to a bot seat this turn because the platform owed it its move (a dead worker). */
  readonly outageMs?: number;
}

/** A game as the store keeps it. Every change goes through `GameStore.update` with its version. */
export interface StoredGame {
  readonly id: string;
  readonly game: GameId;
  readonly options: GameOptions;
  readonly timeControl: TimeControl;
  readonly showThinking: boolean;
  readonly seats: { readonly black: StoredSeat; readonly white: StoredSeat };
  readonly status: GameStatus;
  /** The start position's text. */
  readonly start: string;
  readonly position: Position;
  readonly moves: readonly string[];
  /**
   * For each move, the ms its mover spent on it (charged to the clock: from the turn's start to the
   * move, less any outage given back), index by index with `moves`; null where unknown (games
   * stored before times were kept).
   */
  readonly moveMs: readonly (number | null)[];
  readonly version: number;
  readonly clock: StoredClock;
  readonly result: GameResult | null;
  readonly drawOffer: Color | null;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly rematch: string | null;
  /** A rated game changes its players' ratings once, when it ends. */
  readonly rated: boolean;
  /** Made by the bot ladder. */
  readonly ladder: boolean;
  /** Who made the room (`account:…`, `agent:…`, `address:…`, `ladder`): its quotas and its share of the bot queue. */
  readonly owner: string | null;
  /** What the end of a rated game did to each seat's rating. */
  readonly ratingChange: { readonly black: RatingChange; readonly white: RatingChange } | null;
}

/** What is written together with a game's end: the new rating records, and the players whose history lists it. */
export interface GameEnd {
  /** Each written only if the stored record's version is still `version - 1` (0: none stored). */
  readonly ratings: readonly RatingRecord[];
  readonly players: readonly Identity[];
  /**
   * The records the ratings were computed from, and the winner: a store that applies each player's
   * part on its own (Redis) computes a part again from them when another game changed that
   * player's record first.
   */
  readonly rated?: { readonly black: RatingRecord; readonly white: RatingRecord; readonly winner: Color | null };
}

/** A game without its moves: what a table of many games needs. */
export type GameSummary = Omit<StoredGame, 'moves' | 'moveMs'> & { readonly ply: number };

/** A page of the lobby (`rooms:list`) as a store reads it for one status. */
export type LobbyPageQuery = Omit<LobbyQuery, 'status'>;
export interface LobbyPage {
  readonly games: GameSummary[];
  /** Games of the status matching the filter, in all. */
  readonly total: number;
  /** The cursor of the page after this one; null when this is the last. */
  readonly next: string | null;
}

/** The lobby filter words (`roomTags`) a stored game answers to: an open seat is one nobody sits in. */
export function lobbyTagsOf(game: Pick<StoredGame, 'game' | 'rated' | 'status' | 'seats'>): string[] {
  const seat = (s: StoredSeat) => ({ kind: s.kind, open: s.kind !== 'bot' && s.name === null });
  return roomTags({ game: game.game, rated: game.rated ?? false, status: game.status, seats: { black: seat(game.seats.black), white: seat(game.seats.white) } });
}

/** A finished game's analysis as the store caches it: asked for (a job owes it), or done. */
export type StoredAnalysis = { readonly state: 'pending'; readonly requestedAt: number } | { readonly state: 'done'; readonly analysis: GameAnalysis };

export interface AgentIdentity {
  readonly name: string;
  readonly createdAt: number;
}

/**
 * The indexes kept beside games, so periodic work reads what changed, not every game:
 * `instance-seats` of a server process (owner: its instance id; members `gameId:color`, the seats
 * its connections hold), `agent-games` of an agent (owner: its `agentKey`; members the ids of the
 * unfinished games it sits in), and the one `unqueued-bot-turns` (owner `''`; ids of games whose
 * bot turn the queue could not take).
 */
export type GameIndex = 'instance-seats' | 'agent-games' | 'unqueued-bot-turns';

export interface IndexEntry {
  readonly index: GameIndex;
  readonly owner: string;
  readonly member: string;
}

/** An agent's name as the stores index it: one name in any letter case, as account names are. */
export const agentKey = (name: string): string => name.toLowerCase();

/**
 * Where games live. Redis in production, memory in the embedded default; one contract suite
 * (store.contract.ts) runs against both.
 */
export interface GameStore {
  /** Adds a new game at version 1; false when the id exists. */
  create(game: StoredGame): Promise<boolean>;
  get(id: string): Promise<StoredGame | undefined>;
  /**
   * Writes `next` only if the stored version is still `next.version - 1`, appending the moves
   * `next` has beyond the stored ones. False when another write came first: nothing changes.
   */
  update(next: StoredGame, end?: GameEnd): Promise<boolean>;
  /**
   * Each identity's rating in `game`, in the order asked; a fresh record (version 0) for one never
   * rated.
   */
  ratings(game: GameId, identities: readonly Identity[]): Promise<RatingRecord[]>;
  /** The rated identities of `game`, highest rating first. */
  leaderboard(game: GameId, limit: number): Promise<RatingRecord[]>;
  /** The identity's place on `game`'s leaderboard (1 is first); undefined when never rated. */
  rank(game: GameId, identity: Identity): Promise<number | undefined>;
  /** Ids of the games an identity finished, newest first (written by `update` with a `GameEnd`). */
  recentGames(identity: Identity, limit: number): Promise<string[]>;
  /** Newest first. */
  list(status: GameStatus, limit: number): Promise<StoredGame[]>;
  /** Like `list` without the moves (their count instead): tables of thousands of games read these. */
  summaries(status: GameStatus, limit: number): Promise<GameSummary[]>;
  /**
   * A page of the games of a status matching the lobby's filter, in creation order (`lobbyOrder`)
   * from the cursor on: rooms made or changed meanwhile never repeat or skip one.
   */
  lobby(status: GameStatus, query: LobbyPageQuery): Promise<LobbyPage>;
  /** How many games have this status. */
  count(status: GameStatus): Promise<number>;
  /** The ids and last-change times of the games of a status that changed longest ago, oldest first. */
  oldest(status: GameStatus, limit: number): Promise<{ id: string; updatedAt: number }[]>;
  /**
   * A page of the ids of the games of a status, in no order: `cursor` `'0'` starts, and comes back
   * when the scan is over. A game that keeps its status throughout is found at least once.
   */
  scanIds(status: GameStatus, cursor: string, count: number): Promise<{ cursor: string; ids: string[] }>;
  /**
   * Adds entries to the indexes beside games; an entry there already stays. With `forWrite`, they
   * are added for that write of that game, and a removal for an earlier version leaves them.
   */
  addToIndex(entries: readonly IndexEntry[], forWrite?: { readonly gameId: string; readonly version: number }): Promise<void>;
  /**
   * Removes index entries; with `whileAt`, only while that game is still at that version, or (Redis)
   * while no later write of it added entries (a later write indexed the game itself, and an entry
   * may be its again).
   */
  removeFromIndex(entries: readonly IndexEntry[], whileAt?: { readonly gameId: string; readonly version: number }): Promise<void>;
  /**
   * Applies the game ends a writer left half done (a store that applies them in steps, Redis);
   * returns how many it took up.
   */
  applyPendingEnds?(): Promise<number>;
  /**
   * Index entries a write could not wait for (their master was failing over), made again from the
   * games; returns the games relisted. A store whose writes always wait has none.
   */
  repairListings?(): Promise<number>;
  /** The members of one index. */
  indexed(index: GameIndex, owner: string): Promise<string[]>;
  /** Forgets one index whole (a gone process's seats). */
  dropIndex(index: GameIndex, owner: string): Promise<void>;
  /** Forgets games for good (retention), with their analyses. */
  remove(ids: readonly string[]): Promise<void>;
  /** The game's analysis, asked for or done; undefined when never asked. */
  analysis(id: string): Promise<StoredAnalysis | undefined>;
  /**
   * Marks the game's analysis as asked for at `requestedAt`, in one step, unless a record is there:
   * `claimed` when this call marked it (its caller queues the job), else the record found, so
   * two requests never both queue one.
   */
  claimAnalysis(id: string, requestedAt: number): Promise<{ readonly claimed: true } | { readonly claimed: false; readonly existing: StoredAnalysis }>;
  /** Keeps the finished analysis; false (nothing kept) when the game is gone. */
  putAnalysis(id: string, analysis: GameAnalysis): Promise<boolean>;
  /** Forgets an analysis still asked for (its job failed), so it may be asked again; a done one stays. */
  dropPendingAnalysis(id: string): Promise<void>;
  /**
   * The store's birth mark, made by the first caller: a store that comes back empty (a Redis
   * restarted without persistence) answers a new one, so every process can tell its games are gone.
   */
  birthMark(): Promise<string>;
  close(): Promise<void>;
}

/**
 * Whether an error is the store being out of reach (Redis down or reconnecting): the request
 * changed nothing and may be sent again, as opposed to a bug.
 */
export function isStoreUnavailable(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /Stream isn't writeable|Connection is closed|ECONNREFUSED|ECONNRESET|EPIPE|MaxRetriesPerRequest|did not answer WAIT/i.test(message);
}

/** A game written before a field existed reads as if the field had its empty value. */
export function withDefaults(game: StoredGame): StoredGame {
  const seat = (s: StoredSeat): StoredSeat => ({ ...s, connectedVia: s.connectedVia ?? null, account: s.account ?? false });
  const moveMs = game.moveMs?.length === game.moves.length ? game.moveMs : game.moves.map((_, i) => game.moveMs?.[i] ?? null);
  return { ...game, moveMs, rated: game.rated ?? false, ladder: game.ladder ?? false, owner: game.owner ?? null, ratingChange: game.ratingChange ?? null, seats: { black: seat(game.seats.black), white: seat(game.seats.white) } };
}
