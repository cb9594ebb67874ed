import type { GameStatus } from '../../shared/protocol/index.js';
import type { GameId } from '../../shared/rules.js';
import { identityKey, type Identity } from '../ratings/rating.js';
import type { GameIndex } from './store.js';

/**
 * Where each key lives, the same on one Redis and on a Redis Cluster. What one script changes
 * shares a hash tag, so it is one slot of a cluster:
 * - a game's keys, `{<id>}`: its hash, its moves, its analysis;
 * - an identity's ratings, history and the games it has applied, `{id:<kind>:<name>}`;
 * - every index across games, `{idx}`: the status sets, the lobby's sets, the process and agent
 *   indexes, the games whose end is not yet applied to their players;
 * - the leaderboards, `{board}`; the agents' two hashes, `{agents}`.
 * The prefix holds no brace (REDIS_PREFIX allows none), so the first `{…}` is always ours.
 */
export class RedisKeys {
  constructor(readonly prefix: string) {}

  game(id: string): string {
    return `${this.prefix}game:{${id}}`;
  }

  moves(id: string): string {
    return `${this.prefix}game:{${id}}:moves`;
  }

  analysis(id: string): string {
    return `${this.prefix}game:{${id}}:analysis`;
  }

  status(status: GameStatus): string {
    return `${this.prefix}{idx}:games:${status}`;
  }

  /** `lobby:<status>`, or with a filter word `lobby:<status>:<word>`. */
  lobby(status: string, word?: string): string {
    return `${this.prefix}{idx}:lobby:${status}${word === undefined ? '' : `:${word}`}`;
  }

  index(index: GameIndex, owner: string): string {
    return `${this.prefix}{idx}:${INDEX_SETS[index]}${owner}`;
  }

  /** Per game, the version of the latest write that added entries to the indexes. */
  indexStamps(): string {
    return `${this.prefix}{idx}:stamps`;
  }

  /** Finished games whose end is not yet applied to every player (ratings, histories), by when they ended. */
  pendingEnds(): string {
    return `${this.prefix}{idx}:ends:pending`;
  }

  rating(game: GameId, identity: Identity): string {
    return `${this.prefix}{id:${identityKey(identity)}}:rating:${game}`;
  }

  history(identity: Identity): string {
    return `${this.prefix}{id:${identityKey(identity)}}:history`;
  }

  /** The games whose end this identity's records took in, by when: what makes applying one again harmless. */
  applied(identity: Identity): string {
    return `${this.prefix}{id:${identityKey(identity)}}:applied`;
  }

  leaderboard(game: GameId): string {
    return `${this.prefix}{board}:ratings:${game}`;
  }

  agentNames(): string {
    return `${this.prefix}{agents}:names`;
  }

  agentTokens(): string {
    return `${this.prefix}{agents}:tokens`;
  }

  /** Which layout of keys this prefix holds; absent: the first, untagged one. */
  layout(): string {
    return `${this.prefix}layout`;
  }
}

const INDEX_SETS: Record<GameIndex, string> = { 'instance-seats': 'instance-seats:', 'agent-games': 'agent-games:', 'unqueued-bot-turns': 'bot-turns:unqueued' };

/** The layout `RedisKeys` describes. */
export const KEY_LAYOUT = '2';

/**
 * How a key of the first layout is named in this one, or undefined when it kept its name. The
 * first layout put nothing in braces: `game:<id>[:moves|:analysis]`, `games:<status>`,
 * `lobby:…`, the three indexes, `rating:<game>:<kind>:<name>`, `history:<kind>:<name>`,
 * `ratings:<game>`, `agents:names`, `agents`.
 */
export function renamedKey(keys: RedisKeys, key: string): string | undefined {
  const p = keys.prefix;
  if (!key.startsWith(p)) return undefined;
  const rest = key.slice(p.length);
  if (rest.includes('{')) return undefined;
  let m: RegExpMatchArray | null;
  if ((m = rest.match(/^game:(.+):(moves|analysis)$/))) return `${keys.game(m[1]!)}:${m[2]}`;
  if ((m = rest.match(/^game:(.+)$/))) return keys.game(m[1]!);
  if ((m = rest.match(/^games:(waiting|live|finished)$/))) return keys.status(m[1] as GameStatus);
  if (rest.startsWith('lobby:')) return `${p}{idx}:${rest}`;
  if (rest.startsWith('instance-seats:') || rest.startsWith('agent-games:') || rest === 'bot-turns:unqueued') return `${p}{idx}:${rest}`;
  if ((m = rest.match(/^rating:([^:]+):(.+)$/))) return `${p}{id:${m[2]}}:rating:${m[1]}`;
  if ((m = rest.match(/^history:(.+)$/))) return `${p}{id:${m[1]}}:history`;
  if ((m = rest.match(/^ratings:(.+)$/))) return keys.leaderboard(m[1] as GameId);
  if (rest === 'agents:names') return keys.agentNames();
  if (rest === 'agents') return keys.agentTokens();
  return undefined;
}
