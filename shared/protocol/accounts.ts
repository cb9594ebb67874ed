import { z } from 'zod';
import { GAME_IDS } from '../rules.js';
import { TimeControlSchema } from './schemas.js';

/** Account names: what a profile's address and a leaderboard show. */
export const AccountNameSchema = z.string().trim().regex(/^[A-Za-z0-9_-]{2,24}$/, 'a name is 2 to 24 letters, digits, "-" or "_"');
export const CredentialsSchema = z.object({
  name: AccountNameSchema,
  password: z.string().min(8, 'a password has at least 8 characters').max(200),
});
export type Credentials = z.infer<typeof CredentialsSchema>;

/** Quick pairing: the server pairs the nearest ratings among those waiting for the same game and clock. */
export const SeekSchema = z.object({
  game: z.enum(GAME_IDS),
  options: z.object({ exactFive: z.boolean().optional() }).strict().default({}),
  timeControl: TimeControlSchema.default({ kind: 'per-move', moveMs: 30_000 }),
  rated: z.boolean().default(true),
  /** The name a guest plays under (a signed-in player plays under the account's). */
  name: z.string().trim().min(1).max(40).optional(),
});
export type SeekRequest = z.infer<typeof SeekSchema>;
export const SeekIdSchema = z.object({ seekId: z.string().min(1).max(64) });

/** An agent enters the ladder of a game: it is paired in rated games, up to `games` at once. */
export const LadderJoinSchema = z.object({ game: z.enum(GAME_IDS), games: z.number().int().min(1).max(16).default(1) });
export const LadderLeaveSchema = z.object({ game: z.enum(GAME_IDS) });

/** The admin's ladder of a game: the roster bots on it and how many ladder games run at once. */
export const LadderConfigSchema = z.object({
  game: z.enum(GAME_IDS),
  bots: z.array(z.string().min(1).max(40)).max(32),
  concurrent: z.number().int().min(0).max(64).default(2),
});

export interface RatingView {
  readonly rank: number;
  readonly name: string;
  readonly kind: 'person' | 'agent' | 'bot';
  readonly rating: number;
  readonly rd: number;
  /** The rating deviation is above 110: the rating is still settling. */
  readonly provisional: boolean;
  readonly games: number;
  readonly wins: number;
  readonly draws: number;
  readonly losses: number;
}

