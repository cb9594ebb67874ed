import type { RedisClient } from '../redis/connections.js';
import { filterTags, makeCursor, readCursor, type GameAnalysis, type GameStatus } from '../../shared/protocol/index.js';
import type { GameId } from '../../shared/rules.js';
import { freshRecord, identityKey, type Identity, type RatingRecord } from '../ratings/rating.js';
import { decodeDocument, encodeDocument } from './document-codec.js';
import { agentKey, lobbyTagsOf, withDefaults, type AgentIdentity, type GameEnd, type GameIndex, type GameStore, type GameSummary, type IndexEntry, type LobbyPage, type LobbyPageQuery, type StoredAnalysis, type StoredGame } from './store.js';

const STATUS_SETS: Record<GameStatus, string> = { waiting: 'games:waiting', live: 'games:live', finished: 'games:finished' };
/** Each index beside games is a set: its key is this, then its owner. */
const INDEX_SETS: Record<GameIndex, string> = { 'instance-seats': 'instance-seats:', 'agent-games': 'agent-games:', 'unqueued-bot-turns': 'bot-turns:unqueued' };

/**
 * The lobby's index: a game is in `lobby:<status>` and in `lobby:<status>:<word>` for each filter
 * word it answers to (`lobbyTagsOf`), scored by its creation, so a page is a range of one set and
 * a count its size. The sets it is in are kept in the game's hash (`lobby`: the status, then the
 * words), and rewritten only when they change (a seat taken, a new status), not on every move.
 * KEYS from \`first\` on are the sets the game belongs in now, \`lobby:<status>\` first; \`was\` is
 * the hash's \`lobby\` field as read.
 */
const RELIST = `
local function relist(first, id, score, was)
  local all = KEYS[first]
  local base, status = string.match(all, '^(.*lobby:)([^:]+)$')
  local words = {status}
  for i = first + 1, #KEYS do words[#words + 1] = string.sub(KEYS[i], #all + 2) end
  local listed = table.concat(words, ' ')
  if listed == was then return end
  if was then
    local old
    for word in string.gmatch(was, '%S+') do
      if old then redis.call('ZREM', base .. old .. ':' .. word, id) else old = word redis.call('ZREM', base .. old, id) end
    end
  end
  for i = first, #KEYS do redis.call('ZADD', KEYS[i], score, id) end
  redis.call('HSET', KEYS[1], 'lobby', listed)
end
`;

/**
 * The compare-and-set write: the game's hash changes only if its version is the expected one,
 * the new moves are appended to its list, and the game moves to its status's sorted set. A game's
 * end writes its rating records in the same script, each only if its version is the expected one
 * too, and puts the game at the head of each player's history.
 * KEYS: game hash, moves list, waiting, live, finished, the game's ratings sorted set, then R
 * rating hashes, then P history lists, then its lobby sets (RELIST). ARGV: expected version, new
 * version, document, status set index (1–3), score, id, the index of the first move sent, R, P,
 * then for each rating its new version, document, rating and member, then its creation time, then
 * the moves from that index on (those the list holds already are skipped). Returns 1 when written, 0 when a version differs, -1 when moves before
 * the first one sent are missing (send them all).
 */
const UPDATE = `${RELIST}
local current = redis.call('HMGET', KEYS[1], 'version', 'lobby', 'plies')
if current[1] ~= ARGV[1] then return 0 end
local r = tonumber(ARGV[8])
local p = tonumber(ARGV[9])
for i = 1, r do
  local stored = redis.call('HGET', KEYS[6 + i], 'version') or '0'
  if tonumber(stored) ~= tonumber(ARGV[6 + 4 * i]) - 1 then return 0 end
end
local first = tonumber(ARGV[7])
local stored = tonumber(current[3]) or redis.call('LLEN', KEYS[2])
if stored < first then return -1 end
local plies = stored + math.max(0, #ARGV - (11 + 4 * r + stored - first) + 1)
redis.call('HSET', KEYS[1], 'doc', ARGV[3], 'version', ARGV[2], 'plies', plies)
for i = 11 + 4 * r + stored - first, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
-- A live game stays where it went live: a move does not touch the status sets.
local was = current[2] and string.match(current[2], '^%S+')
local status = ARGV[4]
if not (was == 'live' and status == '2') then
  for i = 3, 5 do redis.call('ZREM', KEYS[i], ARGV[6]) end
  redis.call('ZADD', KEYS[2 + tonumber(status)], ARGV[5], ARGV[6])
end
relist(7 + r + p, ARGV[6], ARGV[10 + 4 * r], current[2])
for i = 1, r do
  redis.call('HSET', KEYS[6 + i], 'version', ARGV[6 + 4 * i], 'doc', ARGV[7 + 4 * i])
  redis.call('ZADD', KEYS[6], ARGV[8 + 4 * i], ARGV[9 + 4 * i])
end
for i = 1, p do
  redis.call('LPUSH', KEYS[6 + r + i], ARGV[6])
  redis.call('LTRIM', KEYS[6 + r + i], 0, 49)
end
return 1`;

/** One round trip for a whole game. KEYS: game hash, moves list. Returns nil or {doc, version, moves}. */
const GET = `
local game = redis.call('HMGET', KEYS[1], 'doc', 'version')
if not game[1] then return nil end
return {game[1], game[2], redis.call('LRANGE', KEYS[2], 0, -1)}`;

/**
 * The newest games of a status without their moves, in one round trip however many: KEYS: the
 * status set; ARGV: how many, the key prefix. Returns doc, version and the moves' count per game.
 */
const SUMMARIES = `
local ids = redis.call('ZREVRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)
local out = {}
for _, id in ipairs(ids) do
  local game = redis.call('HMGET', ARGV[2] .. 'game:' .. id, 'doc', 'version')
  if game[1] then
    out[#out + 1] = game[1]
    out[#out + 1] = game[2]
    out[#out + 1] = redis.call('LLEN', ARGV[2] .. 'game:' .. id .. ':moves')
  end
end
return out`;

/**
 * KEYS: game hash, moves list, waiting, live, finished, then its lobby sets (RELIST). ARGV:
 * document, status set index, score, id, creation time, then the moves.
 */
const CREATE = `${RELIST}
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'doc', ARGV[1], 'version', '1', 'plies', math.max(0, #ARGV - 5))
for i = 6, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
redis.call('ZADD', KEYS[2 + tonumber(ARGV[2])], ARGV[3], ARGV[4])
relist(6, ARGV[4], ARGV[5], false)
return 1`;

/**
 * A page of the lobby in one round trip. KEYS: the sets to intersect (\`lobby:<status>\` alone,
 * or one per filter word). ARGV: 1 for newest first, the page's size, the cursor's score and id
 * (empty: the first page), the key prefix. The smallest set is walked in order from just after the
 * cursor and each member is checked in the others. Returns the count matching, 1 if a page
 * follows, then doc, version and the moves' count per game.
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
local ids, more, batch = {}, 0, math.max(limit + 1, 200)
while more == 0 and start < size do
  local chunk = redis.call(newest and 'ZREVRANGE' or 'ZRANGE', driver, start, start + batch - 1)
  start = start + batch
  for _, id in ipairs(chunk) do
    local matches = true
    for i = 1, #KEYS do
      if KEYS[i] ~= driver and not redis.call('ZSCORE', KEYS[i], id) then matches = false break end
    end
    if matches then
      if #ids == limit then more = 1 break end
      ids[#ids + 1] = id
    end
  end
end
local out = {total, more}
for _, id in ipairs(ids) do
  local game = redis.call('HMGET', ARGV[5] .. 'game:' .. id, 'doc', 'version')
  out[#out + 1] = game[1]
  out[#out + 1] = game[2]
  out[#out + 1] = redis.call('LLEN', ARGV[5] .. 'game:' .. id .. ':moves')
end
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

/**
 * Index entries a write made stale, removed only while the game is still at that write's version.
 * KEYS: the game hash, then each entry's set. ARGV: the version, then each entry's member.
 */
const REMOVE_FROM_INDEX_WHILE_AT = `
if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] then return 0 end
for i = 2, #KEYS do redis.call('SREM', KEYS[i], ARGV[i]) end
return 1`;

/** KEYS: the analysis hash. Deletes it if it is still pending. */
const DROP_PENDING_ANALYSIS = `
if redis.call('HGET', KEYS[1], 'state') == 'pending' then redis.call('DEL', KEYS[1]) end
return 1`;

type Document = Omit<StoredGame, 'moves' | 'moveMs' | 'version'>;

/** Games as SUMMARIES and LOBBY_PAGE answer them: doc, version and the moves' count, each. */
function readSummaries(flat: readonly (string | number)[]): GameSummary[] {
  const games: GameSummary[] = [];
  for (let i = 0; i < flat.length; i += 3) {
    const { moves: _none, moveMs: _times, ...game } = withDefaults({ ...decodeDocument<Document>(flat[i] as string), moves: [], moveMs: [], version: Number(flat[i + 1]) });
    games.push({ ...game, ply: Number(flat[i + 2]) });
  }
  return games;
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
const LEASES_KEPT_MS = 3_600_000;

/**
 * Games in Redis: a hash per game (`doc`: everything but the moves; `version`), a list of its
 * moves with their times (`moveEntry`), and a sorted set per status scored by last change. Writes are Lua scripts, so two
 * server processes can never both apply a move for the same ply.
 */
export class RedisStore implements GameStore {
  private agentNamesLowered: Promise<string> | undefined;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix = 'boardroom:',
  ) {
    redis.defineCommand('boardroomUpdate', { lua: UPDATE }); // the number of keys comes first
    redis.defineCommand('boardroomCreate', { lua: CREATE });
    redis.defineCommand('boardroomLobbyPage', { lua: LOBBY_PAGE });
    redis.defineCommand('boardroomGet', { numberOfKeys: 2, lua: GET });
    redis.defineCommand('boardroomSummaries', { numberOfKeys: 1, lua: SUMMARIES });
    redis.defineCommand('boardroomPutAgent', { numberOfKeys: 2, lua: PUT_AGENT });
    redis.defineCommand('boardroomReplaceAgentToken', { numberOfKeys: 2, lua: REPLACE_AGENT_TOKEN });
    redis.defineCommand('boardroomLowerAgentNames', { numberOfKeys: 1, lua: LOWER_AGENT_NAMES });
    redis.defineCommand('boardroomClaimAnalysis', { numberOfKeys: 1, lua: CLAIM_ANALYSIS });
    redis.defineCommand('boardroomPutAnalysis', { numberOfKeys: 2, lua: PUT_ANALYSIS });
    redis.defineCommand('boardroomDropPendingAnalysis', { numberOfKeys: 1, lua: DROP_PENDING_ANALYSIS });
    redis.defineCommand('boardroomRemoveFromIndexWhileAt', { lua: REMOVE_FROM_INDEX_WHILE_AT });
  }

  private analysisKey(id: string): string {
    return `${this.prefix}game:${id}:analysis`;
  }

  async analysis(id: string): Promise<StoredAnalysis | undefined> {
    const doc = await this.redis.hget(this.analysisKey(id), 'doc');
    return doc ? (JSON.parse(doc) as StoredAnalysis) : undefined;
  }

  async claimAnalysis(id: string, requestedAt: number): Promise<{ claimed: true } | { claimed: false; existing: StoredAnalysis }> {
    const pending: StoredAnalysis = { state: 'pending', requestedAt };
    const found = (await this.call('boardroomClaimAnalysis', [this.analysisKey(id), JSON.stringify(pending)])) as string | null;
    return found ? { claimed: false, existing: JSON.parse(found) as StoredAnalysis } : { claimed: true };
  }

  async putAnalysis(id: string, analysis: GameAnalysis): Promise<boolean> {
    const done: StoredAnalysis = { state: 'done', analysis };
    return (await this.call('boardroomPutAnalysis', [this.analysisKey(id), this.keys(id)[0]!, JSON.stringify(done)])) === 1;
  }

  async dropPendingAnalysis(id: string): Promise<void> {
    await this.call('boardroomDropPendingAnalysis', [this.analysisKey(id)]);
  }

  private keys(id: string): string[] {
    const p = this.prefix;
    return [`${p}game:${id}`, `${p}game:${id}:moves`, p + STATUS_SETS.waiting, p + STATUS_SETS.live, p + STATUS_SETS.finished];
  }

  async create(game: StoredGame): Promise<boolean> {
    const { moves, moveMs, version: _version, ...doc } = game;
    const entries = moves.map((m, i) => moveEntry(m, moveMs?.[i]));
    const keys = [...this.keys(game.id), ...this.lobbyKeys(game)];
    const created = await this.call('boardroomCreate', [keys.length, ...keys, encodeDocument(doc), statusIndex(game.status), game.updatedAt, game.id, game.createdAt, ...entries]);
    return created === 1;
  }

  async get(id: string): Promise<StoredGame | undefined> {
    const [gameKey, movesKey] = this.keys(id);
    const found = (await this.call('boardroomGet', [gameKey!, movesKey!])) as [string, string, string[]] | null;
    if (!found) return undefined;
    const [doc, version, entries] = found;
    return withDefaults({ ...decodeDocument<Document>(doc), ...readEntries(entries), version: Number(version) });
  }

  /** Sends only the newest move (a write adds at most one), or every move when the list lacks more. */
  async update(next: StoredGame, end?: GameEnd): Promise<boolean> {
    const first = Math.max(0, next.moves.length - 1);
    const done = await this.write(next, first, end);
    return done === 1 || (done === -1 && (await this.write(next, 0, end)) === 1);
  }

  private write(next: StoredGame, first: number, end: GameEnd = { ratings: [], players: [] }): Promise<unknown> {
    const { moves, moveMs, version, ...doc } = next;
    const keys = [
      ...this.keys(next.id),
      this.leaderboardKey(next.game),
      ...end.ratings.map((r) => this.ratingKey(r.game, r)),
      ...end.players.map((player) => this.historyKey(player)),
      ...this.lobbyKeys(next),
    ];
    return this.call('boardroomUpdate', [
      keys.length,
      ...keys,
      String(version - 1),
      String(version),
      encodeDocument(doc),
      statusIndex(next.status),
      next.updatedAt,
      next.id,
      first,
      end.ratings.length,
      end.players.length,
      ...end.ratings.flatMap((r) => [r.version, JSON.stringify(r), r.rating, identityKey(r)]),
      next.createdAt,
      ...moves.slice(first).map((m, i) => moveEntry(m, moveMs?.[first + i])),
    ]);
  }

  private lobbyKeys(game: StoredGame): string[] {
    const all = `${this.prefix}lobby:${game.status}`;
    return [all, ...lobbyTagsOf(game).map((tag) => `${all}:${tag}`)];
  }

  private ratingKey(game: GameId, identity: Identity): string {
    return `${this.prefix}rating:${game}:${identityKey(identity)}`;
  }

  private leaderboardKey(game: GameId): string {
    return `${this.prefix}ratings:${game}`;
  }

  private historyKey(identity: Identity): string {
    return `${this.prefix}history:${identityKey(identity)}`;
  }

  async ratings(game: GameId, identities: readonly Identity[]): Promise<RatingRecord[]> {
    if (identities.length === 0) return [];
    const docs = await Promise.all(identities.map((identity) => this.redis.hget(this.ratingKey(game, identity), 'doc')));
    return identities.map((identity, i) => (docs[i] ? (JSON.parse(docs[i]) as RatingRecord) : freshRecord(game, identity)));
  }

  async leaderboard(game: GameId, limit: number): Promise<RatingRecord[]> {
    const members = await this.redis.zrevrange(this.leaderboardKey(game), 0, limit - 1);
    const docs = await Promise.all(members.map((member) => this.redis.hget(`${this.prefix}rating:${game}:${member}`, 'doc')));
    return docs.filter((d): d is string => d !== null).map((d) => JSON.parse(d) as RatingRecord);
  }

  async rank(game: GameId, identity: Identity): Promise<number | undefined> {
    const place = await this.redis.zrevrank(this.leaderboardKey(game), identityKey(identity));
    return place === null ? undefined : place + 1;
  }

  async recentGames(identity: Identity, limit: number): Promise<string[]> {
    return this.redis.lrange(this.historyKey(identity), 0, limit - 1);
  }

  async list(status: GameStatus, limit: number): Promise<StoredGame[]> {
    const ids = await this.redis.zrevrange(this.prefix + STATUS_SETS[status], 0, limit - 1);
    const games = await Promise.all(ids.map((id) => this.get(id)));
    return games.filter((g): g is StoredGame => g !== undefined && g.status === status);
  }

  /** One script (SUMMARIES) reads every game's document and its moves' count. */
  async summaries(status: GameStatus, limit: number): Promise<GameSummary[]> {
    const flat = (await this.call('boardroomSummaries', [this.prefix + STATUS_SETS[status], limit, this.prefix])) as (string | number)[];
    return readSummaries(flat).filter((game) => game.status === status);
  }

  async lobby(status: GameStatus, query: LobbyPageQuery): Promise<LobbyPage> {
    const all = `${this.prefix}lobby:${status}`;
    const tags = filterTags(query);
    const sets = tags.length === 0 ? [all] : tags.map((tag) => `${all}:${tag}`);
    const after = query.cursor === undefined ? undefined : readCursor(query.cursor);
    const args = [query.sort === 'newest' ? 1 : 0, query.limit, after?.createdAt ?? '', after?.id ?? '', this.prefix];
    const [total, more, ...flat] = (await this.call('boardroomLobbyPage', [sets.length, ...sets, ...args])) as [number, number, ...(string | number)[]];
    const games = readSummaries(flat);
    return { games, total, next: more === 1 ? makeCursor(games.at(-1)!) : null };
  }

  async count(status: GameStatus): Promise<number> {
    return this.redis.zcard(this.prefix + STATUS_SETS[status]);
  }

  async oldest(status: GameStatus, limit: number): Promise<{ id: string; updatedAt: number }[]> {
    const flat = await this.redis.zrange(this.prefix + STATUS_SETS[status], 0, limit - 1, 'WITHSCORES');
    const found: { id: string; updatedAt: number }[] = [];
    for (let i = 0; i < flat.length; i += 2) found.push({ id: flat[i]!, updatedAt: Number(flat[i + 1]) });
    return found;
  }

  async scanIds(status: GameStatus, cursor: string, count: number): Promise<{ cursor: string; ids: string[] }> {
    const [next, flat] = await this.redis.zscan(this.prefix + STATUS_SETS[status], cursor, 'COUNT', count);
    return { cursor: next, ids: flat.filter((_, i) => i % 2 === 0) };
  }

  private indexKey(index: GameIndex, owner: string): string {
    return this.prefix + INDEX_SETS[index] + owner;
  }

  async addToIndex(entries: readonly IndexEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const batch = this.redis.multi();
    for (const { index, owner, member } of entries) batch.sadd(this.indexKey(index, owner), member);
    await batch.exec();
  }

  async removeFromIndex(entries: readonly IndexEntry[], whileAt?: { readonly gameId: string; readonly version: number }): Promise<void> {
    if (entries.length === 0) return;
    if (whileAt) {
      const keys = [this.keys(whileAt.gameId)[0]!, ...entries.map((e) => this.indexKey(e.index, e.owner))];
      await this.call('boardroomRemoveFromIndexWhileAt', [keys.length, ...keys, String(whileAt.version), ...entries.map((e) => e.member)]);
      return;
    }
    const batch = this.redis.multi();
    for (const { index, owner, member } of entries) batch.srem(this.indexKey(index, owner), member);
    await batch.exec();
  }

  async indexed(index: GameIndex, owner: string): Promise<string[]> {
    return this.redis.smembers(this.indexKey(index, owner));
  }

  async dropIndex(index: GameIndex, owner: string): Promise<void> {
    await this.redis.del(this.indexKey(index, owner));
  }

  async remove(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const listed = await Promise.all(ids.map((id) => this.redis.hget(this.keys(id)[0]!, 'lobby')));
    const batch = this.redis.multi();
    for (const [i, id] of ids.entries()) {
      const [game, moves, ...sets] = this.keys(id);
      batch.del(game!, moves!, this.analysisKey(id));
      const [status, ...words] = listed[i]?.split(' ') ?? [];
      const lobby = status === undefined ? [] : [`${this.prefix}lobby:${status}`, ...words.map((word) => `${this.prefix}lobby:${status}:${word}`)];
      for (const set of [...sets, ...lobby]) batch.zrem(set, id);
    }
    await batch.exec();
  }

  async putAgent(tokenHash: string, agent: AgentIdentity): Promise<boolean> {
    const put = await this.call('boardroomPutAgent', [await this.agentNames(), `${this.prefix}agents`, agentKey(agent.name), tokenHash, JSON.stringify(agent)]);
    return put === 1;
  }

  async agentNamed(name: string): Promise<AgentIdentity | undefined> {
    const tokenHash = await this.redis.hget(await this.agentNames(), agentKey(name));
    return tokenHash ? this.getAgent(tokenHash) : undefined;
  }

  async replaceAgentToken(name: string, tokenHash: string): Promise<boolean> {
    return (await this.call('boardroomReplaceAgentToken', [await this.agentNames(), `${this.prefix}agents`, agentKey(name), tokenHash])) === 1;
  }

  async deleteAgent(name: string): Promise<boolean> {
    return (await this.call('boardroomReplaceAgentToken', [await this.agentNames(), `${this.prefix}agents`, agentKey(name)])) === 1;
  }

  /**
   * The names hash, indexed by lower-cased name: entries an older server wrote under the name as
   * given are moved once, before this store's first use of it (a failed move is tried again).
   */
  private agentNames(): Promise<string> {
    const key = `${this.prefix}agents:names`;
    this.agentNamesLowered ??= this.call('boardroomLowerAgentNames', [key]).then(
      () => key,
      (error: unknown) => {
        this.agentNamesLowered = undefined;
        throw error;
      },
    );
    return this.agentNamesLowered;
  }

  /** Leases are a sorted set scored by their end; ones long run out are dropped on the way. */
  async renewLease(instance: string, until: number): Promise<void> {
    const key = `${this.prefix}leases`;
    await this.redis.multi().zadd(key, until, instance).zremrangebyscore(key, '-inf', until - LEASES_KEPT_MS).exec();
  }

  async leases(): Promise<Map<string, number>> {
    const flat = await this.redis.zrange(`${this.prefix}leases`, 0, -1, 'WITHSCORES');
    const leases = new Map<string, number>();
    for (let i = 0; i < flat.length; i += 2) leases.set(flat[i]!, Number(flat[i + 1]));
    return leases;
  }

  async getAgent(tokenHash: string): Promise<AgentIdentity | undefined> {
    const json = await this.redis.hget(`${this.prefix}agents`, tokenHash);
    return json ? (JSON.parse(json) as AgentIdentity) : undefined;
  }

  async birthMark(): Promise<string> {
    const key = `${this.prefix}born`;
    await this.redis.set(key, `${Date.now()}-${Math.random().toString(36).slice(2, 10)}`, 'NX');
    return (await this.redis.get(key)) ?? '';
  }

  async close(): Promise<void> {}

  private call(command: string, args: (string | number)[]): Promise<unknown> {
    return (this.redis as unknown as Record<string, (...a: (string | number)[]) => Promise<unknown>>)[command]!(...args);
  }
}

function statusIndex(status: GameStatus): number {
  return status === 'waiting' ? 1 : status === 'live' ? 2 : 3;
}
