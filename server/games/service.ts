import { COLORS, opposite, type Color } from '../../shared/color.js';
import { AdminEndSchema, AgentMoveSchema, AgentSeatActionSchema, CreateRoomSchema, JoinSchema, MoveSchema, SeatActionSchema, type GameView, type MovedEvent } from '../../shared/protocol/index.js';
import type { BotJobResult, BotThinking } from '../../bots/jobs/contract.js';
import type { Quotas } from '../quotas.js';
import type { GameEnd, GameStore, StoredGame } from '../store/store.js';
import { BotSeats } from './bot-seats.js';
import { Deadlines } from './deadlines.js';
import { withEnding } from './ending.js';
import * as G from './game.js';
import { indexChanges } from './indexes.js';
import { Lobby } from './lobby.js';
import type { Bots, Broadcaster, BotTurns, Timers } from './ports.js';
import { Recent, RECENT_GAMES_KEPT } from './recent.js';
import { recoverLiveGames, type RecoveryOptions } from './recovery.js';
import { parseWithProof, provenSeat, type SeatProof } from './seat-proof.js';
import { accept, parse, refuse, type ServerResult } from '../refuse.js';

export interface ServiceOptions {
  readonly store: GameStore;
  readonly broadcaster: Broadcaster;
  readonly botTurns: BotTurns;
  readonly timers: Timers;
  readonly bots: Bots;
  readonly agentExists: (name: string) => Promise<boolean>;
  /** This server process's instance id: the seats its connections hold are stamped with it. */
  readonly instance: string;
  /** How long a dropped player keeps the seat while the game goes on. */
  readonly graceMs: number;
  /** How long a side has for its first move before the game is aborted; `FIRST_MOVE_GRACE_MS` by default. */
  readonly firstMoveGraceMs?: number;
  readonly now?: () => number;
  readonly onMoveApplied?: (game: StoredGame, ms: number) => void;
  /** Limits per owner; none in unit tests. */
  readonly quotas?: Quotas;
}

/** A seat taken: the token proves it from then on. */
export type Seated = { gameId: string; color: Color; token: string };
const MAX_ATTEMPTS = 8;
/** What a seat may do besides moving. */
const SEAT_ACTIONS = { resign: G.resign, 'draw:offer': G.offerDraw, 'draw:accept': G.acceptDraw, 'draw:decline': G.declineDraw, leave: G.leave };
export type SeatAction = keyof typeof SEAT_ACTIONS;
/** The seat actions both namespaces answer by the same name (a person's `room:leave` is `leave`). */
export const GAME_ACTIONS = ['resign', 'draw:offer', 'draw:accept', 'draw:decline'] as const satisfies readonly SeatAction[];

/** A move keeps the seats object as it was; any other change to a seat makes a new one. */
function sameSeats(before: StoredGame | undefined, after: StoredGame): boolean {
  return before !== undefined && before.status === after.status && before.seats === after.seats;
}

/**
 * The authority over games, as in "One move, end to end": it loads a game, asks the pure game
 * logic, writes the result with a version check, and only then acknowledges and broadcasts,
 * then starts what the new state needs (a bot turn, an agent's turn, a flag, an abandonment timer).
 * Every change goes through `mutate` and every move through `play`, whoever asks: a person, an
 * agent (`AgentSessions`), a bot (`BotSeats`) or a timer.
 */
export class GameService {
  private readonly now: () => number;
  private readonly firstMoveGraceMs: number;
  private readonly views = new WeakMap<StoredGame, GameView>();
  /** The move each committed state was made by, as the room heard it; the mover's acknowledgement is the same. */
  private readonly moves = new WeakMap<StoredGame, MovedEvent>();
  /** The latest state of each game this process wrote or read: a move is decided on it first. */
  private readonly recent = new Recent<StoredGame>(RECENT_GAMES_KEPT);
  private readonly botSeats: BotSeats;
  private readonly deadlines: Deadlines;
  private readonly lobby: Lobby;

  constructor(private readonly options: ServiceOptions) {
    this.now = options.now ?? Date.now;
    this.firstMoveGraceMs = options.firstMoveGraceMs ?? G.FIRST_MOVE_GRACE_MS;
    this.botSeats = new BotSeats(this, { ...options, now: this.now });
    this.deadlines = new Deadlines(this, { ...options, now: this.now, firstMoveGraceMs: this.firstMoveGraceMs, playBotAnswer: (result) => this.onBotResult(result) });
    this.lobby = new Lobby(options.store, this.now);
  }

  /** A room; a signed-in creator (`as.account`) who sits plays under the account's name. */
  async createRoom(payload: unknown, as: { account?: string; ladder?: boolean; owner?: string; id?: string; reserved?: Partial<Record<Color, string>> } = {}): Promise<ServerResult<{ gameId: string; seat: Seated | null; view: GameView }>> {
    const request = parse(CreateRoomSchema, payload);
    if (!request.ok) return request;
    const spec = request.value;
    const created = G.createGame(spec, (name) => this.options.bots.entry(spec.game, name) !== undefined, this.now(), { ladder: as.ladder, owner: as.owner ?? (as.account ? `account:${as.account}` : null), id: as.id, reserved: as.reserved });
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

  /**
   * Seats a person (`account` when signed in) or an agent; the seat is held by the connections of
   * the server process `via` (this one unless the player's connection is on another, as when a
   * pairing made on one process seats a seeker connected to another).
   */
  takeSeat(gameId: string, color: Color | 'any' | 'random', who: { name: string; agent?: boolean; account?: boolean; via?: string }): Promise<ServerResult<{ seat: Seated; view: GameView }>> {
    return this.seatBy(gameId, (game) => G.sit(game, color, { ...who, via: who.via ?? this.options.instance }, this.now()));
  }

  /** A signed-in account's seat in a room it was seated in for it (a tournament's game), with a new token. */
  seatOfAccount(gameId: string, account: string): Promise<ServerResult<{ seat: Seated; view: GameView }>> {
    return this.seatBy(gameId, (game) => G.reissueAccountSeat(game, account, this.options.instance, this.now()));
  }

  /** One write that seats (or re-seats) someone: the seat, its token, and the room's view after it. */
  private async seatBy(gameId: string, decide: (game: StoredGame) => ServerResult<{ game: StoredGame; color: Color; token: string }>): Promise<ServerResult<{ seat: Seated; view: GameView }>> {
    let seat: Seated | undefined;
    const result = await this.mutate(gameId, (game) => {
      const sat = decide(game);
      if (!sat.ok) return sat;
      seat = { gameId, color: sat.value.color, token: sat.value.token };
      return accept(sat.value.game);
    });
    if (!result.ok) return result;
    return accept({ seat: seat!, view: G.toView(result.value, this.now()) });
  }

  /** A room's view, as the lobby reads it. */
  view(gameId: string): Promise<ServerResult<GameView>> {
    return this.lobby.view(gameId);
  }

  /** A returning player: the token proves the seat; the seat is marked connected. */
  async resume(payload: unknown): Promise<ServerResult<{ seat: Seated; view: GameView }>> {
    const request = parse(SeatActionSchema, payload);
    if (!request.ok) return request;
    const { gameId, token } = request.value;
    return this.seatBy(gameId, (game) => {
      const color = provenSeat(game, { token });
      return color.ok ? accept({ game: G.setConnected(game, color.value, true, this.now(), this.options.instance), color: color.value, token }) : color;
    });
  }

  /**
   * A move by a person (the payload's seat token proves the seat; `origin` is its connection) or by
   * `agent`, whose connection proves it.
   */
  async move(payload: unknown, agent?: string, origin?: string): Promise<ServerResult<{ ply: number; moved: MovedEvent }>> {
    const asked = parseWithProof(payload, agent, MoveSchema, AgentMoveSchema);
    if (!asked.ok) return asked;
    const { gameId, ply, move } = asked.value.request;
    const proof = origin !== undefined && 'token' in asked.value.proof ? { ...asked.value.proof, origin } : asked.value.proof;
    return this.play(gameId, ply, move, proof);
  }

  /**
   * The one path of every move, whoever proves its seat (`SeatProof`): one load per attempt, the
   * seat found in the same state the move is judged against.
   */
  async play(gameId: string, ply: number, move: string, proof: SeatProof, botLostMs?: number): Promise<ServerResult<{ ply: number; moved: MovedEvent }>> {
    const started = performance.now();
    let flagged: StoredGame | undefined;
    const origin = 'origin' in proof ? proof.origin : undefined;
    const result = await this.mutate(gameId, (stored) => {
      const color = provenSeat(stored, proof);
      if (!color.ok) return color;
      // One instant for the credit and the move: a bot's answer credited up to now is not late a millisecond on.
      const now = this.now();
      const game = botLostMs === undefined ? stored : G.creditBotAnswer(stored, ply, now, botLostMs);
      const played = G.playMove(game, color.value, ply, move, now, this.firstMoveGraceMs);
      if (played.ok) return accept(played.value.game);
      // A move too late ends the game: on time, or aborted when it was the mover's first.
      if (played.error.code === 'clock/flag_fell' || played.error.code === 'game/not_live') flagged = G.flagFall(game, ply, now, this.firstMoveGraceMs);
      return played;
    }, origin);
    if (!result.ok) {
      if (flagged) await this.mutate(gameId, (game) => accept(G.flagFall(game, ply, this.now(), this.firstMoveGraceMs) ?? game));
      return result;
    }
    this.options.onMoveApplied?.(result.value, performance.now() - started);
    return accept({ ply, moved: this.moves.get(result.value)! });
  }

  /** A seat's resignation, draw offer or answer, or leaving: proven as a move is (`move`). */
  async act(action: SeatAction, payload: unknown, agent?: string): Promise<ServerResult<Record<string, never>>> {
    const asked = parseWithProof(payload, agent, SeatActionSchema, AgentSeatActionSchema);
    if (!asked.ok) return asked;
    const result = await this.mutate(asked.value.request.gameId, (game) => {
      const seat = provenSeat(game, asked.value.proof);
      return seat.ok ? SEAT_ACTIONS[action](game, seat.value, this.now()) : seat;
    });
    return result.ok ? accept({}) : result;
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
    const seat = provenSeat(game, { token: request.value.token });
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

  /** The deadlines' side of the games (`Deadlines`): a flag, an absence, an idle room. */
  onFlag(gameId: string, ply: number): Promise<void> {
    return this.deadlines.onFlag(gameId, ply);
  }

  onTurnDue(gameId: string): Promise<void> {
    return this.deadlines.onTurnDue(gameId);
  }

  onAbandon(gameId: string, color: Color, awaySince: number): Promise<void> {
    return this.deadlines.onAbandon(gameId, color, awaySince);
  }

  onAwayDue(gameId: string, color: Color): Promise<void> {
    return this.deadlines.onAwayDue(gameId, color);
  }

  expireRoom(gameId: string, idleSince: number): Promise<void> {
    return this.deadlines.expireRoom(gameId, idleSince);
  }

  /** A bot job's answer, played as anyone's move; a stale one is dropped. */
  onBotResult(result: BotJobResult): Promise<boolean> {
    return this.botSeats.onResult(result);
  }

  onBotThinking(gameId: string, ply: number, bot: string, thinking: BotThinking): Promise<void> {
    return this.botSeats.onThinking(gameId, ply, bot, thinking);
  }

  onBotFailed(gameId: string, ply: number): Promise<void> {
    return this.botSeats.onFailed(gameId, ply);
  }

  /** The sweep's backstop: bot turns whose news was lost, asked again (`BotSeats.retryUnqueued`). */
  retryUnqueuedBotTurns(): Promise<string[]> {
    return this.botSeats.retryUnqueued();
  }

  /** On start: every live game's clock re-armed, pending bot and agent turns asked again (`recoverLiveGames`). */
  recover(options: RecoveryOptions = {}): Promise<number> {
    return recoverLiveGames(this.options.store, (game) => this.startTurn(game), options);
  }

  /**
   * Decides a change on the game and writes it with the version check; on a lost race, loads again
   * and decides again. Only a committed change is broadcast and followed up. The state last written
   * or read here is tried first, so an accepted move costs one store round trip; the version check
   * catches a state another process changed, and a refusal or a no-change decided on a remembered
   * state is decided again on the stored one.
   */
  async mutate(gameId: string, decide: (game: StoredGame) => ServerResult<StoredGame>, origin?: string): Promise<ServerResult<StoredGame>> {
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
      const { next, end } = await withEnding(this.options.store, game, decided.value, this.now());
      if (await this.writeOrLookAgain(game, next, end)) {
        this.remember(next);
        await this.afterCommit(game, next, origin);
        return accept(next);
      }
      this.recent.delete(gameId);
    }
    return refuse('server/busy', 'The game changed under this request too often; send it again.');
  }

  /**
   * A write that fails may still have been stored (its master took it, then died before a replica
   * said so): the game is forgotten here, and the sweep looks at its turn again, so a bot whose turn
   * it became is asked.
   */
  private async writeOrLookAgain(before: StoredGame, next: StoredGame, end?: GameEnd): Promise<boolean> {
    try {
      return await this.write(before, next, end);
    } catch (error) {
      this.recent.delete(next.id);
      this.botSeats.lookAgain(next.id);
      throw error;
    }
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

  /** The view of a committed state, made once for its broadcast and its acknowledgement. */
  private viewOf(game: StoredGame): GameView {
    let view = this.views.get(game);
    if (!view) this.views.set(game, (view = G.toView(game, this.now())));
    return view;
  }

  private async afterCommit(before: StoredGame | undefined, after: StoredGame, origin?: string): Promise<void> {
    const { broadcaster } = this.options;
    const moved = before !== undefined && after.moves.length > before.moves.length;
    if (moved) {
      const event = G.movedEvent(before, after, this.now());
      this.moves.set(after, event);
      broadcaster.moved(event, origin);
    }
    const ended = after.status === 'finished' && before?.status !== 'finished';
    if (ended) {
      this.botSeats.ended(after.id);
      // Neither is waited for, as either may be on a master failing over: a timer left behind
      // finds the game over when it comes and goes, and a finished room not given back is let go
      // at its owner's limit (`Quotas.hold`).
      this.options.timers.cancel(after.id).catch(() => undefined);
      this.options.quotas?.release(after.owner, after.id).catch(() => undefined);
      broadcaster.ended(this.viewOf(after));
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
    if (after.status === 'live' && offeredTo && before?.drawOffer !== after.drawOffer && after.seats[offeredTo].kind === 'bot') await this.botSeats.answerDraw(after.id, offeredTo);
    const turnChanged = after.status === 'live' && (before?.status !== 'live' || moved);
    if (turnChanged) await this.startTurn(after, { awaitBot: false });
  }

  /**
   * Whatever the side to move needs: its flag armed, and a bot or agent asked for its move. After
   * a move the bot is asked without waiting (`awaitBot: false`): the mover's acknowledgement does
   * not wait on the bot queue (whose master may be failing over), and an ask that fails is asked
   * again by the sweep. Recovery waits for each ask, to keep its concurrency bounded.
   */
  async startTurn(game: StoredGame, { awaitBot = true } = {}): Promise<void> {
    const ply = game.moves.length;
    const color = G.toMove(game);
    // A side whose only move is a pass passes at once, its clock charged nothing: nobody waits for it.
    const pass = G.forcedPass(game);
    if (pass) {
      await this.play(game.id, ply, pass, { color });
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
      const asked = this.botSeats.ask(game, seat.name, flag);
      if (awaitBot) await asked;
      else asked.catch(() => undefined);
    } else if (seat.kind === 'agent' && seat.name) {
      this.options.broadcaster.agentTurn(seat.name, G.agentTurnOf(game, flag, this.now()));
    }
  }
}

