import { COLORS, opposite, type Color } from '../../shared/color.js';
import { GAMES } from '../../shared/games.js';
import {
  AdminEndSchema,
  AgentCreateRoomSchema,
  AgentMoveSchema,
  AgentSeatActionSchema,
  ChallengeSchema,
  CreateRoomSchema,
  GAME_STATUSES,
  JoinSchema,
  ListSchema,
  MoveSchema,
  SeatActionSchema,
  WatchSchema,
  type GameView,
  type MovedEvent,
  type RoomSummary,
  type RoomsPage,
  type SeatSpec,
} from '../../shared/protocol/index.js';
import type { BotJobResult, BotThinking } from '../../bots/jobs/contract.js';
import { identityKey, rateGame, type Identity } from '../ratings/rating.js';
import type { Quotas } from '../quotas.js';
import { agentKey, type GameEnd, type GameStore, type IndexEntry, type StoredGame } from '../store/store.js';
import { flagTime, timeLeft } from './clock.js';
import * as G from './game.js';
import { indexChanges } from './indexes.js';
import type { Broadcaster, BotTurns, Timers } from './ports.js';
import { accept, parse, refuse, type ServerResult } from './refuse.js';

export interface ServiceOptions {
  readonly store: GameStore;
  readonly broadcaster: Broadcaster;
  readonly botTurns: BotTurns;
  readonly timers: Timers;
  readonly botExists: (game: StoredGame['game'], name: string) => boolean;
  readonly agentExists: (name: string) => Promise<boolean>;
  /** This server process's instance id: the seats its connections hold are stamped with it. */
  readonly instance: string;
  /** A bot's own budget for one move in ms. */
  readonly botBudget: (game: StoredGame['game'], name: string) => number;
  /** How long a dropped player keeps the seat while the game goes on. */
  readonly graceMs: number;
  /** How long a side has for its first move before the game is aborted; `FIRST_MOVE_GRACE_MS` by default. */
  readonly firstMoveGraceMs?: number;
  readonly now?: () => number;
  readonly onMoveApplied?: (game: StoredGame, ms: number) => void;
  /** Limits per owner; none in unit tests. */
  readonly quotas?: Quotas;
}

type Seated = { gameId: string; color: Color; token: string };
const MAX_ATTEMPTS = 8;
const BOT_SAFETY_MS = 250; // a bot answers this much before its flag falls
/** A bot whose move the platform still owes at its flag gets this much more, again and again … */
const OWED_STEP_MS = 1000;
/** … up to this much in one turn. */
const OWED_MAX_MS = 60_000;

function agentColors(game: Pick<StoredGame, 'seats'>, agent: string): Color[] {
  return COLORS.filter((c) => game.seats[c].kind === 'agent' && game.seats[c].name === agent);
}

/** The seat an agent holds in this game: the side to move if both are its own. */
function agentSeat(game: StoredGame, agent: string): ServerResult<Color> {
  const mine = agentColors(game, agent);
  if (mine.length === 0) return refuse('seat/bad_token', `${agent} holds no seat in room "${game.id}".`);
  return accept(mine.includes(G.toMove(game)) ? G.toMove(game) : mine[0]!);
}

/** The seat a token holds in this state of the game: checked in the same state a change is decided on. */
function seatByToken(game: StoredGame, token: string): ServerResult<Color> {
  const color = G.seatOfToken(game, token);
  return color ? accept(color) : refuse('seat/bad_token', 'That seat token does not hold a seat in this room.');
}

/** Recovery at start-up reads the live games' ids this many at a time … */
export const RECOVERY_PAGE = 500;
/** … and takes up this many games at once. */
const RECOVERY_CONCURRENCY = 32;

/** The one index of games whose bot turn the queue could not take when it was due. */
const unqueuedBotTurn = (gameId: string): IndexEntry => ({ index: 'unqueued-bot-turns', owner: '', member: gameId });

/** Runs `each` over `items`, at most `atOnce` at a time. */
async function forEachAtOnce<T>(items: readonly T[], atOnce: number, each: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) await each(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, lane));
}

/** Games the service keeps something of in memory (their latest state, a bot's evaluation). */
const RECENT_GAMES_KEPT = 5000;

/** A map by game id that keeps the most recently set entries, at most `max`: the oldest goes first. */
class Recent<V> {
  private readonly entries = new Map<string, V>();
  constructor(private readonly max: number) {}

  get(id: string): V | undefined {
    return this.entries.get(id);
  }

  set(id: string, value: V): void {
    this.entries.delete(id);
    this.entries.set(id, value);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(id: string): void {
    this.entries.delete(id);
  }

  get size(): number {
    return this.entries.size;
  }
}

/** A move keeps the seats object as it was; any other change to a seat makes a new one. */
function sameSeats(before: StoredGame | undefined, after: StoredGame): boolean {
  return before !== undefined && before.status === after.status && before.seats === after.seats;
}

/**
 * The authority over games, as in "One move, end to end": it loads a game, asks the pure game
 * logic, writes the result with a version check, and only then acknowledges and broadcasts,
 * then starts what the new state needs (a bot turn, an agent's turn, a flag, an abandonment timer).
 */
export class GameService {
  private readonly now: () => number;
  private readonly firstMoveGraceMs: number;
  private readonly views = new WeakMap<StoredGame, GameView>();
  /** The move each committed state was made by, as the room heard it; the mover's acknowledgement is the same. */
  private readonly moves = new WeakMap<StoredGame, MovedEvent>();
  /** The latest state of each game this process wrote or read: a move is decided on it first. */
  private readonly recent = new Recent<StoredGame>(RECENT_GAMES_KEPT);
  /** Each bot game's latest evaluation, from the bot's side: how a bot answers a draw offer. */
  private readonly botScores = new Recent<{ color: Color; score: number }>(RECENT_GAMES_KEPT);
  /**
   * Games whose bot turn must be asked again: the queue could not take it, or its answer or failure
   * could not be applied (the store was out of reach); asking again delivers a finished job's news.
   * Kept here too for when the store could not be told.
   */
  private readonly turnsToAskAgain = new Set<string>();

  constructor(private readonly options: ServiceOptions) {
    this.now = options.now ?? Date.now;
    this.firstMoveGraceMs = options.firstMoveGraceMs ?? G.FIRST_MOVE_GRACE_MS;
  }

  /** A page of the lobby (`rooms:list`); `all` is the first page of each status, for clients that do not page. */
  async listRooms(payload: unknown): Promise<ServerResult<RoomsPage>> {
    const request = parse(ListSchema, payload ?? {});
    if (!request.ok) return request;
    const { status, ...query } = request.value;
    const statuses = status === 'all' ? GAME_STATUSES : [status === 'open' ? 'waiting' : status];
    const pages = await Promise.all(statuses.map((s) => this.options.store.lobby(s, status === 'all' ? { ...query, cursor: undefined } : query)));
    return accept({
      rooms: pages.flatMap((p) => p.games.map(G.toSummary)),
      total: pages.reduce((sum, p) => sum + p.total, 0),
      next: status === 'all' ? null : pages[0]!.next,
    });
  }

  /** A room; a signed-in creator (`as.account`) who sits plays under the account's name. */
  async createRoom(payload: unknown, as: { account?: string; ladder?: boolean; owner?: string } = {}): Promise<ServerResult<{ gameId: string; seat: Seated | null; view: GameView }>> {
    const request = parse(CreateRoomSchema, payload);
    if (!request.ok) return request;
    const spec = request.value;
    const created = G.createGame(spec, (name) => this.options.botExists(spec.game, name), this.now(), { ladder: as.ladder, owner: as.owner ?? (as.account ? `account:${as.account}` : null) });
    if (!created.ok) return created;
    for (const color of COLORS) {
      const seat = spec.seats[color];
      if (seat.kind === 'agent' && seat.agent !== undefined && !(await this.options.agentExists(seat.agent))) {
        return refuse('room/bad_seat', `No agent named "${seat.agent}" is registered here.`);
      }
    }
    if (spec.sit && !COLORS.some((c) => spec.seats[c].kind === 'human')) {
      return refuse('room/bad_seat', 'There is no human seat to sit in: make one seat human.');
    }
    const { owner, id } = created.value;
    const allowed = await this.options.quotas?.reserve(owner, id, spec.seats);
    if (allowed && !allowed.ok) return allowed;
    let stored = false;
    try {
      stored = await this.write(undefined, created.value);
    } finally {
      if (!stored) await this.options.quotas?.release(owner, id);
    }
    if (!stored) return refuse('server/busy', 'Could not create the room; try again.');
    await this.afterCommit(undefined, created.value);
    let seat: Seated | null = null;
    if (spec.sit) {
      const sat = await this.takeSeat(created.value.id, spec.sit.color, as.account ? { name: as.account, account: true } : { name: spec.sit.name });
      if (!sat.ok) return sat;
      seat = sat.value.seat;
    }
    const view = await this.view(created.value.id);
    return view.ok ? accept({ gameId: created.value.id, seat, view: view.value }) : view;
  }

  /** A player takes a seat; a signed-in one (`account`) plays under the account's name. */
  async join(payload: unknown, account?: string): Promise<ServerResult<{ seat: Seated; view: GameView }>> {
    const request = parse(JoinSchema, payload);
    if (!request.ok) return request;
    return this.takeSeat(request.value.gameId, request.value.color, account ? { name: account, account: true } : { name: request.value.name });
  }

  /** An agent takes a seat; its name comes from its authenticated identity. */
  async joinAsAgent(gameId: string, color: Color | 'any', agent: string): Promise<ServerResult<{ seat: Seated; view: GameView }>> {
    return this.takeSeat(gameId, color, { name: agent, agent: true });
  }

  /** An agent makes a room (a seat of its own in it when `sit` is given). */
  async createRoomAsAgent(agent: string, payload: unknown): Promise<ServerResult<{ gameId: string; seat: Omit<Seated, 'token'> | null; view: GameView }>> {
    const request = parse(AgentCreateRoomSchema, payload);
    if (!request.ok) return request;
    const { sit, ...spec } = request.value;
    const created = await this.createRoom(spec, { owner: `agent:${agent}` });
    if (!created.ok || !sit) return created.ok ? accept({ ...created.value, seat: null }) : created;
    const joined = await this.joinAsAgent(created.value.gameId, sit.color, agent);
    if (!joined.ok) return joined;
    const { token: _token, ...seat } = joined.value.seat;
    return accept({ gameId: created.value.gameId, seat, view: joined.value.view });
  }

  /**
   * An agent challenges a bot, another agent or any person: a room with the agent seated in one
   * seat and the opponent in the other. A challenged agent is told (`challenge`) and takes the
   * seat with `room:join`, or declines.
   */
  async challenge(agent: string, payload: unknown): Promise<ServerResult<{ gameId: string; seat: Omit<Seated, 'token'>; view: GameView }>> {
    const request = parse(ChallengeSchema, payload);
    if (!request.ok) return request;
    const { opponent: asked, color: wanted, ...room } = request.value;
    const opponent = asked.kind === 'agent' ? { ...asked, agent: (await this.options.store.agentNamed(asked.agent))?.name ?? asked.agent } : asked; // its name as registered
    if (opponent.kind === 'agent' && agentKey(opponent.agent) === agentKey(agent)) return refuse('room/bad_seat', 'An agent cannot challenge itself.');
    const color: Color = wanted === 'random' ? COLORS[Math.floor(Math.random() * 2)]! : wanted;
    const other = opposite(color);
    const theirs = opponent.kind === 'open' ? { kind: 'human' as const } : opponent.kind === 'bot' ? opponent : { kind: 'agent' as const, agent: opponent.agent };
    const seats = { [color]: { kind: 'agent', agent }, [other]: theirs } as unknown as { black: SeatSpec; white: SeatSpec };
    const made = await this.createRoomAsAgent(agent, { ...room, seats, sit: { color } });
    if (!made.ok) return made;
    if (opponent.kind === 'agent') {
      this.options.broadcaster.challenge(opponent.agent, { gameId: made.value.gameId, from: agent, game: room.game, options: room.options, timeControl: room.timeControl, color: other });
    }
    return accept({ ...made.value, seat: made.value.seat! });
  }

  async declineChallenge(agent: string, payload: unknown): Promise<ServerResult<Record<string, never>>> {
    const request = parse(AgentSeatActionSchema, payload);
    if (!request.ok) return request;
    const result = await this.mutate(request.value.gameId, (game) => G.declineChallenge(game, agent, this.now()));
    if (!result.ok) return result;
    const challenger = COLORS.map((c) => result.value.seats[c]).find((s) => s.kind === 'agent' && s.name !== null && s.name !== agent);
    if (challenger?.name) this.options.broadcaster.challengeDeclined(challenger.name, { gameId: request.value.gameId, by: agent });
    return accept({});
  }

  /**
   * Seats a person (`account` when signed in) or an agent; the seat is held by the connections of
   * the server process `via` (this one unless the player's connection is on another, as when a
   * pairing made on one process seats a seeker connected to another).
   */
  async takeSeat(gameId: string, color: Color | 'any' | 'random', who: { name: string; agent?: boolean; account?: boolean; via?: string }): Promise<ServerResult<{ seat: Seated; view: GameView }>> {
    let seat: Seated | undefined;
    const result = await this.mutate(gameId, (game) => {
      const sat = G.sit(game, color, { ...who, via: who.via ?? this.options.instance }, this.now());
      if (!sat.ok) return sat;
      seat = { gameId, color: sat.value.color, token: sat.value.token };
      return accept(sat.value.game);
    });
    if (!result.ok) return result;
    return accept({ seat: seat!, view: G.toView(result.value, this.now()) });
  }

  async watch(payload: unknown): Promise<ServerResult<{ view: GameView }>> {
    const request = parse(WatchSchema, payload);
    if (!request.ok) return request;
    const view = await this.view(request.value.gameId);
    return view.ok ? accept({ view: view.value }) : view;
  }

  async view(gameId: string): Promise<ServerResult<GameView>> {
    const game = await this.options.store.get(gameId);
    if (!game) return refuse('room/not_found', `There is no room "${gameId}".`);
    return accept(G.toView(game, this.now()));
  }

  async game(gameId: string): Promise<StoredGame | undefined> {
    return this.options.store.get(gameId);
  }

  /** A returning player: the token proves the seat; the seat is marked connected. */
  async resume(payload: unknown): Promise<ServerResult<{ seat: Seated; view: GameView }>> {
    const request = parse(SeatActionSchema, payload);
    if (!request.ok) return request;
    const { gameId, token } = request.value;
    let color: Color = 'black';
    const result = await this.mutate(gameId, (game) => {
      const seat = seatByToken(game, token);
      if (!seat.ok) return seat;
      color = seat.value;
      return accept(G.setConnected(game, color, true, this.now(), this.options.instance));
    });
    if (!result.ok) return result;
    return accept({ seat: { gameId, color, token }, view: G.toView(result.value, this.now()) });
  }

  async move(payload: unknown): Promise<ServerResult<{ ply: number; moved: MovedEvent }>> {
    const request = parse(MoveSchema, payload);
    if (!request.ok) return request;
    const { gameId, token, ply, move } = request.value;
    return this.play(gameId, ply, move, (game) => seatByToken(game, token));
  }

  /** Plays for a colour whose authority the caller has established (a bot job, an agent). */
  moveAs(gameId: string, color: Color, ply: number, move: string): Promise<ServerResult<{ ply: number; moved: MovedEvent }>> {
    return this.play(gameId, ply, move, () => accept(color));
  }

  /** One load per attempt: the seat is found in the same state the move is judged against. */
  private async play(gameId: string, ply: number, move: string, seatOf: (game: StoredGame) => ServerResult<Color>, botLostMs?: number): Promise<ServerResult<{ ply: number; moved: MovedEvent }>> {
    const started = performance.now();
    let flagged: StoredGame | undefined;
    const result = await this.mutate(gameId, (stored) => {
      const color = seatOf(stored);
      if (!color.ok) return color;
      // One instant for the credit and the move: a bot's answer credited up to now is not late a millisecond on.
      const now = this.now();
      const game = botLostMs === undefined ? stored : G.creditBotAnswer(stored, ply, now, botLostMs);
      const played = G.playMove(game, color.value, ply, move, now, this.firstMoveGraceMs);
      if (played.ok) return accept(played.value.game);
      // A move too late ends the game: on time, or aborted when it was the mover's first.
      if (played.error.code === 'clock/flag_fell' || played.error.code === 'game/not_live') flagged = G.flagFall(game, ply, now, this.firstMoveGraceMs);
      return played;
    });
    if (!result.ok) {
      if (flagged) await this.mutate(gameId, (game) => accept(G.flagFall(game, ply, this.now(), this.firstMoveGraceMs) ?? game));
      return result;
    }
    this.options.onMoveApplied?.(result.value, performance.now() - started);
    return accept({ ply, moved: this.moves.get(result.value)! });
  }

  /** An agent's move: it plays for the seat to move if that seat is the agent's. */
  async moveAsAgent(agent: string, payload: unknown): Promise<ServerResult<{ ply: number; moved: MovedEvent }>> {
    const request = parse(AgentMoveSchema, payload);
    if (!request.ok) return request;
    const { gameId, ply, move } = request.value;
    return this.play(gameId, ply, move, (game) => agentSeat(game, agent));
  }

  /**
   * An agent's connection came: its seats in rooms not yet over are held by this process, and
   * every turn waiting for it is sent again. Returns the number of turns sent.
   */
  async agentConnected(agent: string): Promise<number> {
    let turns = 0;
    for (const game of await this.agentGames(agent)) {
      for (const color of agentColors(game, agent)) {
        const held = await this.mutate(game.id, (g) => accept(G.setConnected(g, color, true, this.now(), this.options.instance)));
        if (held.ok && held.value.status === 'live' && G.toMove(held.value) === color) {
          await this.startTurn(held.value);
          turns++;
        }
      }
    }
    return turns;
  }

  /** An agent's last connection went: its seats are away, and lost after the grace like a person's. */
  async agentDisconnected(agent: string): Promise<void> {
    for (const game of await this.agentGames(agent)) {
      for (const color of agentColors(game, agent)) await this.mutate(game.id, (g) => accept(G.setConnected(g, color, false, this.now(), null)));
    }
  }

  /** From the agent's index: its few games, however many others there are. An entry left by a game over or gone is dropped. */
  private async agentGames(agent: string): Promise<StoredGame[]> {
    const { store } = this.options;
    const ids = await store.indexed('agent-games', agentKey(agent));
    const games = await Promise.all(ids.map((id) => store.get(id)));
    const stale = ids.filter((_, i) => !games[i] || games[i].status === 'finished');
    if (stale.length > 0) await store.removeFromIndex(stale.map((member) => ({ index: 'agent-games', owner: agentKey(agent), member })));
    return games.filter((g): g is StoredGame => g !== undefined && g.status !== 'finished');
  }

  async resignAsAgent(agent: string, payload: unknown): Promise<ServerResult<Record<string, never>>> {
    return this.agentSeatAction(agent, payload, G.resign);
  }

  async offerDrawAsAgent(agent: string, payload: unknown): Promise<ServerResult<Record<string, never>>> {
    return this.agentSeatAction(agent, payload, G.offerDraw);
  }

  async acceptDrawAsAgent(agent: string, payload: unknown): Promise<ServerResult<Record<string, never>>> {
    return this.agentSeatAction(agent, payload, G.acceptDraw);
  }

  async declineDrawAsAgent(agent: string, payload: unknown): Promise<ServerResult<Record<string, never>>> {
    return this.agentSeatAction(agent, payload, G.declineDraw);
  }

  private async agentSeatAction(agent: string, payload: unknown, act: (game: StoredGame, color: Color, now: number) => ServerResult<StoredGame>): Promise<ServerResult<Record<string, never>>> {
    const request = parse(AgentSeatActionSchema, payload);
    if (!request.ok) return request;
    const result = await this.mutate(request.value.gameId, (game) => {
      const seat = agentSeat(game, agent);
      return seat.ok ? act(game, seat.value, this.now()) : seat;
    });
    return result.ok ? accept({}) : result;
  }

  async recentGames(limit: number): Promise<StoredGame[]> {
    return this.options.store.list('finished', limit);
  }

  async resign(payload: unknown): Promise<ServerResult<Record<string, never>>> {
    return this.seatAction(payload, (game, color, now) => G.resign(game, color, now));
  }

  async offerDraw(payload: unknown): Promise<ServerResult<Record<string, never>>> {
    return this.seatAction(payload, (game, color, now) => G.offerDraw(game, color, now));
  }

  async acceptDraw(payload: unknown): Promise<ServerResult<Record<string, never>>> {
    return this.seatAction(payload, (game, color, now) => G.acceptDraw(game, color, now));
  }

  async declineDraw(payload: unknown): Promise<ServerResult<Record<string, never>>> {
    return this.seatAction(payload, (game, color, now) => G.declineDraw(game, color, now));
  }

  async leave(payload: unknown): Promise<ServerResult<Record<string, never>>> {
    return this.seatAction(payload, (game, color, now) => G.leave(game, color, now));
  }

  /**
   * A new room, colours swapped; the asking player sits in it at once. A seat of an account is the
   * account's again only while the connection is still signed in as it (`account`, asked now).
   */
  async rematch(payload: unknown, account?: string): Promise<ServerResult<{ gameId: string; seat: Seated }>> {
    const request = parse(SeatActionSchema, payload);
    if (!request.ok) return request;
    const game = await this.options.store.get(request.value.gameId);
    if (!game) return refuse('room/not_found', `There is no room "${request.value.gameId}".`);
    const seat = seatByToken(game, request.value.token);
    if (!seat.ok) return seat;
    if (game.status !== 'finished') return refuse('game/not_live', 'A rematch follows a finished game.');
    let freshId = game.rematch;
    if (!freshId) {
      // Link first, so two players asking at once get the same new room.
      const fresh = G.rematchOf(game, this.now());
      const linked = await this.mutate(game.id, (g) => accept(G.linkRematch(g, fresh.id, this.now())));
      if (!linked.ok) return linked;
      freshId = linked.value.rematch!;
      if (freshId === fresh.id && (await this.write(undefined, fresh))) await this.afterCommit(undefined, fresh);
    }
    const held = game.seats[seat.value];
    const name = held.name ?? 'player';
    const stillSignedIn = held.account && account !== undefined && account.toLowerCase() === name.toLowerCase();
    const sat = await this.takeSeat(freshId, seat.value === 'black' ? 'white' : 'black', { name, account: stillSignedIn });
    if (!sat.ok) return sat;
    return accept({ gameId: freshId, seat: sat.value.seat });
  }

  async adminEnd(payload: unknown): Promise<ServerResult<{ view: GameView }>> {
    const request = parse(AdminEndSchema, payload);
    if (!request.ok) return request;
    const { gameId, winner, reason } = request.value;
    const result = await this.mutate(gameId, (game) => G.adjudicate(game, winner === 'draw' ? null : winner, reason, this.now()));
    return result.ok ? accept({ view: G.toView(result.value, this.now()) }) : result;
  }

  /** A connection of this process holding a seat came or went. */
  async connectionChanged(gameId: string, color: Color, connected: boolean): Promise<void> {
    await this.mutate(gameId, (game) => accept(G.setConnected(game, color, connected, this.now(), connected ? this.options.instance : null)));
  }

  /**
   * The process `via` that held a seat is gone. The seat is away from now (its abandonment timer
   * armed), unless a connection of the live process `holder` still holds it.
   */
  async presenceLost(gameId: string, color: Color, via: string | null, holder: string | null): Promise<void> {
    await this.mutate(gameId, (game) => {
      if (game.seats[color].connectedVia !== via) return accept(game);
      return accept(holder ? G.setConnected(game, color, true, this.now(), holder) : G.presenceLost(game, color, via, this.now()));
    });
  }

  /**
   * A flag's time came. A bot seat whose job is still waiting or running is not the bot's fault
   * (its search is cut to its clock): the bot is given time while the platform catches up.
   */
  async onFlag(gameId: string, ply: number): Promise<void> {
    const game = await this.options.store.get(gameId);
    if (!game || game.status !== 'live' || game.moves.length !== ply) return;
    const bot = game.seats[G.toMove(game)].kind === 'bot';
    const owed = bot && (await this.options.botTurns.pending(gameId, ply));
    // The bot answered, but no process has played the answer yet (it was down, or hears it later).
    const answer = bot && !owed ? await this.options.botTurns.answered(gameId, ply) : undefined;
    if (answer && (await this.onBotResult(answer))) return;
    const result = await this.mutate(gameId, (g) => accept((owed ? G.owedBotFlag(g, ply, this.now(), OWED_STEP_MS, OWED_MAX_MS) : G.flagFall(g, ply, this.now(), this.firstMoveGraceMs)) ?? g));
    if (!owed || !result.ok || result.value.status !== 'live') return;
    const flag = flagTime(result.value.timeControl, result.value.clock, G.toMove(result.value));
    if (flag !== null) await this.options.timers.armFlag(gameId, ply, flag);
  }

  /** Retention: a room nobody has come to play in since `idleSince` is closed. */
  async expireRoom(gameId: string, idleSince: number): Promise<void> {
    await this.mutate(gameId, (game) => accept(G.expire(game, idleSince, this.now()) ?? game));
  }

  async onAbandon(gameId: string, color: Color, awaySince: number): Promise<void> {
    await this.mutate(gameId, (game) => accept(G.abandon(game, color, awaySince, this.now()) ?? game));
  }

  /** A turn timer that names only its game: the flag of the turn the game is at now, which judges whether it is due. */
  async onTurnDue(gameId: string): Promise<void> {
    const game = await this.options.store.get(gameId);
    if (game?.status === 'live') await this.onFlag(gameId, game.moves.length);
  }

  /** An absence timer that names only its seat: the seat's absence now, once it has lasted the grace. */
  async onAwayDue(gameId: string, color: Color): Promise<void> {
    const game = await this.options.store.get(gameId);
    const awaySince = game?.status === 'live' ? game.seats[color].awaySince : null;
    if (awaySince !== null && this.now() >= awaySince + this.options.graceMs) await this.onAbandon(gameId, color, awaySince);
  }

  /**
   * A bot job's answer: applied through the same path as a human's move, the time the platform
   * lost on the turn given back first (`creditBotAnswer`); a stale one is dropped.
   */
  async onBotResult(result: BotJobResult): Promise<boolean> {
    return this.askAgainIfLost(result.gameId, async () => {
      const game = await this.options.store.get(result.gameId);
      if (!game || game.status !== 'live' || game.moves.length !== result.ply) return false;
      const color = G.toMove(game);
      if (game.seats[color].kind !== 'bot') return false;
      return (await this.play(result.gameId, result.ply, result.move, () => accept(color), result.lostMs ?? 0)).ok;
    });
  }

  /** A bot job's news that could not be applied is not lost: the sweep asks for the turn again. */
  private async askAgainIfLost<T>(gameId: string, apply: () => Promise<T>): Promise<T> {
    try {
      return await apply();
    } catch (error) {
      this.turnsToAskAgain.add(gameId);
      throw error;
    }
  }

  async onBotThinking(gameId: string, ply: number, bot: string, thinking: BotThinking): Promise<void> {
    const game = await this.options.store.get(gameId);
    if (!game || game.moves.length !== ply) return;
    const color = G.toMove(game);
    this.botScores.set(gameId, { color, score: thinking.score });
    this.options.broadcaster.thinking({ gameId, ply, color, bot, ...thinking }, game.showThinking);
  }

  /** A bot that cannot move (its job failed for good) loses on time, like anyone else. */
  async onBotFailed(gameId: string, ply: number): Promise<void> {
    await this.askAgainIfLost(gameId, () => this.mutate(gameId, (game) => accept(G.forfeitTurn(game, ply, this.now()) ?? game)));
  }

  /**
   * The sweep's backstop for the bot turns the queue could not take when they were due (the store
   * took the move, the queue was out of reach), and for a job's answer or failure this process could
   * not apply: each asked again, unless its job is pending by now or its turn is over. Returns the
   * games whose turn was asked again.
   */
  async retryUnqueuedBotTurns(): Promise<string[]> {
    const { store, botTurns } = this.options;
    const ids = new Set([...this.turnsToAskAgain, ...(await store.indexed('unqueued-bot-turns', ''))]);
    const asked: string[] = [];
    for (const id of ids) {
      // Taken out first: a turn that fails again is put back by startTurn.
      this.turnsToAskAgain.delete(id);
      await store.removeFromIndex([unqueuedBotTurn(id)]);
      const game = await store.get(id);
      if (!game || game.status !== 'live' || game.seats[G.toMove(game)].kind !== 'bot') continue;
      if (await botTurns.pending(id, game.moves.length)) continue;
      await this.startTurn(game);
      asked.push(id);
    }
    return asked;
  }

  /**
   * On start: every live game's clock re-armed, pending bot and agent turns asked again. The ids
   * are read a page at a time and the games taken up `RECOVERY_CONCURRENCY` at once, while the
   * process already serves requests (a turn started twice is harmless: arming replaces, a bot
   * turn's job id is its own). A game that fails is counted and left to its flag. Stops early
   * when `signal` aborts. Returns the games re-armed.
   */
  async recover(options: { signal?: AbortSignal; onFailed?: (gameId: string, error: unknown) => void } = {}): Promise<number> {
    const { store } = this.options;
    const seen = new Set<string>();
    let recovered = 0;
    let cursor = '0';
    do {
      const page = await store.scanIds('live', cursor, RECOVERY_PAGE);
      cursor = page.cursor;
      const fresh = page.ids.filter((id) => !seen.has(id));
      for (const id of fresh) seen.add(id);
      await forEachAtOnce(fresh, RECOVERY_CONCURRENCY, async (id) => {
        if (options.signal?.aborted) return;
        try {
          const game = await store.get(id);
          if (!game || game.status !== 'live') return;
          await this.startTurn(game);
          recovered++;
        } catch (error) {
          options.onFailed?.(id, error);
        }
      });
    } while (cursor !== '0' && !options.signal?.aborted);
    return recovered;
  }

  private async seatAction(payload: unknown, act: (game: StoredGame, color: Color, now: number) => ServerResult<StoredGame>): Promise<ServerResult<Record<string, never>>> {
    const request = parse(SeatActionSchema, payload);
    if (!request.ok) return request;
    const result = await this.mutate(request.value.gameId, (game) => {
      const seat = seatByToken(game, request.value.token);
      return seat.ok ? act(game, seat.value, this.now()) : seat;
    });
    return result.ok ? accept({}) : result;
  }

  /**
   * Decides a change on the game and writes it with the version check; on a lost race, loads again
   * and decides again. Only a committed change is broadcast and followed up. The state last written
   * or read here is tried first, so an accepted move costs one store round trip; the version check
   * catches a state another process changed, and a refusal or a no-change decided on a remembered
   * state is decided again on the stored one.
   */
  private async mutate(gameId: string, decide: (game: StoredGame) => ServerResult<StoredGame>): Promise<ServerResult<StoredGame>> {
    let remembered = this.recent.get(gameId);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const game = remembered ?? (await this.options.store.get(gameId));
      if (!game) return refuse('room/not_found', `There is no room "${gameId}".`);
      const decided = decide(game);
      const unchanged = decided.ok && (decided.value === game || decided.value.version === game.version);
      if (remembered && (!decided.ok || unchanged)) {
        remembered = undefined;
        attempt--;
        continue;
      }
      remembered = undefined;
      this.remember(game);
      if (!decided.ok || unchanged) return decided;
      const { next, end } = await this.withEnding(game, decided.value);
      if (await this.write(game, next, end)) {
        this.remember(next);
        await this.afterCommit(game, next);
        return accept(next);
      }
      this.recent.delete(gameId);
    }
    return refuse('server/busy', 'The game changed under this request too often; send it again.');
  }

  /** Keeps a game's latest state while it can still change; a finished game is let go, or a busy process would hold thousands. */
  private remember(game: StoredGame): void {
    if (game.status === 'finished') this.recent.delete(game.id);
    else this.recent.set(game.id, game);
  }

  /** How many games' states this process keeps in memory. */
  get rememberedGames(): number {
    return this.recent.size;
  }

  /**
   * Writes a game (`before` undefined: a new one) and keeps the indexes beside it: entries are added
   * before the write, so a process dying between the two leaves a spare entry, never a missing one,
   * and removed after it, only while the game is still at the written version.
   */
  private async write(before: StoredGame | undefined, next: StoredGame, end?: GameEnd): Promise<boolean> {
    const { store } = this.options;
    const { added, removed } = indexChanges(before, next);
    if (added.length > 0) await store.addToIndex(added, { gameId: next.id, version: next.version });
    const written = before ? await store.update(next, end) : await store.create(next);
    if (written && removed.length > 0) await store.removeFromIndex(removed, { gameId: next.id, version: next.version });
    return written;
  }

  /**
   * A game that ends is written with what its end changes: each player's history, and for a rated
   * game both ratings, computed from the records read now and written only if they are still the
   * stored ones. The game's end is written once (its version), so the ratings change once.
   */
  private async withEnding(before: StoredGame, after: StoredGame): Promise<{ next: StoredGame; end?: GameEnd }> {
    if (after.status !== 'finished' || before.status === 'finished' || after.result?.reason === 'declined' || after.result?.reason === 'aborted') return { next: after };
    const black = G.seatIdentity(after.seats.black);
    const white = G.seatIdentity(after.seats.white);
    const players = [black, white].filter((p): p is Identity => p !== null);
    // As on Lichess, a game aborted before both sides have moved is not rated.
    const rated = after.rated && before.status === 'live' && after.moves.length >= 2 && black && white && identityKey(black) !== identityKey(white);
    if (!rated || !after.result) return { next: after, end: { ratings: [], players } };
    const [b, w] = await this.options.store.ratings(after.game, [black, white]);
    const changed = rateGame(b!, w!, after.result.winner, this.now());
    const change = (old: typeof b, fresh: typeof b) => ({ before: old!.rating, after: fresh!.rating, rd: fresh!.rd });
    return {
      next: { ...after, ratingChange: { black: change(b, changed.black), white: change(w, changed.white) } },
      end: { ratings: [changed.black, changed.white], players, rated: { black: b!, white: w!, winner: after.result.winner } },
    };
  }

  /** The view of a committed state, made once for its broadcast and its acknowledgement. */
  private viewOf(game: StoredGame): GameView {
    let view = this.views.get(game);
    if (!view) this.views.set(game, (view = G.toView(game, this.now())));
    return view;
  }

  private async afterCommit(before: StoredGame | undefined, after: StoredGame): Promise<void> {
    const { broadcaster } = this.options;
    const moved = before !== undefined && after.moves.length > before.moves.length;
    if (moved) {
      const event = G.movedEvent(before, after, this.now());
      this.moves.set(after, event);
      broadcaster.moved(event);
    }
    const ended = after.status === 'finished' && before?.status !== 'finished';
    if (ended) {
      this.botScores.delete(after.id);
      await this.options.timers.cancel(after.id);
      broadcaster.ended(this.viewOf(after));
      await this.options.quotas?.release(after.owner, after.id);
    } else if (!moved) broadcaster.state(this.viewOf(after));
    // The lobby hears of a room when its seats or status change, not on every move.
    if (!moved || ended || !sameSeats(before, after)) broadcaster.roomChanged(G.toSummary(after));
    for (const color of COLORS) {
      const seat = after.seats[color];
      if (after.status === 'live' && seat.awaySince !== null && seat.awaySince !== before?.seats[color].awaySince) {
        await this.options.timers.armAbandon(after.id, color, seat.awaySince, seat.awaySince + this.options.graceMs);
      }
    }
    const offeredTo = after.drawOffer === null ? null : opposite(after.drawOffer);
    if (after.status === 'live' && offeredTo && before?.drawOffer !== after.drawOffer && after.seats[offeredTo].kind === 'bot') await this.answerDraw(after.id, offeredTo);
    const turnChanged = after.status === 'live' && (before?.status !== 'live' || moved);
    if (turnChanged) await this.startTurn(after);
  }

  /**
   * A bot answers a draw offer at once, by its latest evaluation: it accepts when its last search
   * scored its position below even, and declines otherwise (or before it has searched).
   */
  private async answerDraw(gameId: string, bot: Color): Promise<void> {
    const seen = this.botScores.get(gameId);
    const worse = seen !== undefined && seen.color === bot && seen.score < 0;
    await this.mutate(gameId, (game) => {
      if (game.status !== 'live' || game.drawOffer !== opposite(bot)) return accept(game);
      return worse ? G.acceptDraw(game, bot, this.now()) : G.declineDraw(game, bot, this.now());
    });
  }

  /** Whatever the side to move needs: its flag armed, and a bot or agent asked for its move. */
  private async startTurn(game: StoredGame): Promise<void> {
    const ply = game.moves.length;
    const color = G.toMove(game);
    // A side whose only move is a pass passes at once, its clock charged nothing: nobody waits for it.
    const pass = G.forcedPass(game);
    if (pass) {
      await this.moveAs(game.id, color, ply, pass);
      return;
    }
    const flag = G.turnDue(game, this.firstMoveGraceMs);
    if (flag !== null) await this.options.timers.armFlag(game.id, ply, flag);
    for (const c of COLORS) {
      const seat = game.seats[c];
      if (seat.awaySince !== null) await this.options.timers.armAbandon(game.id, c, seat.awaySince, seat.awaySince + this.options.graceMs);
    }
    const seat = game.seats[color];
    if (seat.kind === 'bot' && seat.name) {
      const left = timeLeft(game.timeControl, game.clock, color, this.now());
      const budgetMs = Math.max(10, Math.min(this.options.botBudget(game.game, seat.name), left - BOT_SAFETY_MS));
      const deadline = flag === null ? null : flag - BOT_SAFETY_MS;
      try {
        await this.options.quotas?.botThinking(game.owner, budgetMs);
        await this.options.botTurns.request({ gameId: game.id, ply, game: game.game, position: game.position, bot: seat.name, budgetMs, deadline, ...(game.owner ? { owner: game.owner } : {}) });
      } catch (error) {
        // Asked again by the sweep; the store is told when it can be, this process remembers it anyway.
        this.turnsToAskAgain.add(game.id);
        await this.options.store.addToIndex([unqueuedBotTurn(game.id)]).catch(() => undefined);
        throw error;
      }
    } else if (seat.kind === 'agent' && seat.name) {
      const view = G.toView(game, this.now());
      this.options.broadcaster.agentTurn(seat.name, {
        gameId: game.id,
        ply,
        color,
        game: game.game,
        position: view.position,
        moves: view.moves,
        legal: view.legal,
        clock: view.clock,
        deadline: flag,
      });
    }
  }
}

