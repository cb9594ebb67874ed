import { z } from 'zod';
import type { Color } from '../color.js';
import { GAME_IDS, type GameId } from '../rules.js';

/**
 * The admin console's table of live games. The server filters, sorts and cuts it into pages, so
 * what reaches one admin grows with the rows it shows, not with the games being played.
 */
/**
 * A cookie the server sets beside the admin console's HttpOnly session, readable by the page: it
 * says only that a session was opened in this browser (the web client shows Admin in its header).
 */
export const ADMIN_MARK_COOKIE = 'boardroom_admin_seen';

export const ADMIN_SORTS = ['started', 'ply', 'game', 'moved'] as const;
export const ADMIN_STATES = ['playing', 'away', 'thinking'] as const;
export const SEAT_KINDS = ['human', 'bot', 'agent'] as const;
/** Rows a page holds at most. */
export const ADMIN_PAGE_MAX = 100;

export const AdminQuerySchema = z
  .object({
    game: z.enum(GAME_IDS).optional(),
    /** Games with a seat of this kind. */
    kind: z.enum(SEAT_KINDS).optional(),
    /** `away`: a seat's player dropped and the game waits for a reconnect; `thinking`: a bot is to move. */
    state: z.enum(ADMIN_STATES).optional(),
    /** A game id, or part of a player's, agent's or bot's name (case ignored). */
    q: z.string().trim().max(40).optional(),
    sort: z.enum(ADMIN_SORTS).default('started'),
    dir: z.enum(['asc', 'desc']).default('asc'),
    offset: z.number().int().min(0).max(1_000_000).default(0),
    limit: z.number().int().min(1).max(ADMIN_PAGE_MAX).default(50),
  })
  .strict();
export type AdminQuery = z.infer<typeof AdminQuerySchema>;

export interface AdminSeat {
  readonly kind: (typeof SEAT_KINDS)[number];
  readonly name: string | null;
  /** False while its player is away (the game waits for a reconnect). Bots are always here. */
  readonly here: boolean;
}

export interface AdminRow {
  readonly id: string;
  readonly game: GameId;
  readonly black: AdminSeat;
  readonly white: AdminSeat;
  readonly ply: number;
  readonly toMove: Color;
  /** Each side's time left in ms when the row was made (null: no clock). */
  readonly clock: { readonly black: number | null; readonly white: number | null };
  readonly state: (typeof ADMIN_STATES)[number];
  /** A bot's search for this ply has reported. */
  readonly thinking: boolean;
  readonly rated: boolean;
  readonly createdAt: number;
  /** Epoch ms of the game's last change (its last move, mostly). */
  readonly updatedAt: number;
}

/** Figures over every live game, whatever the filter. */
export interface AdminSummary {
  readonly live: number;
  readonly byGame: Readonly<Record<GameId, number>>;
  /** By the kinds of the two seats: `human-human`, `bot-human`, `bot-bot`, `agent-bot`, … (kinds in alphabetical order) */
  readonly byKind: Readonly<Record<string, number>>;
  /** Live games waiting for a player to reconnect. */
  readonly away: number;
  /** Moves a second over every live game, measured between the last two readings. */
  readonly movesPerSecond: number;
  /** The bot queue: waiting, active, stalled, wait-p50-ms, … as the queue reports them. */
  readonly queue: Readonly<Record<string, number>>;
  /** Open connections over every server process. */
  readonly connections: number;
}

export interface AdminPage {
  readonly query: AdminQuery;
  /** Rows matching the filter, of which `rows` is the slice at `query.offset`. */
  readonly total: number;
  readonly rows: readonly AdminRow[];
  readonly summary: AdminSummary;
  /** Epoch ms of the reading the page was cut from. */
  readonly at: number;
}
