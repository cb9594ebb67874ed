import type { Color } from '../color.js';
import type { AnalysisStatus } from './analysis.js';
import type { Ack } from './errors.js';
import type { AdminPage } from './admin.js';
import type { RoomsPage } from './lobby.js';
import type { GameId } from '../rules.js';
import type { GameResult, GameView, MovedEvent, RoomSummary, ThinkingView } from './views.js';
import type { TournamentDelta, TournamentPaired, TournamentSummary, TournamentView } from './tournaments.js';

type Callback<T> = (ack: Ack<T>) => void;
type Done = Callback<Record<string, never>>;
/** The value a request's acknowledgement carries when it succeeds (`{ ok: true, …value }`). */
export type AckValue<F> = F extends (payload: unknown, ack: (ack: Ack<infer T>) => void) => void ? T : never;

/**
 * The protocol's version. A client may send it in the handshake (`auth: { protocol }`); the
 * server refuses another with `protocol/unsupported`. Version 2 sends moves as `MovedEvent` deltas.
 */
export const PROTOCOL_VERSION = 2;
export type SeatGrant = { readonly gameId: string; readonly color: Color; readonly token: string };

/** The default namespace: players and spectators. Every request is acknowledged. */
export interface ClientToServerEvents {
  'rooms:list': (payload: unknown, ack: Callback<RoomsPage>) => void;
  'room:create': (payload: unknown, ack: Callback<{ gameId: string; seat: SeatGrant | null; view: GameView }>) => void;
  'room:join': (payload: unknown, ack: Callback<{ seat: SeatGrant; view: GameView }>) => void;
  'room:watch': (payload: unknown, ack: Callback<{ view: GameView }>) => void;
  /** Stops the game's events on this connection; a seat it holds is kept. */
  'room:unwatch': (payload: unknown, ack: Callback<Record<string, never>>) => void;
  'room:resume': (payload: unknown, ack: Callback<{ seat: SeatGrant; view: GameView }>) => void;
  /** The whole view again, for a client that missed an event (a gap in `ply`); joins nothing. */
  'room:sync': (payload: unknown, ack: Callback<{ view: GameView }>) => void;
  'room:leave': (payload: unknown, ack: Callback<Record<string, never>>) => void;
  /** Answered with the same delta the room hears. */
  move: (payload: unknown, ack: Callback<{ ply: number; moved: MovedEvent }>) => void;
  resign: (payload: unknown, ack: Callback<Record<string, never>>) => void;
  'draw:offer': (payload: unknown, ack: Callback<Record<string, never>>) => void;
  'draw:accept': (payload: unknown, ack: Callback<Record<string, never>>) => void;
  'draw:decline': (payload: unknown, ack: Callback<Record<string, never>>) => void;
  rematch: (payload: unknown, ack: Callback<{ gameId: string; seat: SeatGrant }>) => void;
  /** Quick pairing: wait for an opponent of about one's rating; `seek:paired` brings the seat. */
  seek: (payload: unknown, ack: Callback<{ seekId: string; rating: number }>) => void;
  'seek:cancel': (payload: unknown, ack: Callback<Record<string, never>>) => void;
  /** Stop waiting and play the roster bot nearest one's rating. */
  'seek:bot': (payload: unknown, ack: Callback<SeekPaired>) => void;
  /**
   * Analyse a finished game (`{ gameId }`), or read its analysis: answered with where it stands;
   * this connection then hears `analysis` events for it until the analysis is done or failed.
   */
  'analysis:request': (payload: unknown, ack: Callback<{ status: AnalysisStatus }>) => void;
  /** Tournaments by status (`{ status }`); this connection then hears `tournaments:changed`. */
  'tournaments:list': (payload: unknown, ack: Callback<{ tournaments: TournamentSummary[] }>) => void;
  /** A new tournament (`CreateTournament`), by a signed-in account. */
  'tournament:create': (payload: unknown, ack: Callback<{ tournament: TournamentView }>) => void;
  /** The whole tournament (`{ tournamentId }`); this connection then hears its `tournament:delta`s and, signed in, its own `tournament:paired`. */
  'tournament:follow': (payload: unknown, ack: Callback<{ tournament: TournamentView }>) => void;
  'tournament:unfollow': (payload: unknown, ack: Done) => void;
  /** The signed-in account enters (`{ tournamentId }`). */
  'tournament:join': (payload: unknown, ack: Callback<{ tournament: TournamentSummary }>) => void;
  /** The signed-in account withdraws: it is not paired again; a game under way goes on. */
  'tournament:withdraw': (payload: unknown, ack: Done) => void;
  /** The creator starts it now (`{ tournamentId }`). */
  'tournament:start': (payload: unknown, ack: Done) => void;
  /** The creator enters roster bots (`{ tournamentId, bots }`). */
  'tournament:bots': (payload: unknown, ack: Callback<{ tournament: TournamentSummary }>) => void;
  /** The signed-in account's seat in its game under way (`{ tournamentId }`), with a fresh token for `room:resume`. */
  'tournament:seat': (payload: unknown, ack: Callback<{ seat: SeatGrant; view: GameView }>) => void;
}

/** A seek's game: its room, the seeker's seat (resume it with `room:resume`), and the view. */
export interface SeekPaired {
  readonly seekId: string;
  readonly gameId: string;
  readonly seat: SeatGrant;
  readonly view: GameView;
}

export interface SpectatorsEvent {
  readonly gameId: string;
  readonly count: number;
}

/** Sent to players and spectators (the default namespace). */
export interface ServerToClientEvents {
  /** The whole game, whenever seats, clocks or status change outside a move. */
  state: (view: GameView) => void;
  /** How many connections watch the game holding no seat; to the game's room, within half a second of a change. */
  spectators: (event: SpectatorsEvent) => void;
  moved: (event: MovedEvent) => void;
  ended: (event: GameEnded) => void;
  thinking: (view: ThinkingView) => void;
  'rooms:changed': (summary: RoomSummary) => void;
  /** A seek of this connection was paired. */
  'seek:paired': (event: SeekPaired) => void;
  /** The game is gone from the server's store (a store that came back empty): it cannot go on. */
  'game:lost': (event: GameLost) => void;
  /**
   * The account this connection was signed in as is no longer its own (signed out, run out, or the
   * store came back empty): from now it is a guest's. Seats it holds keep their tokens.
   */
  'session:ended': (event: SessionEnded) => void;
  /** A requested analysis moved on (`pending` with progress), finished (`done`) or `failed`. */
  analysis: (status: AnalysisStatus) => void;
  /** A tournament's status or entry count changed (to connections that listed tournaments). */
  'tournaments:changed': (summary: TournamentSummary) => void;
  /** What one write of a followed tournament changed: standings rows and pairings, not whole tables. */
  'tournament:delta': (delta: TournamentDelta) => void;
  /** This account (or agent) was paired in a tournament. */
  'tournament:paired': (paired: TournamentPaired) => void;
}

export interface GameEnded {
  readonly gameId: string;
  readonly result: GameResult;
  readonly view: GameView;
}

/** A seat as an agent holds it: no token, since the agent's own token moves for it. */
export type AgentSeat = Omit<SeatGrant, 'token'>;

/** The agent namespace (`/agent`): requests of outside bots. Every request is acknowledged. */
export interface AgentClientToServerEvents {
  hello: (payload: unknown, ack: Callback<{ agent: string }>) => void;
  'rooms:list': ClientToServerEvents['rooms:list'];
  'room:create': (payload: unknown, ack: Callback<{ gameId: string; seat: AgentSeat | null; view: GameView }>) => void;
  'room:join': (payload: unknown, ack: Callback<{ seat: AgentSeat; view: GameView }>) => void;
  'room:watch': ClientToServerEvents['room:watch'];
  'room:sync': ClientToServerEvents['room:sync'];
  /** A room with a seat reserved for another agent, which hears `challenge`. */
  challenge: (payload: unknown, ack: Callback<{ gameId: string; seat: AgentSeat; view: GameView }>) => void;
  'challenge:decline': (payload: unknown, ack: Done) => void;
  move: ClientToServerEvents['move'];
  'ladder:join': (payload: unknown, ack: Callback<{ game: GameId; games: number }>) => void;
  'ladder:leave': (payload: unknown, ack: Done) => void;
  'tournaments:list': ClientToServerEvents['tournaments:list'];
  'tournament:follow': ClientToServerEvents['tournament:follow'];
  /** The agent enters (`{ tournamentId }`): it hears `tournament:paired` and plays its games as `turn`s. */
  'tournament:join': ClientToServerEvents['tournament:join'];
  'tournament:withdraw': ClientToServerEvents['tournament:withdraw'];
  resign: (payload: unknown, ack: Done) => void;
  'draw:offer': (payload: unknown, ack: Done) => void;
  'draw:accept': (payload: unknown, ack: Done) => void;
  'draw:decline': (payload: unknown, ack: Done) => void;
}

/** Sent to agents (`/agent`). */
export interface AgentServerToClientEvents {
  state: ServerToClientEvents['state'];
  moved: ServerToClientEvents['moved'];
  ended: ServerToClientEvents['ended'];
  'rooms:changed': ServerToClientEvents['rooms:changed'];
  'game:lost': ServerToClientEvents['game:lost'];
  /** The agent's turn: answer with `move`. */
  turn: (turn: AgentTurn) => void;
  /** Another connection with this agent's token took over. */
  'session:replaced': (event: { message: string }) => void;
  /** Another agent made a room with a seat reserved for this one. */
  challenge: (offer: ChallengeOffer) => void;
  /** The agent this one challenged declined. */
  'challenge:declined': (event: { gameId: string; by: string }) => void;
  'tournament:delta': ServerToClientEvents['tournament:delta'];
  'tournament:paired': ServerToClientEvents['tournament:paired'];
}

/** The admin namespace (`/admin`). Every request is acknowledged. */
export interface AdminClientToServerEvents {
  /** Follow a page of the live-games table (`AdminQuery`); `admin:page` brings it again when it changes. */
  'admin:list': (payload: unknown, ack: Callback<{ page: AdminPage }>) => void;
  'admin:unlist': (payload: unknown, ack: Done) => void;
  /** Follow one game's moves and thinking (`{ gameId }`). */
  'admin:open': (payload: unknown, ack: Callback<{ view: GameView; thinking: ThinkingView | null }>) => void;
  'admin:close': (payload: unknown, ack: Done) => void;
  'admin:end': (payload: unknown, ack: Callback<{ view: GameView }>) => void;
  'admin:queue': (payload: unknown, ack: Callback<{ queue: Record<string, number> }>) => void;
}

/** Sent to admins (`/admin`): the followed page, and the opened games' events. */
export interface AdminServerToClientEvents {
  'admin:page': (page: AdminPage) => void;
  state: ServerToClientEvents['state'];
  moved: ServerToClientEvents['moved'];
  ended: ServerToClientEvents['ended'];
  thinking: ServerToClientEvents['thinking'];
  /** The store came back empty: games, accounts, sessions and ratings are gone. */
  'store:emptied': (event: StoreEmptied) => void;
}

export interface ChallengeOffer {
  readonly gameId: string;
  /** The challenging agent. */
  readonly from: string;
  readonly game: GameView['game'];
  readonly options: GameView['options'];
  readonly timeControl: RoomSummary['timeControl'];
  /** The colour offered to the challenged agent. */
  readonly color: Color;
}

export interface GameLost {
  readonly gameId: string;
  readonly code: 'game/lost';
  readonly message: string;
}

export interface SessionEnded {
  readonly code: 'session/ended' | 'session/lost';
  readonly message: string;
}

export interface StoreEmptied {
  readonly code: 'store/emptied';
  readonly message: string;
  /** When the server process found the store empty (ms since the epoch). */
  readonly at: number;
}

export interface AgentTurn {
  readonly gameId: string;
  readonly ply: number;
  readonly color: Color;
  readonly game: GameView['game'];
  readonly position: string;
  readonly moves: readonly string[];
  readonly legal: readonly string[];
  readonly clock: GameView['clock'];
  /** Epoch ms by which the move must arrive, or null without a clock. */
  readonly deadline: number | null;
}
