import type { Color } from '../../shared/color.js';

/*
 * The ids of the jobs Boardroom queues (BullMQ's, and the local adapters' keys) and of its
 * timers, written here and read back only here. An id names its job, so asking twice queues it
 * once. BullMQ refuses custom ids with ':' unless they split in three, so a job's id separates
 * with '-'. Game ids are base64url and may hold '-' themselves: a parser reads from the end.
 */

/** A bot turn: `gameId-ply`. */
export const botJobId = (gameId: string, ply: number): string => `${gameId}-${ply}`;
const BOT_JOB_ID = /^(.+)-(0|[1-9]\d*)$/;
/** The game and ply of a bot turn's job; undefined for any other job of the queue (an analysis). */
export function parseBotJobId(jobId: string): { gameId: string; ply: number } | undefined {
  const match = BOT_JOB_ID.exec(jobId);
  return match ? { gameId: match[1]!, ply: Number(match[2]) } : undefined;
}

const ANALYSIS = '-analysis';
/** A finished game's analysis: one per game, so it cannot be queued twice; never read as a bot turn (no ply). */
export const analysisJobId = (gameId: string): string => `${gameId}${ANALYSIS}`;
export function parseAnalysisJobId(jobId: string): string | undefined {
  return jobId.endsWith(ANALYSIS) && jobId.length > ANALYSIS.length ? jobId.slice(0, -ANALYSIS.length) : undefined;
}

/*
 * Timers are named by what they time, not by when: arming a game's flag again replaces its
 * previous one, so a game holds at most one flag and one abandonment timer per seat.
 */

/** A game's flag (whichever ply it is for). */
export const flagTimerId = (gameId: string): string => `flag:${gameId}`;
/** A seat's abandonment timer (whichever absence it is for). */
export const abandonTimerId = (gameId: string, color: Color): string => `abandon:${gameId}:${color}`;
/** Every timer a game may hold. */
export const gameTimerIds = (gameId: string): string[] => [flagTimerId(gameId), abandonTimerId(gameId, 'black'), abandonTimerId(gameId, 'white')];
