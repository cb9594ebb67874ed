import { z } from 'zod';
import { GAME_IDS, type GameId } from '../rules.js';
import { TimeControlSchema, type TimeControl } from './schemas.js';

export const TOURNAMENT_FORMATS = ['swiss', 'round-robin', 'arena'] as const;
export type TournamentFormat = (typeof TOURNAMENT_FORMATS)[number];
export const TOURNAMENT_STATUSES = ['upcoming', 'running', 'finished'] as const;
export type TournamentStatus = (typeof TOURNAMENT_STATUSES)[number];

const tournamentId = z.string().min(1).max(64);

/** A new tournament. `rounds`: Swiss rounds, or round-robin cycles (1 single, 2 double); `minutes`: an arena's length. */
export const CreateTournamentSchema = z
  .object({
    name: z.string().trim().min(1).max(60),
    game: z.enum(GAME_IDS),
    format: z.enum(TOURNAMENT_FORMATS),
    rounds: z.number().int().min(1).max(30).default(5),
    /** An arena's length; fractions allowed so tests and demos can run short ones. */
    minutes: z.number().min(0.05).max(24 * 60).default(60),
    timeControl: TimeControlSchema.default({ kind: 'per-move', moveMs: 10_000 }),
    rated: z.boolean().default(true),
    /** Epoch ms; none: the creator starts it (`tournament:start`). */
    startsAt: z.number().int().positive().optional(),
    maxEntrants: z.number().int().min(2).max(1000).default(64),
    minRating: z.number().int().min(0).max(4000).optional(),
    /** Roster bots entered by the creator. */
    bots: z.array(z.string().min(1).max(40)).max(64).default([]),
  })
  .strict();
export type CreateTournament = z.infer<typeof CreateTournamentSchema>;

export const TournamentIdSchema = z.object({ tournamentId });
/** The creator or the admin enters roster bots after creation. */
export const TournamentBotsSchema = z.object({ tournamentId, bots: z.array(z.string().min(1).max(40)).min(1).max(64) });
export const TournamentListSchema = z.object({ status: z.enum(['upcoming', 'running', 'finished', 'all']).default('all') });

export type EntrantKind = 'person' | 'bot' | 'agent';

/** A game of the tournament: `black`/`white` are entrant ids; a bye has `white` null and no game. */
export interface PairingView {
  readonly round: number;
  readonly table: number;
  readonly black: string;
  readonly white: string | null;
  readonly gameId: string | null;
  /** Null while the game is played. */
  readonly winner: 'black' | 'white' | 'draw' | null;
  readonly reason: string | null;
}

export interface StandingRow {
  readonly rank: number;
  readonly id: string;
  readonly name: string;
  readonly kind: EntrantKind;
  readonly rating: number;
  /** Swiss and round robin: 1 a win, ½ a draw, 1 a bye. Arena: 2 a win, 1 a draw, doubled on a streak. */
  readonly points: number;
  readonly games: number;
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
  readonly buchholz: number;
  readonly sonnebornBerger: number;
  /** Average opponent rating + 400 × (wins − losses) / games; null before a game. */
  readonly performance: number | null;
  readonly withdrawn: boolean;
  /** Arena: wins in a row now (two or more doubles the next). */
  readonly streak: number;
}

export interface TournamentSummary {
  readonly id: string;
  readonly name: string;
  readonly game: GameId;
  readonly format: TournamentFormat;
  readonly status: TournamentStatus;
  readonly rounds: number;
  readonly round: number;
  readonly entrants: number;
  readonly timeControl: TimeControl;
  readonly rated: boolean;
  readonly startsAt: number | null;
  readonly endsAt: number | null;
  readonly maxEntrants: number;
  readonly minRating: number | null;
  readonly createdBy: string;
}

export interface TournamentView extends TournamentSummary {
  readonly standings: readonly StandingRow[];
  readonly pairings: readonly PairingView[];
  readonly version: number;
}

/** What changed with one write: the rows that moved and the pairings that are new or ended (not whole tables). */
export interface TournamentDelta {
  readonly id: string;
  readonly version: number;
  readonly status: TournamentStatus;
  readonly round: number;
  readonly standings: readonly StandingRow[];
  readonly pairings: readonly PairingView[];
}

/** Told to a paired entrant: its game and colour (a person takes the seat with `tournament:seat`). */
export interface TournamentPaired {
  readonly tournamentId: string;
  readonly round: number;
  readonly gameId: string;
  readonly color: 'black' | 'white';
  readonly opponent: string | null;
}
