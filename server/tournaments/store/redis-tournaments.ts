import type { RedisClient } from '../../redis/connections.js';
import { TOURNAMENT_STATUSES, type TournamentStatus } from '../../../shared/protocol/index.js';
import type { Tournament } from '../model.js';
import type { TournamentStore } from './tournament-store.js';

/**
 * KEYS: the tournament's hash, then the status sets (upcoming, running, finished).
 * ARGV: document, version, expected version (0: create), status, created at, id.
 * Writes the document only over the expected version, and moves the id to its status's set.
 */
const WRITE = `
local stored = redis.call('HGET', KEYS[1], 'version')
if ARGV[3] == '0' then
  if stored then return 0 end
elseif stored ~= ARGV[3] then return 0 end
redis.call('HSET', KEYS[1], 'doc', ARGV[1], 'version', ARGV[2])
for i = 2, 4 do redis.call('ZREM', KEYS[i], ARGV[6]) end
local at = {upcoming = 2, running = 3, finished = 4}
redis.call('ZADD', KEYS[at[ARGV[4]]], ARGV[5], ARGV[6])
return 1`;

/**
 * Tournaments in Redis: `{tournaments}:tournament:<id>` (document and version) and
 * `{tournaments}:<status>` sets scored by creation, all in one slot of a cluster (tournaments are
 * few), so a tournament's write and its status sets are one script.
 */
export class RedisTournaments implements TournamentStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly prefix = 'boardroom:',
  ) {
    redis.defineCommand('boardroomTournamentWrite', { numberOfKeys: 4, lua: WRITE });
  }

  private tournamentKey(id: string): string {
    return `${this.prefix}{tournaments}:tournament:${id}`;
  }

  private statusKey(status: string): string {
    return `${this.prefix}{tournaments}:${status}`;
  }

  private keys(id: string): string[] {
    return [this.tournamentKey(id), ...TOURNAMENT_STATUSES.map((s) => this.statusKey(s))];
  }

  private async write(t: Tournament, expected: number): Promise<boolean> {
    const script = this.redis as unknown as { boardroomTournamentWrite(...args: (string | number)[]): Promise<number> };
    return (await script.boardroomTournamentWrite(...this.keys(t.id), JSON.stringify(t), t.version, expected, t.status, t.createdAt, t.id)) === 1;
  }

  async create(tournament: Tournament): Promise<boolean> {
    return this.write(tournament, 0);
  }

  async get(id: string): Promise<Tournament | undefined> {
    const doc = await this.redis.hget(this.tournamentKey(id), 'doc');
    return doc === null ? undefined : (JSON.parse(doc) as Tournament);
  }

  async update(next: Tournament): Promise<boolean> {
    return next.version > 1 && this.write(next, next.version - 1);
  }

  async ids(status: TournamentStatus, limit: number): Promise<string[]> {
    return this.redis.zrevrange(this.statusKey(status), 0, limit - 1);
  }
}
