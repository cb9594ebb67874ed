import { io, type Socket } from 'socket.io-client';
import type { Color } from '../../shared/color.js';
import { PROTOCOL_VERSION, type Ack, type AgentTurn, type ChallengeOffer, type GameLost, type GameResult, type GameView, type LobbyRequest, type MovedEvent, type RoomSummary, type RoomsPage, type ServerError, type TournamentDelta, type TournamentPaired, type TournamentSummary, type TournamentView } from '../../shared/protocol/index.js';
import type { GameId } from '../../shared/rules.js';

export interface ConnectOptions {
  /** The server, e.g. `http://localhost:3000` (the SDK adds `/agent`). */
  readonly url: string;
  readonly token: string;
  /** Reconnect after a dropped connection (default true); pending turns come again by themselves. */
  readonly reconnect?: boolean;
  /** How long a request may wait for its answer (default 10 s). */
  readonly timeoutMs?: number;
}

/** A refusal from the server (its stable `code` and sentence), or `transport/…` for a lost request. */
export class AgentError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Answers a turn with a move in the game's notation. `signal` aborts at the turn's deadline (less
 * a margin) or when the turn is over; `null` sends nothing (the turn stays open).
 */
export type TurnHandler = (turn: AgentTurn, signal: AbortSignal) => Promise<string | null> | string | null;

export interface AgentEvents {
  ended: { gameId: string; result: GameResult; view: GameView };
  moved: MovedEvent;
  state: GameView;
  roomsChanged: RoomSummary;
  challenge: ChallengeOffer;
  challengeDeclined: { gameId: string; by: string };
  gameLost: GameLost;
  /** Another connection with this token took over; this one is closed. */
  replaced: { message: string };
  /** A turn the handler failed to answer (it threw, or its move was refused). */
  error: { gameId: string; ply: number; error: AgentError };
  disconnect: { reason: string };
  reconnect: Record<string, never>;
  /** A tournament this agent entered paired it: the game comes as turns. */
  tournamentPaired: TournamentPaired;
  /** A followed tournament changed: standings rows and pairings. */
  tournamentDelta: TournamentDelta;
}

const WIRE: Record<keyof AgentEvents, string> = {
  ended: 'ended',
  moved: 'moved',
  state: 'state',
  roomsChanged: 'rooms:changed',
  challenge: 'challenge',
  challengeDeclined: 'challenge:declined',
  gameLost: 'game:lost',
  replaced: 'session:replaced',
  tournamentPaired: 'tournament:paired',
  tournamentDelta: 'tournament:delta',
  error: '',
  disconnect: '',
  reconnect: '',
};
/** Sent this long before the deadline, for the trip to the server. */
const DEADLINE_MARGIN_MS = 150;
const BUSY_RETRIES = 3;

export interface Agent {
  readonly name: string;
  onTurn(handler: TurnHandler): void;
  on<E extends keyof AgentEvents>(event: E, listener: (data: AgentEvents[E]) => void): () => void;
  /** The first page of the rooms of a status (all: of each). */
  listRooms(status?: 'open' | 'live' | 'finished' | 'all'): Promise<RoomSummary[]>;
  /** A page of the lobby by its filters (`{ status: 'open', open: 'agent', game }`: seats for you), its count and the next page's cursor. */
  rooms(query?: LobbyRequest): Promise<RoomsPage>;
  create(room: object): Promise<{ gameId: string; seat: { gameId: string; color: Color } | null; view: GameView }>;
  challenge(challenge: object): Promise<{ gameId: string; seat: { gameId: string; color: Color }; view: GameView }>;
  join(gameId: string, color?: Color | 'any'): Promise<{ seat: { gameId: string; color: Color }; view: GameView }>;
  watch(gameId: string): Promise<GameView>;
  move(gameId: string, ply: number, move: string): Promise<void>;
  resign(gameId: string): Promise<void>;
  offerDraw(gameId: string): Promise<void>;
  acceptDraw(gameId: string): Promise<void>;
  declineDraw(gameId: string): Promise<void>;
  declineChallenge(gameId: string): Promise<void>;
  /** Enters the ladder of a game (rated games against the ladder's field, up to `games` at once); entered again after a reconnect. */
  joinLadder(game: GameId, games?: number): Promise<void>;
  leaveLadder(game: GameId): Promise<void>;
  /** Enters a tournament (and follows it, again after a reconnect); its games come as turns. */
  joinTournament(tournamentId: string): Promise<TournamentSummary>;
  /** Withdraws: not paired again; a game under way goes on. */
  withdrawTournament(tournamentId: string): Promise<void>;
  /** The whole tournament: standings, pairings. */
  tournament(tournamentId: string): Promise<TournamentView>;
  /** Stops answering turns and disconnects, once the moves already sent have had their answers. */
  close(): Promise<void>;
}

/** Connects as the agent of `token`; rejects with an AgentError (`auth/…`) the server's refusal. */
export async function connectAgent(options: ConnectOptions): Promise<Agent> {
  const socket: Socket = io(`${options.url.replace(/\/+$/, '')}/agent`, {
    auth: { token: options.token, protocol: PROTOCOL_VERSION },
    transports: ['websocket'],
    reconnection: options.reconnect ?? true,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error: Error & { data?: { code?: string; message?: string } }) => {
      socket.close();
      reject(new AgentError(error.data?.code ?? 'transport/unreachable', error.data?.message ?? error.message));
    });
  });
  const client = new AgentClient(socket, options.timeoutMs ?? 10_000);
  const hello = await client.ask<{ agent: string }>('hello', {});
  return client.asAgent(hello.agent);
}

class AgentClient {
  private handler: TurnHandler | undefined;
  /** Turns being answered, by `gameId:ply`: a turn sent again (a reconnect) is answered once. */
  private readonly answering = new Map<string, { controller: AbortController; over: boolean }>();
  private readonly listeners = new Map<keyof AgentEvents, Set<(data: never) => void>>();
  /** Ladders entered, by game: a new connection enters them again. */
  private readonly ladders = new Map<GameId, number>();
  /** Tournaments entered: a new connection follows them again. */
  private readonly tournaments = new Set<string>();
  /** Moves sent and not yet answered: `close` waits for them, so a last move is not lost with the socket. */
  private readonly moving = new Set<Promise<unknown>>();
  private closing = false;

  constructor(
    private readonly socket: Socket,
    private readonly timeoutMs: number,
  ) {
    socket.on('turn', (turn: AgentTurn) => void this.answer(turn));
    for (const [event, wire] of Object.entries(WIRE) as [keyof AgentEvents, string][]) {
      if (wire) socket.on(wire, (data: AgentEvents[typeof event]) => this.emit(event, data));
    }
    socket.on('moved', (e: MovedEvent) => this.endTurns(e.gameId, e.ply + 1));
    socket.on('ended', (e: { gameId: string }) => this.endTurns(e.gameId, Infinity));
    socket.on('disconnect', (reason) => this.emit('disconnect', { reason } as never));
    socket.io.on('reconnect', () => {
      for (const [game, games] of this.ladders) void this.ask('ladder:join', { game, games }).catch(() => undefined);
      for (const tournamentId of this.tournaments) void this.ask('tournament:follow', { tournamentId }).catch(() => undefined);
      this.emit('reconnect', {} as never);
    });
  }

  asAgent(name: string): Agent {
    const done = async (event: string, payload: object): Promise<void> => void (await this.ask(event, payload));
    return {
      name,
      onTurn: (handler) => void (this.handler = handler),
      on: (event, listener) => {
        const set = this.listeners.get(event) ?? new Set();
        this.listeners.set(event, set);
        set.add(listener as (data: never) => void);
        return () => set.delete(listener as (data: never) => void);
      },
      listRooms: async (status = 'all') => (await this.ask<RoomsPage>('rooms:list', { status })).rooms,
      rooms: async (query = {}) => {
        const { rooms, total, next } = await this.ask<RoomsPage>('rooms:list', query);
        return { rooms, total, next };
      },
      create: (room) => this.ask('room:create', room),
      challenge: (challenge) => this.ask('challenge', challenge),
      join: (gameId, color = 'any') => this.ask('room:join', { gameId, color }),
      watch: async (gameId) => (await this.ask<{ view: GameView }>('room:watch', { gameId })).view,
      move: (gameId, ply, move) => done('move', { gameId, ply, move }),
      resign: (gameId) => done('resign', { gameId }),
      offerDraw: (gameId) => done('draw:offer', { gameId }),
      acceptDraw: (gameId) => done('draw:accept', { gameId }),
      declineDraw: (gameId) => done('draw:decline', { gameId }),
      declineChallenge: (gameId) => done('challenge:decline', { gameId }),
      joinLadder: async (game, games = 1) => {
        await done('ladder:join', { game, games });
        this.ladders.set(game, games);
      },
      leaveLadder: async (game) => {
        this.ladders.delete(game);
        await done('ladder:leave', { game });
      },
      joinTournament: async (tournamentId) => {
        const { tournament } = await this.ask<{ tournament: TournamentSummary }>('tournament:join', { tournamentId });
        this.tournaments.add(tournamentId);
        return tournament;
      },
      withdrawTournament: async (tournamentId) => {
        this.tournaments.delete(tournamentId);
        await done('tournament:withdraw', { tournamentId });
      },
      tournament: async (tournamentId) => (await this.ask<{ tournament: TournamentView }>('tournament:follow', { tournamentId })).tournament,
      close: async () => {
        this.closing = true;
        for (const turn of this.answering.values()) turn.controller.abort();
        await Promise.allSettled([...this.moving]);
        this.socket.close();
      },
    };
  }

  /** A request and its answer: `server/busy` is sent again, `rate/limited` after the time it names. */
  async ask<T>(event: string, payload: object): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      let ack: Ack<T>;
      try {
        ack = (await this.socket.timeout(this.timeoutMs).emitWithAck(event, payload)) as Ack<T>;
      } catch {
        throw new AgentError('transport/timeout', `No answer to "${event}" within ${this.timeoutMs} ms.`);
      }
      if (ack.ok) {
        const { ok: _ok, ...value } = ack as { ok: true } & T;
        return value as T;
      }
      if (!retryable(ack.error, attempt)) throw new AgentError(ack.error.code, ack.error.message);
      await sleep(ack.error.retryAfterMs ?? 50 * (attempt + 1));
    }
  }

  private async answer(turn: AgentTurn): Promise<void> {
    const key = `${turn.gameId}:${turn.ply}`;
    if (!this.handler || this.answering.has(key)) return;
    const controller = new AbortController();
    const answering = { controller, over: false };
    this.answering.set(key, answering);
    const timer = turn.deadline === null ? undefined : setTimeout(() => controller.abort(), Math.max(0, turn.deadline - Date.now() - DEADLINE_MARGIN_MS));
    try {
      const move = await this.handler(turn, controller.signal);
      // A turn whose game moved on is over; one that only reached its deadline still sends its move.
      if (move !== null && !answering.over && !this.closing) await this.sendMove(turn, move);
    } catch (error) {
      const problem = error instanceof AgentError ? error : new AgentError('agent/handler', error instanceof Error ? error.message : String(error));
      this.emit('error', { gameId: turn.gameId, ply: turn.ply, error: problem } as never);
    } finally {
      clearTimeout(timer);
      this.answering.delete(key);
    }
  }

  private async sendMove(turn: AgentTurn, move: string): Promise<void> {
    const sent = this.ask('move', { gameId: turn.gameId, ply: turn.ply, move });
    this.moving.add(sent);
    try {
      await sent;
    } finally {
      this.moving.delete(sent);
    }
  }

  /** The turns of a game before `ply` are over: their handlers are told through their signal. */
  private endTurns(gameId: string, ply: number): void {
    for (const [key, turn] of this.answering) {
      const [id, turnPly] = key.split(':');
      if (id === gameId && Number(turnPly) < ply) {
        turn.over = true;
        turn.controller.abort();
      }
    }
  }

  private emit<E extends keyof AgentEvents>(event: E, data: AgentEvents[E]): void {
    for (const listener of this.listeners.get(event) ?? []) (listener as (d: AgentEvents[E]) => void)(data);
  }
}

function retryable(error: ServerError, attempt: number): boolean {
  return attempt < BUSY_RETRIES && (error.code === 'server/busy' || error.code === 'server/unavailable' || error.code === 'rate/limited');
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
