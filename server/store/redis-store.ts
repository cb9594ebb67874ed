import { answeredWithin, masterAddressOf, ownerOf, replicaOf, replicasOf, type RedisClient } from '../redis/connections.js';
import { filterTags, makeCursor, readCursor, type GameAnalysis, type GameStatus } from '../../shared/protocol/index.js';
import type { GameId } from '../../shared/rules.js';
import { freshRecord, identityKey, type Identity, type RatingRecord } from '../ratings/rating.js';
import { GameEnds } from './redis-game-ends.js';
import { RedisKeys } from './redis-keys.js';
import { migrateLayout } from './redis-layout.js';
import { decodeDocument, encodeDocument } from './document-codec.js';
import { agentKey, lobbyTagsOf, withDefaults, type AgentIdentity, type GameEnd, type GameIndex, type GameStore, type GameSummary, type IndexEntry, type LobbyPage, type LobbyPageQuery, type StoredAnalysis, type StoredGame } from './store.js';
import type { AgentStore } from './agents.js';
import type { LeaseStore } from './leases.js';

/** How much longer than its own timeout a `WAIT` may take to be answered before the master counts as gone. */
const WAIT_ANSWER_MS = 250;
/** Games whose summaries are read in one batch; a table of thousands reads them batch after batch. */
const SUMMARIES_PER_READ = 500;
/**
 * How long a game's end waits on its players' masters before going on without them: a rating is
 * then read from a replica, and the end applied to the players after the move is answered. So a
 * game on a healthy master ends on time while its players' master fails over.
 */
const PLAYERS_MASTER_MS = 250;
/**
 * How long a game's write waits on the indexes' master (\`{idx}\`) before going on without it, so
 * a game on a healthy master moves, starts and ends on time while the indexes' master fails over.
 * What the write did not wait for is still sent (the client sends it again to the promoted
 * replica), and the game is owed a relisting, which the sweep makes from the game itself.
 */
const INDEX_ANSWER_MS = 250;
/** Index entries read at once by an audit of the listings. */
const AUDIT_BATCH = 500;

/**
 * The indexes across games live in one slot (`{idx}`, see RedisKeys), apart from the games: a
 * write that changes a game's entries adds the new ones before the game's write and removes the
 * old ones after it, so a process dying between leaves a spare entry, never a missing one, and
 * every reader checks what it finds against the game. Each addition stamps the game with the
 * version of the write it is for, and a removal for an older version is dropped: a later write
 * that wants the entry again is never undone by an earlier one's tidying. An entry there already
 * keeps its score (a game stays where its status put it), so adding one again is harmless.
 * KEYS: the stamps hash, then one key per entry. ARGV: game id, version, then per entry: `z` (a
 * sorted set) or `s` (a set), its member, its score.
 */
const INDEX_ADD = `
local stamp = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if stamp < tonumber(ARGV[2]) then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
for i = 2, #KEYS do
  local at = 3 * (i - 1)
  if ARGV[at] == 'z' then redis.call('ZADD', KEYS[i], 'NX', ARGV[at + 2], ARGV[at + 1]) else redis.call('SADD', KEYS[i], ARGV[at + 1]) end
end
return 1`;

/** As INDEX_ADD; removes the entries unless a write after `version` stamped the game. */
const INDEX_DROP = `
if tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0') > tonumber(ARGV[2]) then return 0 end
for i = 2, #KEYS do
  local at = 3 * (i - 1)
  if ARGV[at] == 'z' then redis.call('ZREM', KEYS[i], ARGV[at + 1]) else redis.call('SREM', KEYS[i], ARGV[at + 1]) end
end
return 1`;

/**
 * The compare-and-set write of one game, in its own slot: its hash changes only if its version is
 * the expected one, and the new moves are appended to its list. The hash keeps the game's listing
 * (\`lobby\`: its status, then its filter words); a write that changes it is refused (2) unless
 * told its index entries were added (\`indexed\` 1), so a move, which changes none, is one round
 * trip. A game's end keeps what it does to its players (\`end\`) until they are applied.
 * KEYS: game hash, moves list. ARGV: expected version, new version, document, the index of the
 * first move sent, listing, indexed, end (empty: none), then the moves from that index on (those
 * the list holds already are skipped). Returns {1, the listing before} when written, 0 when the
 * version differs, -1 when moves before the first one sent are missing (send them all), 2 when the
 * listing changes and the index is not ready.
 */
const UPDATE = `
local current = redis.call('HMGET', KEYS[1], 'version', 'lobby', 'plies')
if current[1] ~= ARGV[1] then return 0 end
if current[2] ~= ARGV[5] and ARGV[6] ~= '1' then return 2 end
local first = tonumber(ARGV[4])
local stored = tonumber(current[3]) or redis.call('LLEN', KEYS[2])
if stored < first then return -1 end
local plies = stored + math.max(0, #ARGV - (8 + stored - first) + 1)
redis.call('HSET', KEYS[1], 'doc', ARGV[3], 'version', ARGV[2], 'plies', plies, 'lobby', ARGV[5])
if ARGV[7] ~= '' then redis.call('HSET', KEYS[1], 'end', ARGV[7]) end
for i = 8 + stored - first, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
return {1, current[2] or ''}`;

/** One round trip for a whole game. KEYS: game hash, moves list. Returns nil or {doc, version, moves}. */
const GET = `
local game = redis.call('HMGET', KEYS[1], 'doc', 'version')
if not game[1] then return nil end
return {game[1], game[2], redis.call('LRANGE', KEYS[2], 0, -1)}`;

/** KEYS: game hash, moves list. ARGV: document, listing, then the moves. 0 when the id exists. */
const CREATE = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'doc', ARGV[1], 'version', '1', 'plies', math.max(0, #ARGV - 2), 'lobby', ARGV[2])
for i = 3, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
return 1`;

/**
 * The ids of a page of the lobby, in the index's slot. KEYS: the sets to intersect
 * (\`lobby:<status>\` alone, or one per filter word). ARGV: 1 for newest first, the page's size,
 * the cursor's score and id (empty: the first page). The smallest set is walked in order from
 * just after the cursor and each member is checked in the others. Returns the count matching, 1
 * if a page follows, then the ids.
 */
const LOBBY_PAGE = `
local newest, limit, bound, after = ARGV[1] == '1', tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4]
local driver, size = KEYS[1], redis.call('ZCARD', KEYS[1])
for i = 2, #KEYS do
  local n = redis.call('ZCARD', KEYS[i])
  if n < size then driver, size = KEYS[i], n end
end
local total = size
if #KEYS > 1 then total = redis.call('ZINTERCARD', #KEYS, unpack(KEYS)) end
local start = 0
if bound then
  if newest then start = redis.call('ZCOUNT', driver, '(' .. bound, '+inf') else start = redis.call('ZCOUNT', driver, '-inf', '(' .. bound) end
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', driver, bound, bound)) do
    if (newest and id >= after) or (not newest and id <= after) then start = start + 1 end
  end
end
local out, more, batch = {total, 0}, 0, math.max(limit + 1, 200)
while more == 0 and start < size do
  local chunk = redis.call(newest and 'ZREVRANGE' or 'ZRANGE', driver, start, start + batch - 1)
  start = start + batch
  for _, id in ipairs(chunk) do
    local matches = true
    for i = 1, #KEYS do
      if KEYS[i] ~= driver and not redis.call('ZSCORE', KEYS[i], id) then matches = false break end
    end
    if matches then
      if #out - 2 == limit then more = 1 break end
      out[#out + 1] = id
    end
  end
end
out[2] = more
return out`;

/**
 * Agents: a hash token hash → identity, and a hash name (in lower case) → token hash, so a name has
 * one token and one owner in any letter case.
 * KEYS: names hash, tokens hash. ARGV: name, token hash, identity JSON. 1 when registered, 0
 * when the name is taken.
 */
const PUT_AGENT = `
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
return 1`;

/** KEYS: names hash, tokens hash. ARGV: name, new token hash (none: delete). 1 when done, 0 when no such agent. */
const REPLACE_AGENT_TOKEN = `
local old = redis.call('HGET', KEYS[1], ARGV[1])
if not old then return 0 end
local identity = redis.call('HGET', KEYS[2], old)
redis.call('HDEL', KEYS[2], old)
if ARGV[2] then
  redis.call('HSET', KEYS[2], ARGV[2], identity)
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
else
  redis.call('HDEL', KEYS[1], ARGV[1])
end
return 1`;

/**
 * Agents registered when names were indexed as given: each such field of the names hash moves to its
 * lower-cased name (agent names are ASCII). One whose name another agent holds in another letter
 * case stays where it is: its token still works, its name finds the other. KEYS: names hash.
 */
const LOWER_AGENT_NAMES = `
for _, name in ipairs(redis.call('HKEYS', KEYS[1])) do
  local lower = string.lower(name)
  if lower ~= name and redis.call('HSETNX', KEYS[1], lower, redis.call('HGET', KEYS[1], name)) == 1 then
    redis.call('HDEL', KEYS[1], name)
  end
end
return 1`;

/**
 * A game's analysis is a hash beside the game (`game:<id>:analysis`: `state`, `doc`). KEYS: that
 * hash. ARGV: the pending record's JSON. Marks it pending when absent (returns nil), else returns
 * the record's JSON.
 */
const CLAIM_ANALYSIS = `
if redis.call('HSETNX', KEYS[1], 'state', 'pending') == 0 then return redis.call('HGET', KEYS[1], 'doc') end
redis.call('HSET', KEYS[1], 'doc', ARGV[1])
return false`;

/** KEYS: the analysis hash, the game hash. ARGV: the done record's JSON. 0 when the game is gone. */
const PUT_ANALYSIS = `
if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
redis.call('HSET', KEYS[1], 'state', 'done', 'doc', ARGV[1])
return 1`;

/** KEYS: the analysis hash. Deletes it if it is still pending. */
const DROP_PENDING_ANALYSIS = `
if redis.call('HGET', KEYS[1], 'state') == 'pending' then redis.call('DEL', KEYS[1]) end
return 1`;

type Document = Omit<StoredGame, 'moves' | 'moveMs' | 'version'>;

/** A game's hash read for a summary: doc, version and its count of moves. */
function readSummary(doc: string, version: string, ply: number): GameSummary {
  const { moves: _none, moveMs: _times, ...game } = withDefaults({ ...decodeDocument<Document>(doc), moves: [], moveMs: [], version: Number(version) });
  return { ...game, ply };
}

/**
 * A move as its list keeps it: the move, then its time when known (`f5 1234`); a move stored
 * before times were kept is the move alone. Moves never hold a space.
 */
function moveEntry(move: string, ms: number | null | undefined): string {
  return ms === null || ms === undefined ? move : `${move} ${Math.round(ms)}`;
}

function readEntries(entries: readonly string[]): { moves: string[]; moveMs: (number | null)[] } {
  const moves: string[] = [];
  const moveMs: (number | null)[] = [];
  for (const entry of entries) {
    const space = entry.indexOf(' ');
    moves.push(space < 0 ? entry : entry.slice(0, space));
    const ms = space < 0 ? NaN : Number(entry.slice(space + 1));
    moveMs.push(Number.isFinite(ms) ? ms : null);
  }
  return { moves, moveMs };
}
/** KEYS: the leases. ARGV: the instance, the end a sweep saw. Drops the lease only if it still ends then. */
const DROP_LEASE = `if redis.call('ZSCORE', KEYS[1], ARGV[1]) == ARGV[2] then redis.call('ZREM', KEYS[1], ARGV[1]) end`;
/** A game's end pending this long is taken to be its writer's no more: the sweep applies it. */
const END_PENDING_GRACE_MS = 5000;

type IndexItem = { readonly key: string; readonly kind: 'z' | 's'; readonly member: string; readonly score: number };

/**
 * Games in Redis: a hash per game (`doc`: everything but the moves; `version`), a list of its
 * moves with their times (`moveEntry`), and indexes across games in a slot of their own
 * (`RedisKeys`). Every script touches one slot, so the same store runs on a Redis Cluster. Writes
 * are Lua scripts, so two server processes can never both apply a move for the same ply.
 */
export class RedisStore implements GameStore, AgentStore, LeaseStore {
  private agentNamesLowered: Promise<string> | undefined;
  private readonly k: RedisKeys;
  private readonly ends: GameEnds;
  /** Games whose index writes were not answered in time: relisted by the next sweep. */
  private readonly owed = new Set<string>();
  /** Masters (\`host:port\`) that left a read of a player unanswered, and have answered none since. */
  private readonly silentMasters = new Set<string>();
  /** Index work went unanswered, and none has been answered since. */
  private indexesSilent = false;
  /** Set when the cluster lost a node (`doubtListings`): a process that died meanwhile may have owed relistings too. */
  private auditDue = false;

  constructor(
    private readonly redis: RedisClient,
    prefix = 'boardroom:',
    /**
     * Each game write is acknowledged only once a replica of its master has it (`WAIT 1 ms`), so
     * a failover loses no write the server answered for; `onShort` hears a write no replica took in time.
     */
    private readonly replication?: { readonly waitMs: number; readonly onShort: (gameId: string) => void },
  ) {
    this.k = new RedisKeys(prefix);
    this.ends = new GameEnds(redis, this.k);
    redis.defineCommand('boardroomUpdate', { numberOfKeys: 2, lua: UPDATE });
    redis.defineCommand('boardroomCreate', { numberOfKeys: 2, lua: CREATE });
    redis.defineCommand('boardroomLobbyPage', { lua: LOBBY_PAGE });
    redis.defineCommand('boardroomGet', { numberOfKeys: 2, lua: GET });
    redis.defineCommand('boardroomIndexAdd', { lua: INDEX_ADD });
    redis.defineCommand('boardroomIndexDrop', { lua: INDEX_DROP });
    redis.defineCommand('boardroomPutAgent', { numberOfKeys: 2, lua: PUT_AGENT });
    redis.defineCommand('boardroomReplaceAgentToken', { numberOfKeys: 2, lua: REPLACE_AGENT_TOKEN });
    redis.defineCommand('boardroomLowerAgentNames', { numberOfKeys: 1, lua: LOWER_AGENT_NAMES });
    redis.defineCommand('boardroomClaimAnalysis', { numberOfKeys: 1, lua: CLAIM_ANALYSIS });
    redis.defineCommand('boardroomPutAnalysis', { numberOfKeys: 2, lua: PUT_ANALYSIS });
    redis.defineCommand('boardroomDropPendingAnalysis', { numberOfKeys: 1, lua: DROP_PENDING_ANALYSIS });
    redis.defineCommand('boardroomDropLease', { numberOfKeys: 1, lua: DROP_LEASE });
  }

  /** Renames the keys of the first layout, once per prefix (a mark says it is done); see `migrateLayout`. */
  async migrate(): Promise<number> {
    return migrateLayout(this.redis, this.k);
  }

  async analysis(id: string): Promise<StoredAnalysis | undefined> {
    const doc = await this.redis.hget(this.k.analysis(id), 'doc');
    return doc ? (JSON.parse(doc) as StoredAnalysis) : undefined;
  }

  async claimAnalysis(id: string, requestedAt: number): Promise<{ claimed: true } | { claimed: false; existing: StoredAnalysis }> {
    const pending: StoredAnalysis = { state: 'pending', requestedAt };
    const found = (await this.call('boardroomClaimAnalysis', [this.k.analysis(id), JSON.stringify(pending)])) as string | null;
    return found ? { claimed: false, existing: JSON.parse(found) as StoredAnalysis } : { claimed: true };
  }

  async putAnalysis(id: string, analysis: GameAnalysis): Promise<boolean> {
    const done: StoredAnalysis = { state: 'done', analysis };
    return (await this.call('boardroomPutAnalysis', [this.k.analysis(id), this.k.game(id), JSON.stringify(done)])) === 1;
  }

  async dropPendingAnalysis(id: string): Promise<void> {
    await this.call('boardroomDropPendingAnalysis', [this.k.analysis(id)]);
  }

  /** The status set and lobby sets a game belongs in, by its listing (`<status> <word>…`). */
  private listingItems(id: string, listing: string, score: number, createdAt: number): IndexItem[] {
    const [status, ...words] = listing.split(' ');
    if (!status) return [];
    return [
      { key: this.k.status(status as GameStatus), kind: 'z', member: id, score },
      { key: this.k.lobby(status), kind: 'z', member: id, score: createdAt },
      ...words.map((word): IndexItem => ({ key: this.k.lobby(status, word), kind: 'z', member: id, score: createdAt })),
    ];
  }

  private indexScript(script: 'boardroomIndexAdd' | 'boardroomIndexDrop', gameId: string, version: number, items: readonly IndexItem[]): Promise<unknown> {
    const keys = [this.k.indexStamps(), ...items.map((i) => i.key)];
    return this.call(script, [keys.length, ...keys, gameId, version, ...items.flatMap((i) => [i.kind, i.member, i.score])]);
  }

  async create(game: StoredGame): Promise<boolean> {
    const { moves, moveMs, version: _version, ...doc } = game;
    const entries = moves.map((m, i) => moveEntry(m, moveMs?.[i]));
    const listing = listingOf(game);
    await this.indexScript('boardroomIndexAdd', game.id, 1, this.listingItems(game.id, listing, game.updatedAt, game.createdAt));
    const created = (await this.call('boardroomCreate', [this.k.game(game.id), this.k.moves(game.id), encodeDocument(doc), listing, ...entries])) === 1;
    if (created) await this.replicated(game.id);
    return created;
  }

  async get(id: string): Promise<StoredGame | undefined> {
    const found = (await this.call('boardroomGet', [this.k.game(id), this.k.moves(id)])) as [string, string, string[]] | null;
    if (!found) return undefined;
    const [doc, version, entries] = found;
    return withDefaults({ ...decodeDocument<Document>(doc), ...readEntries(entries), version: Number(version) });
  }

  /**
   * Sends only the newest move (a write adds at most one), or every move when the list lacks more.
   * A move is one script; a write that changes the game's listing first adds its new index entries
   * and after it removes the old ones. A game's end is kept with the game and then applied to its
   * players (`GameEnds`); ratings computed from records that changed meanwhile stop the write.
   */
  async update(next: StoredGame, end?: GameEnd): Promise<boolean> {
    if (end && end.ratings.length > 0) {
      const stored = await this.ratings(end.ratings[0]!.game, end.ratings);
      if (stored.some((record, i) => record.version !== end.ratings[i]!.version - 1)) return false;
    }
    const listing = listingOf(next);
    const ending = end && end.players.length > 0 ? end : undefined;
    const marked = ending ? this.indexSoon(next.id, this.ends.markPending(next.id)) : undefined;
    // A live game's move keeps its listing: it asks the game's script first (one round trip). Any
    // other write likely changes it: its entries are added first, and the script told so.
    let added: Promise<boolean> | undefined;
    const addEntries = (): Promise<boolean> => this.indexSoon(next.id, this.indexScript('boardroomIndexAdd', next.id, next.version, this.listingItems(next.id, listing, next.updatedAt, next.createdAt)));
    if (next.status !== 'live' || next.moves.length === 0) added = addEntries();
    await marked;
    let first = Math.max(0, next.moves.length - 1);
    for (;;) {
      await added;
      const done = await this.write(next, first, listing, added !== undefined, ending);
      if (done === 0) return false;
      if (done === -1 && first > 0) first = 0;
      else if (done === 2 && !added) added = addEntries();
      else if (Array.isArray(done)) {
        const was = String(done[1]);
        // The old entries go only once the new ones are in: else the sweep's relisting drops them.
        if (was !== listing && (await added)) await this.indexSoon(next.id, this.unlist(next, was, listing));
        await this.replicated(next.id);
        if (ending) await this.applyEnd(next.id);
        return true;
      } else return false;
    }
  }

  /**
   * Index work waited on for INDEX_ANSWER_MS at most (not at all while the indexes are silent):
   * true when done by then. Else (their master is failing over, or it refused) it goes on without
   * the caller and the game is owed a relisting.
   */
  private async indexSoon(gameId: string, work: Promise<unknown>): Promise<boolean> {
    // Once one has gone unanswered, the next are not waited on until one is answered again.
    work.then(() => (this.indexesSilent = false), () => undefined);
    const answered = await answeredWithin(work, this.indexesSilent ? 0 : INDEX_ANSWER_MS).catch(() => undefined);
    if (answered) return true;
    this.indexesSilent = true;
    this.owed.add(gameId);
    return false;
  }

  /** The cluster lost a node: the next `repairListings` checks every unfinished game's entries. */
  doubtListings(): void {
    this.auditDue = true;
  }

  /**
   * The games whose listing a write could not wait for, listed again from the game itself; after
   * the cluster lost a node, every entry of the unfinished games' sets is checked against its game
   * (a process that died during the failover may have owed some). Returns the games relisted.
   */
  async repairListings(): Promise<number> {
    let relisted = 0;
    for (const id of [...this.owed]) {
      this.owed.delete(id);
      try {
        if (await this.relist(id)) relisted++;
      } catch (error) {
        this.owed.add(id);
        throw error;
      }
    }
    if (this.auditDue) {
      this.auditDue = false;
      try {
        for (const status of ['waiting', 'live'] as const) relisted += await this.audit(status);
      } catch (error) {
        this.auditDue = true;
        throw error;
      }
    }
    return relisted;
  }

  /** Every entry of a status set whose game's listing has another status, relisted. */
  private async audit(status: GameStatus): Promise<number> {
    let relisted = 0;
    let cursor = '0';
    do {
      const [next, flat] = await this.redis.zscan(this.k.status(status), cursor, 'COUNT', AUDIT_BATCH);
      cursor = next;
      const ids = flat.filter((_, i) => i % 2 === 0);
      const listings = await Promise.all(ids.map((id) => this.redis.hget(this.k.game(id), 'lobby')));
      for (const [i, id] of ids.entries()) {
        const listed = listings[i]?.split(' ')[0];
        if (listed !== undefined && listed !== status && (await this.relist(id))) relisted++;
      }
    } while (cursor !== '0');
    return relisted;
  }

  /**
   * A game's index entries made again from the game: its listing's entries added, those of the
   * other statuses' listings with its words dropped, both stamped with its version; a game with an
   * end still owed to its players listed as pending. False when the game is gone.
   */
  private async relist(id: string): Promise<boolean> {
    const [listing, end] = await this.redis.hmget(this.k.game(id), 'lobby', 'end');
    const game = listing === null ? undefined : await this.get(id);
    if (!game || !listing) return false;
    const [status, ...words] = listing.split(' ');
    if (end) await this.ends.markPending(id);
    await this.indexScript('boardroomIndexAdd', id, game.version, this.listingItems(id, listing, game.updatedAt, game.createdAt));
    const others = (['waiting', 'live', 'finished'] as const).filter((other) => other !== status);
    await this.indexScript('boardroomIndexDrop', id, game.version, others.flatMap((other) => this.listingItems(id, [other, ...words].join(' '), 0, 0)));
    return true;
  }

  /**
   * Waits for a replica of the game's master to hold what this connection wrote there. A master
   * with no replica (one promoted by a failover, until a replica follows it) is not waited on, as
   * no wait would help. A master that does not answer the wait (one just gone) fails the write
   * in bounded time: not acknowledged, as it may be lost; the client's retry finds out.
   */
  private async replicated(gameId: string): Promise<void> {
    if (!this.replication) return;
    const key = this.k.game(gameId);
    const { waitMs, onShort } = this.replication;
    if (replicasOf(this.redis, key) === 0) return onShort(gameId);
    const acked = await answeredWithin(ownerOf(this.redis, key).wait(1, waitMs), waitMs + WAIT_ANSWER_MS);
    if (!acked) throw new Error(`the master of game ${gameId} did not answer WAIT`);
    if (acked.value < 1) onShort(gameId);
  }

  /**
   * A game's end applied to its players before its last move is answered, unless a player's master
   * does not answer soon (failing over): the answer goes first, and whatever the apply leaves
   * undone keeps the game pending for the sweep.
   */
  private async applyEnd(gameId: string): Promise<void> {
    await answeredWithin(this.ends.apply(gameId).catch(() => undefined), PLAYERS_MASTER_MS);
  }

  /**
   * A field read from its master, or from a replica when the master does not answer soon (a
   * failover): the value may lag. A master that has not answered such a read is not waited on
   * again until it answers one.
   */
  private async readSoon(key: string, field: string): Promise<string | null> {
    const replica = replicaOf(this.redis, key);
    const fromMaster = this.redis.hget(key, field);
    if (!replica) return fromMaster;
    const master = masterAddressOf(this.redis, key) ?? '';
    fromMaster.then(() => this.silentMasters.delete(master), () => undefined);
    const first = await answeredWithin(fromMaster, this.silentMasters.has(master) ? 0 : PLAYERS_MASTER_MS).catch(() => undefined);
    if (first) return first.value;
    this.silentMasters.add(master);
    return replica.hget(key, field);
  }

  /** The entries of the listing a write replaced that the new one has not, removed unless a later write wants them. */
  private async unlist(next: StoredGame, was: string, is: string): Promise<void> {
    const keep = new Set(this.listingItems(next.id, is, 0, 0).map((i) => i.key));
    const stale = this.listingItems(next.id, was, 0, 0).filter((i) => !keep.has(i.key));
    if (stale.length > 0) await this.indexScript('boardroomIndexDrop', next.id, next.version, stale);
  }

  private write(next: StoredGame, first: number, listing: string, indexed: boolean, end: GameEnd | undefined): Promise<unknown> {
    const { moves, moveMs, version, ...doc } = next;
    return this.call('boardroomUpdate', [
      this.k.game(next.id),
      this.k.moves(next.id),
      String(version - 1),
      String(version),
      encodeDocument(doc),
      first,
      listing,
      indexed ? '1' : '0',
      end ? JSON.stringify(end) : '',
      ...moves.slice(first).map((m, i) => moveEntry(m, moveMs?.[first + i])),
    ]);
  }

  /** Applies the ends that stayed pending past their writer's time (it died, or Redis failed it): each once. */
  async applyPendingEnds(): Promise<number> {
    const ids = await this.ends.pending(END_PENDING_GRACE_MS);
    for (const id of ids) await this.ends.apply(id);
    return ids.length;
  }

  async ratings(game: GameId, identities: readonly Identity[]): Promise<RatingRecord[]> {
    if (identities.length === 0) return [];
    const docs = await Promise.all(identities.map((identity) => this.readSoon(this.k.rating(game, identity), 'doc')));
    return identities.map((identity, i) => (docs[i] ? (JSON.parse(docs[i]) as RatingRecord) : freshRecord(game, identity)));
  }

  async leaderboard(game: GameId, limit: number): Promise<RatingRecord[]> {
    const members = await this.redis.zrevrange(this.k.leaderboard(game), 0, limit - 1);
    const docs = await Promise.all(members.map((member) => this.redis.hget(this.k.rating(game, parseIdentityKey(member)), 'doc')));
    return docs.filter((d): d is string => d !== null).map((d) => JSON.parse(d) as RatingRecord);
  }

  async rank(game: GameId, identity: Identity): Promise<number | undefined> {
    const place = await this.redis.zrevrank(this.k.leaderboard(game), identityKey(identity));
    return place === null ? undefined : place + 1;
  }

  async recentGames(identity: Identity, limit: number): Promise<string[]> {
    return this.redis.lrange(this.k.history(identity), 0, limit - 1);
  }

  async list(status: GameStatus, limit: number): Promise<StoredGame[]> {
    const ids = await this.redis.zrevrange(this.k.status(status), 0, limit - 1);
    const games = await Promise.all(ids.map((id) => this.get(id)));
    return games.filter((g): g is StoredGame => g !== undefined && g.status === status);
  }

  /** Each game's hash without its moves, read by key (in one write, autopipelined); a spare index entry reads nothing. */
  private async summariesOf(ids: readonly string[]): Promise<(GameSummary | undefined)[]> {
    return Promise.all(
      ids.map(async (id) => {
        const [doc, version, plies] = await this.redis.hmget(this.k.game(id), 'doc', 'version', 'plies');
        if (!doc || !version) return undefined;
        return readSummary(doc, version, plies === null ? await this.redis.llen(this.k.moves(id)) : Number(plies));
      }),
    );
  }

  /** Read SUMMARIES_PER_READ games at a time: the process serves its other requests between them. */
  async summaries(status: GameStatus, limit: number): Promise<GameSummary[]> {
    const ids = await this.redis.zrevrange(this.k.status(status), 0, limit - 1);
    const found: GameSummary[] = [];
    for (let i = 0; i < ids.length; i += SUMMARIES_PER_READ) {
      for (const game of await this.summariesOf(ids.slice(i, i + SUMMARIES_PER_READ))) if (game !== undefined && game.status === status) found.push(game);
    }
    return found;
  }

  async lobby(status: GameStatus, query: LobbyPageQuery): Promise<LobbyPage> {
    const tags = filterTags(query);
    const sets = tags.length === 0 ? [this.k.lobby(status)] : tags.map((tag) => this.k.lobby(status, tag));
    const after = query.cursor === undefined ? undefined : readCursor(query.cursor);
    const args = [query.sort === 'newest' ? 1 : 0, query.limit, after?.createdAt ?? '', after?.id ?? ''];
    const [total, more, ...ids] = (await this.call('boardroomLobbyPage', [sets.length, ...sets, ...args])) as [number, number, ...string[]];
    const found = await this.summariesOf(ids);
    // A spare entry (a writer died between the index and the game) is a game no longer of this status.
    const games = found.filter((game): game is GameSummary => game !== undefined && game.status === status);
    const last = ids.at(-1);
    const cursorGame = last === undefined ? undefined : found[ids.length - 1] ?? { id: last, createdAt: Number(await this.redis.zscore(sets[0]!, last)) };
    return { games, total, next: more === 1 && cursorGame ? makeCursor(cursorGame) : null };
  }

  async count(status: GameStatus): Promise<number> {
    return this.redis.zcard(this.k.status(status));
  }

  async oldest(status: GameStatus, limit: number): Promise<{ id: string; updatedAt: number }[]> {
    const flat = await this.redis.zrange(this.k.status(status), 0, limit - 1, 'WITHSCORES');
    const found: { id: string; updatedAt: number }[] = [];
    for (let i = 0; i < flat.length; i += 2) found.push({ id: flat[i]!, updatedAt: Number(flat[i + 1]) });
    return found;
  }

  async scanIds(status: GameStatus, cursor: string, count: number): Promise<{ cursor: string; ids: string[] }> {
    const [next, flat] = await this.redis.zscan(this.k.status(status), cursor, 'COUNT', count);
    return { cursor: next, ids: flat.filter((_, i) => i % 2 === 0) };
  }

  private entryItems(entries: readonly IndexEntry[]): IndexItem[] {
    return entries.map(({ index, owner, member }) => ({ key: this.k.index(index, owner), kind: 's', member, score: 0 }));
  }

  async addToIndex(entries: readonly IndexEntry[], forWrite?: { readonly gameId: string; readonly version: number }): Promise<void> {
    if (entries.length === 0) return;
    if (forWrite) {
      await this.indexSoon(forWrite.gameId, this.indexScript('boardroomIndexAdd', forWrite.gameId, forWrite.version, this.entryItems(entries)));
      return;
    }
    const batch = this.redis.multi();
    for (const { index, owner, member } of entries) batch.sadd(this.k.index(index, owner), member);
    await batch.exec();
  }

  async removeFromIndex(entries: readonly IndexEntry[], whileAt?: { readonly gameId: string; readonly version: number }): Promise<void> {
    if (entries.length === 0) return;
    if (whileAt) {
      // The game's version is in another slot: read first, then the stamp guards the gap.
      if ((await this.redis.hget(this.k.game(whileAt.gameId), 'version')) !== String(whileAt.version)) return;
      await this.indexSoon(whileAt.gameId, this.indexScript('boardroomIndexDrop', whileAt.gameId, whileAt.version, this.entryItems(entries)));
      return;
    }
    const batch = this.redis.multi();
    for (const { index, owner, member } of entries) batch.srem(this.k.index(index, owner), member);
    await batch.exec();
  }

  async indexed(index: GameIndex, owner: string): Promise<string[]> {
    return this.redis.smembers(this.k.index(index, owner));
  }

  async dropIndex(index: GameIndex, owner: string): Promise<void> {
    await this.redis.del(this.k.index(index, owner));
  }

  /** Each game's own keys in its slot; then its entries in the index's, wherever a spare one may be. */
  async remove(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const listed = await Promise.all(ids.map((id) => this.redis.hget(this.k.game(id), 'lobby')));
    await Promise.all(ids.map((id) => this.redis.del(this.k.game(id), this.k.moves(id), this.k.analysis(id))));
    const batch = this.redis.multi();
    for (const [i, id] of ids.entries()) {
      for (const status of ['waiting', 'live', 'finished'] as const) batch.zrem(this.k.status(status), id);
      for (const item of this.listingItems(id, listed[i] ?? '', 0, 0)) batch.zrem(item.key, id);
      batch.hdel(this.k.indexStamps(), id);
      batch.zrem(this.k.pendingEnds(), id);
    }
    await batch.exec();
  }

  async putAgent(tokenHash: string, agent: AgentIdentity): Promise<boolean> {
    const put = await this.call('boardroomPutAgent', [await this.agentNames(), this.k.agentTokens(), agentKey(agent.name), tokenHash, JSON.stringify(agent)]);
    return put === 1;
  }

  async agentNamed(name: string): Promise<AgentIdentity | undefined> {
    const tokenHash = await this.redis.hget(await this.agentNames(), agentKey(name));
    return tokenHash ? this.getAgent(tokenHash) : undefined;
  }

  async replaceAgentToken(name: string, tokenHash: string): Promise<boolean> {
    return (await this.call('boardroomReplaceAgentToken', [await this.agentNames(), this.k.agentTokens(), agentKey(name), tokenHash])) === 1;
  }

  async deleteAgent(name: string): Promise<boolean> {
    return (await this.call('boardroomReplaceAgentToken', [await this.agentNames(), this.k.agentTokens(), agentKey(name)])) === 1;
  }

  /**
   * The names hash, indexed by lower-cased name: entries an older server wrote under the name as
   * given are moved once, before this store's first use of it (a failed move is tried again).
   */
  private agentNames(): Promise<string> {
    const key = this.k.agentNames();
    this.agentNamesLowered ??= this.call('boardroomLowerAgentNames', [key]).then(
      () => key,
      (error: unknown) => {
        this.agentNamesLowered = undefined;
        throw error;
      },
    );
    return this.agentNamesLowered;
  }

  /** Leases are a sorted set scored by their end; one that ran out stays until a sweep has freed its seats. */
  async renewLease(instance: string, until: number): Promise<void> {
    await this.redis.zadd(`${this.k.prefix}leases`, until, instance);
  }

  async dropLease(instance: string, until: number): Promise<void> {
    await this.call('boardroomDropLease', [`${this.k.prefix}leases`, instance, until]);
  }

  async leases(): Promise<Map<string, number>> {
    const flat = await this.redis.zrange(`${this.k.prefix}leases`, 0, -1, 'WITHSCORES');
    const leases = new Map<string, number>();
    for (let i = 0; i < flat.length; i += 2) leases.set(flat[i]!, Number(flat[i + 1]));
    return leases;
  }

  async getAgent(tokenHash: string): Promise<AgentIdentity | undefined> {
    const json = await this.redis.hget(this.k.agentTokens(), tokenHash);
    return json ? (JSON.parse(json) as AgentIdentity) : undefined;
  }

  async birthMark(): Promise<string> {
    const key = `${this.k.prefix}born`;
    await this.redis.set(key, `${Date.now()}-${Math.random().toString(36).slice(2, 10)}`, 'NX');
    return (await this.redis.get(key)) ?? '';
  }

  async close(): Promise<void> {}

  private call(command: string, args: (string | number)[]): Promise<unknown> {
    return (this.redis as unknown as Record<string, (...a: (string | number)[]) => Promise<unknown>>)[command]!(...args);
  }
}

/** A game's listing as its hash keeps it: its status, then the lobby words it answers to. */
function listingOf(game: StoredGame): string {
  return [game.status, ...lobbyTagsOf(game)].join(' ');
}

function parseIdentityKey(key: string): Identity {
  const cut = key.indexOf(':');
  return { kind: key.slice(0, cut) as Identity['kind'], name: key.slice(cut + 1) };
}
