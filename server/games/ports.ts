import type { Color } from '../../shared/color.js';
import type { AgentTurn, ChallengeOffer, GameView, MovedEvent, RoomSummary, ThinkingView } from '../../shared/protocol/index.js';
import type { GameId } from '../../shared/rules.js';
import type { AnalysisJobInput, AnalysisJobResult, AnalysisProgress, BotEntry, BotJobInput, BotJobResult } from '../../bots/jobs/contract.js';

/** The bots a room can seat, by name: the one place the server asks, built once (`catalogBots`). */
export interface Bots {
  /** Every game's bots in catalog order, as `GET /api/bots` shows them. */
  readonly catalog: Readonly<Record<GameId, readonly BotEntry[]>>;
  /** The bot of `game` with exactly this name, as rooms and jobs carry it; undefined when `game` has none. */
  entry(game: GameId, name: string): BotEntry | undefined;
  /** The bot's own time for a move in ms (a room's clock may cut it shorter). */
  budgetMs(game: GameId, name: string): number;
  /** The names of `game`'s bots, in catalog order. */
  names(game: GameId): readonly string[];
  /** The bot any game calls `name` in any letter case, as the catalog spells it: a name no account or agent may take. */
  named(name: string): string | undefined;
}

/** Where the service's news goes: Socket.IO rooms in production, a recorder in tests. */
export interface Broadcaster {
  /** `origin`: the connection that made the move, whose acknowledgement carries it already. */
  moved(event: MovedEvent, origin?: string): void;
  state(view: GameView): void;
  ended(view: GameView): void;
  thinking(view: ThinkingView, toSpectators: boolean): void;
  roomChanged(summary: RoomSummary): void;
  agentTurn(agent: string, turn: AgentTurn): void;
  /** A room made for `agent` by another agent: it may take the seat (`room:join`) or decline. */
  challenge(agent: string, challenge: ChallengeOffer): void;
  challengeDeclined(agent: string, event: { gameId: string; by: string }): void;
}

/** Bot turns: BullMQ in production, local worker threads in the embedded default. */
export interface BotTurns {
  /** Asks for the move of `input.ply`; asking twice for the same game and ply is harmless. */
  request(input: BotJobInput): Promise<void>;
  /** Whether the turn's job is still owed by the platform: waiting for a worker or running. */
  pending(gameId: string, ply: number): Promise<boolean>;
  /** The answer of the turn's finished job, which may not have been played yet (its process died, or hears it later). */
  answered(gameId: string, ply: number): Promise<BotJobResult | undefined>;
  close(): Promise<void>;
}

/** Finished games' analyses: BullMQ jobs at the lowest priority, or the local thread pool's. */
export interface AnalysisJobs {
  /** Asks for the game's analysis; asking again while it is queued or running queues nothing. */
  request(input: AnalysisJobInput): Promise<void>;
  close(): Promise<void>;
}

/** What the analysis adapters call back into (every web process hears a BullMQ job's events). */
export interface AnalysisHandlers {
  onAnalysisProgress(gameId: string, progress: AnalysisProgress): Promise<void>;
  onAnalysisDone(result: AnalysisJobResult): Promise<void>;
  /** The job failed for good. */
  onAnalysisFailed(gameId: string, message: string): Promise<void>;
}

/**
 * Timers that must outlive the process that armed them (in Redis), or local ones. A game holds at
 * most one flag and one abandonment timer per seat: arming one again replaces it.
 */
export interface Timers {
  /** Fires `onFlag(gameId, ply)` at `at` (epoch ms), in place of the game's previous flag. */
  armFlag(gameId: string, ply: number, at: number): Promise<void>;
  /** Fires `onAbandon(gameId, color, awaySince)` at `at`, in place of the seat's previous timer. */
  armAbandon(gameId: string, color: Color, awaySince: number, at: number): Promise<void>;
  /** Drops the game's timers: it ended. */
  cancel(gameId: string): Promise<void>;
  close(): Promise<void>;
}
