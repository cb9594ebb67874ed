import { z } from 'zod';
import { COLORS } from '../color.js';
import { GAME_IDS } from '../rules.js';

/** Names, ids and tokens are short; a cap keeps hostile payloads cheap to refuse. */
const name = z.string().trim().min(1).max(40);
const gameId = z.string().min(1).max(64);
const token = z.string().min(16).max(128);

export const TimeControlSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  /** The seeds' style: every move within `moveMs`. */
  z.object({ kind: z.literal('per-move'), moveMs: z.number().int().min(1000).max(3_600_000) }),
  /** A bank per side, topped up by `incrementMs` after each move. */
  z.object({
    kind: z.literal('bank'),
    initialMs: z.number().int().min(1000).max(6 * 3_600_000),
    incrementMs: z.number().int().min(0).max(600_000),
  }),
]);
export type TimeControl = z.infer<typeof TimeControlSchema>;

export const SeatSpecSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('human') }),
  z.object({ kind: z.literal('bot'), bot: z.string().min(1).max(40) }),
  /** An outside agent; `agent` names the one allowed to sit, or any agent when absent. */
  z.object({ kind: z.literal('agent'), agent: name.optional() }),
]);
export type SeatSpec = z.infer<typeof SeatSpecSchema>;

export const CreateRoomSchema = z.object({
  game: z.enum(GAME_IDS),
  options: z.object({ exactFive: z.boolean().optional() }).strict().default({}),
  timeControl: TimeControlSchema.default({ kind: 'per-move', moveMs: 30_000 }),
  /** The seat of each colour. The creator, if human, sits in one of the human seats. */
  seats: z.object({ black: SeatSpecSchema, white: SeatSpecSchema }),
  /** Sit down at once: the colour to take (`random` picks one of the human seats). */
  sit: z.object({ name, color: z.enum([...COLORS, 'random']) }).optional(),
  /**
   * Let spectators see what the bots are thinking. By default on, but off in a rated game: a
   * spectator could pass a bot's plans on to its opponent.
   */
  showThinking: z.boolean().optional(),
  /** A rated game changes both players' ratings when it ends; each seat needs an identity (an account, an agent, a bot). */
  rated: z.boolean().default(false),
});
export type CreateRoom = z.infer<typeof CreateRoomSchema>;

export const JoinSchema = z.object({ gameId, name, color: z.enum([...COLORS, 'any']).default('any') });
export const WatchSchema = z.object({ gameId });
export const SeatActionSchema = z.object({ gameId, token });
export const MoveSchema = z.object({ gameId, token, ply: z.number().int().min(0).max(100_000), move: z.string().min(1).max(16) });

/** Agents: the seat comes from the agent's identity, so a move names no token. */
export const AgentMoveSchema = z.object({ gameId, ply: z.number().int().min(0).max(100_000), move: z.string().min(1).max(16) });
export const AgentJoinSchema = z.object({ gameId, color: z.enum([...COLORS, 'any']).default('any') });
/** Resign and draws: the agent's seat in the game is found from its identity. */
export const AgentSeatActionSchema = z.object({ gameId });
/** An agent's challenge: a room with the agent in one seat and the opponent it names in the other. */
export const ChallengeSchema = z.object({
  game: z.enum(GAME_IDS),
  options: z.object({ exactFive: z.boolean().optional() }).strict().default({}),
  timeControl: TimeControlSchema.default({ kind: 'per-move', moveMs: 30_000 }),
  /** The challenger's colour. */
  color: z.enum([...COLORS, 'random']).default('random'),
  opponent: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('bot'), bot: z.string().min(1).max(40) }),
    z.object({ kind: z.literal('agent'), agent: name }),
    /** A seat any person may take from the lobby. */
    z.object({ kind: z.literal('open') }),
  ]),
  showThinking: z.boolean().default(true),
});
export type Challenge = z.infer<typeof ChallengeSchema>;

/** A room made by an agent; `sit` takes an agent seat in it for the agent at once. */
export const AgentCreateRoomSchema = CreateRoomSchema.omit({ sit: true }).extend({ sit: z.object({ color: z.enum([...COLORS, 'any']) }).optional() });

export const AdminEndSchema = z.object({
  gameId,
  winner: z.enum([...COLORS, 'draw']),
  reason: z.string().trim().min(1).max(80).default('adjudicated'),
});

export type Join = z.infer<typeof JoinSchema>;
export type Move = z.infer<typeof MoveSchema>;
export type AgentMove = z.infer<typeof AgentMoveSchema>;
