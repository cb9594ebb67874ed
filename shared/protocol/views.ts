import type { Color } from '../color.js';
import type { GameId, GameOptions } from '../rules.js';
import type { TimeControl } from './schemas.js';

export const GAME_STATUSES = ['waiting', 'live', 'finished'] as const;
export type GameStatus = (typeof GAME_STATUSES)[number];

/** Why a game ended: the rules' reasons and the server's own. */
export const RESULT_REASONS = [
  'no-moves',
  'board-full',
  'five',
  'king-capture',
  'step-limit',
  'resignation',
  'timeout',
  'abandonment',
  'agreement',
  'adjudication',
  'declined', // a challenge turned down before the game began: no result
  'expired', // a room nobody came to play in, closed after the server's idle time: no result
  'aborted', // a side made no first move in time, or left before both had moved: no result
] as const;
export type ResultReason = (typeof RESULT_REASONS)[number];

export interface GameResult {
  /** null is a draw. */
  readonly winner: Color | null;
  readonly reason: ResultReason;
  /** For adjudication, the admin's words. */
  readonly note?: string;
}

export interface SeatView {
  readonly color: Color;
  readonly kind: 'human' | 'bot' | 'agent';
  /** The player's name, the bot's name, or the agent's name; null while the seat is open. */
  readonly name: string | null;
  readonly connected: boolean;
  /** The kind of player whose profile and rating the name leads to (`/api/players/:name`); null for a guest or an open seat. */
  readonly identity: 'person' | 'agent' | 'bot' | null;
}

/** A rated game's effect on one seat's rating (Glicko-2). */
export interface RatingChangeView {
  readonly before: number;
  readonly after: number;
  /** The rating deviation after the game; above 110 the rating is provisional. */
  readonly rd: number;
}

export interface ClockView {
  readonly control: TimeControl;
  /** Time left for each side in ms at `at` (for per-move control: of the current move). */
  readonly black: number | null;
  readonly white: number | null;
  /** Whose clock runs, if any. */
  readonly running: Color | null;
  /** Server time (epoch ms) of this reading: a client subtracts what has passed since. */
  readonly at: number;
}

/** Everything a player or spectator needs to show a game; sent on join, resume and watch. */
export interface GameView {
  readonly id: string;
  readonly game: GameId;
  readonly options: GameOptions;
  readonly status: GameStatus;
  readonly seats: { readonly black: SeatView; readonly white: SeatView };
  /** The start position's text, then every move: a client can replay any ply. */
  readonly start: string;
  readonly moves: readonly string[];
  /**
   * The clock history: for each move of `moves`, the ms its mover spent on it (from its turn's
   * start to the move, as the clock charged it); null where unknown (games from before times were
   * kept). `clockAfterMoves` gives the clock left after each.
   */
  readonly moveMs: readonly (number | null)[];
  /** The current position's text, the side to move and its legal moves. */
  readonly position: string;
  readonly toMove: Color;
  readonly ply: number;
  readonly legal: readonly string[];
  readonly clock: ClockView;
  readonly result: GameResult | null;
  readonly drawOffer: Color | null;
  readonly showThinking: boolean;
  readonly createdAt: number;
  readonly rematch: string | null;
  readonly rated: boolean;
  /** Set when a rated game has ended. */
  readonly ratingChange: { readonly black: RatingChangeView; readonly white: RatingChangeView } | null;
}

export interface RoomSummary {
  readonly id: string;
  readonly game: GameId;
  readonly status: GameStatus;
  readonly seats: { readonly black: SeatView; readonly white: SeatView };
  readonly ply: number;
  readonly timeControl: TimeControl;
  readonly createdAt: number;
  readonly result: GameResult | null;
  readonly rated: boolean;
}

/** What a bot is thinking, after each finished depth (moves in the game's notation). */
export interface Thinking {
  readonly depth: number;
  readonly score: number;
  readonly pv: readonly string[];
  readonly nodes: number;
  readonly nps: number;
  readonly ms: number;
}

/** A bot's thinking in a game (admins always; spectators when the room shows it). */
export interface ThinkingView extends Thinking {
  readonly gameId: string;
  readonly ply: number;
  readonly color: Color;
  readonly bot: string;
}

/**
 * One move, as everyone in the game's room hears it: what changed, nothing that grows with the
 * game. A client applies it to its view with the rules (`applyMoved`); one that finds a gap in
 * `ply` asks for the whole view again (`room:sync`).
 */
export interface MovedEvent {
  readonly gameId: string;
  /** The ply the move was played at (0 for the first move). */
  readonly ply: number;
  readonly move: string;
  /** The ms the mover spent on it (the view's `moveMs` gains it); null when unknown. */
  readonly spentMs: number | null;
  readonly color: Color;
  /** The clocks after the move (the time control is the view's). */
  readonly clock: Omit<ClockView, 'control'>;
  readonly status: GameStatus;
  /** Set when the move ended the game; `ended` follows with the whole view. */
  readonly result: GameResult | null;
  readonly drawOffer: Color | null;
}
