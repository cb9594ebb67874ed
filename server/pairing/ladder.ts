import { LadderConfigSchema, LadderJoinSchema, LadderLeaveSchema, type SeatSpec, type TimeControl } from '../../shared/protocol/index.js';
import { GAME_IDS, type GameId } from '../../shared/rules.js';
import { accept, parse, type ServerResult } from '../refuse.js';
import type { Logger } from '../log.js';
import { NEW_RATING } from '../ratings/rating.js';
import type { LadderConfig } from '../store/platform.js';
import type { StoredGame } from '../store/store.js';
import type { PairingServices } from './pairing-services.js';

const LOCK_MS = 5000;
/** The platform set (per game) of the rooms the ladder started and that have not finished. */
const LADDER_SET = 'ladder';
/** The clock of ladder games: the roster bots keep their own budgets; agents get this a move. */
export const LADDER_CLOCK: TimeControl = { kind: 'per-move', moveMs: 5000 };

export interface LadderOptions extends PairingServices {
  /** The most ladder games that may run at once in one game: the ladder's share of the bot workers. */
  readonly maxConcurrent: number;
  readonly log: Logger;
}

/** Why a ladder runs fewer games at once than asked. */
export interface LadderCap {
  readonly asked: number;
  readonly max: number;
  readonly message: string;
}

interface Entrant {
  readonly name: string;
  readonly kind: 'bot' | 'agent';
  /** The server process holding an agent's connection. */
  readonly instance?: string;
  /** Ladder games it may still start now. */
  free: number;
  readonly played: number;
  readonly rating: number;
}

/**
 * The bot ladder: in each game, the roster bots the admin entered and the agents that joined are
 * paired continuously in rated games, `concurrent` at once (never more than the ladder's share of
 * the workers). The next game goes to the entrant that has played least, against the opponent
 * nearest in rating among those that have played least, so every entrant plays about as often
 * and meets the whole field.
 */
export class Ladder {
  constructor(private readonly options: LadderOptions) {}

  /** Sets a game's ladder; a `concurrent` above the cap is lowered to it, and `capped` says so. */
  async configure(payload: unknown): Promise<ServerResult<{ ladder: LadderConfig; capped?: LadderCap }>> {
    const request = parse(LadderConfigSchema, payload);
    if (!request.ok) return request;
    const unknown = request.value.bots.find((bot) => !this.options.bots.entry(request.value.game, bot));
    if (unknown) return { ok: false, error: { code: 'room/bad_seat', message: `No bot "${unknown}" plays ${request.value.game}.` } };
    const { maxConcurrent } = this.options;
    const asked = request.value.concurrent;
    const ladder = { ...request.value, concurrent: Math.min(asked, maxConcurrent) };
    await this.options.platform.setLadder(ladder);
    if (asked <= maxConcurrent) return accept({ ladder });
    const message = `The ladder runs at most ${maxConcurrent} game${maxConcurrent === 1 ? '' : 's'} at once: half of the server's bot threads (BOT_THREADS).`;
    return accept({ ladder, capped: { asked, max: maxConcurrent, message } });
  }

  async join(agent: string, payload: unknown): Promise<ServerResult<{ game: GameId; games: number }>> {
    const request = parse(LadderJoinSchema, payload);
    if (!request.ok) return request;
    await this.options.platform.putLadderEntrant(request.value.game, { name: agent, games: request.value.games, instance: this.options.instance });
    return accept(request.value);
  }

  async leave(agent: string, payload: unknown): Promise<ServerResult<Record<string, never>>> {
    const request = parse(LadderLeaveSchema, payload);
    if (!request.ok) return request;
    await this.options.platform.removeLadderEntrant(request.value.game, agent);
    return accept({});
  }

  /** The agent's connection is gone: it leaves every ladder (its games go on under the grace). */
  async agentGone(agent: string): Promise<void> {
    await Promise.all(GAME_IDS.map((game) => this.options.platform.removeLadderEntrant(game, agent)));
  }

  /** Starts the ladder games that are due. One process at a time. Returns the games started. */
  async tick(): Promise<number> {
    const { platform, store } = this.options;
    if (!(await platform.lock('ladder', this.options.instance, LOCK_MS))) return 0;
    const configs = new Map((await platform.ladders()).map((c) => [c.game, c]));
    const leases = await this.options.leases.leases();
    let started = 0;
    for (const game of GAME_IDS) {
      const agents = (await platform.ladderEntrants(game)).filter((e) => e.instance === this.options.instance || (leases.get(e.instance) ?? 0) > Date.now());
      const config = configs.get(game) ?? { game, bots: [], concurrent: Math.min(2, this.options.maxConcurrent) };
      if (config.bots.length + agents.length < 2) continue;
      const running = await this.running(game);
      const played = await platform.ladderPlayed(game);
      const busy = (name: string): number => running.filter((g) => g.seats.black.name === name || g.seats.white.name === name).length;
      const entrants = [
        ...config.bots.map((name) => ({ name, kind: 'bot' as const, capacity: config.concurrent })),
        ...agents.map((a) => ({ name: a.name, kind: 'agent' as const, capacity: a.games, instance: a.instance })),
      ];
      const ratings = await store.ratings(game, entrants.map(({ kind, name }) => ({ kind, name })));
      const field: Entrant[] = entrants.map((e, i) => ({ name: e.name, kind: e.kind, instance: 'instance' in e ? e.instance : undefined, free: e.capacity - busy(e.name), played: played.get(e.name) ?? 0, rating: ratings[i]?.rating ?? NEW_RATING.rating }));
      for (let slots = config.concurrent - running.length; slots > 0; slots--) {
        const pair = nextPairing(field);
        if (!pair) break;
        if (await this.start(game, pair[0], pair[1])) started++;
        for (const e of pair) e.free--;
      }
    }
    return started;
  }

  /**
   * The ladder's unfinished games of `game`: it keeps their ids in a set of its own (the ones it
   * started), so a tick reads a handful of games, not every live one; finished ones leave the set.
   */
  private async running(game: GameId): Promise<StoredGame[]> {
    const { platform, store } = this.options;
    const games = await Promise.all((await platform.heldRooms(LADDER_SET, game)).map(async (id) => [id, await store.get(id)] as const));
    for (const [id, g] of games) if (!g || g.status === 'finished') await platform.releaseRoom(LADDER_SET, game, id);
    return games.map(([, g]) => g).filter((g): g is StoredGame => g !== undefined && g.status !== 'finished');
  }

  private async start(game: GameId, a: Entrant, b: Entrant): Promise<boolean> {
    const [black, white] = Math.random() < 0.5 ? [a, b] : [b, a];
    const seat = (e: Entrant): SeatSpec => (e.kind === 'bot' ? { kind: 'bot', bot: e.name } : { kind: 'agent', agent: e.name });
    const created = await this.options.service.createRoom({ game, timeControl: LADDER_CLOCK, rated: true, seats: { black: seat(black), white: seat(white) } }, { ladder: true, owner: 'ladder' });
    if (!created.ok) {
      this.options.log.warn({ game, error: created.error }, 'could not start a ladder game');
      return false;
    }
    await this.options.platform.holdRoom(LADDER_SET, game, created.value.gameId);
    for (const [color, e] of [['black', black], ['white', white]] as const) {
      if (e.kind === 'agent') await this.options.service.takeSeat(created.value.gameId, color, { name: e.name, agent: true, via: e.instance });
    }
    await this.options.platform.countLadderGame(game, [a.name, b.name]);
    return true;
  }
}

/** Whoever has played least (and may play now), against the nearest rating among those who have played least. */
export function nextPairing(field: readonly Entrant[]): [Entrant, Entrant] | undefined {
  const ready = field.filter((e) => e.free > 0).sort((x, y) => x.played - y.played || x.rating - y.rating);
  const first = ready[0];
  if (!first) return undefined;
  const others = ready.filter((e) => e.name !== first.name);
  if (others.length === 0) return undefined;
  const least = Math.min(...others.map((e) => e.played));
  // Those within one game of the fewest played, nearest in rating first.
  const fair = others.filter((e) => e.played <= least + 1).sort((x, y) => Math.abs(x.rating - first.rating) - Math.abs(y.rating - first.rating));
  return [first, fair[0]!];
}

