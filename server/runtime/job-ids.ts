import type { Color } from '../../shared/color.js';

/*
 * The ids of the jobs Boardroom queues (BullMQ's, and the local adapters' keys), written here
 * and read back only here. An id names its job, so asking twice queues it once. BullMQ refuses
 * custom ids with ':' unless they split in three, so '-' separates. Game ids are base64url and
 * may hold '-' themselves: a parser reads from the end.
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

/** A flag: the time is in the id, so a flag moved later (a bot seat whose job the platform still owes) is a new timer. Never parsed: the job carries its data. */
export const flagJobId = (gameId: string, ply: number, at: number): string => `${gameId}-${ply}-${at}-flag`;
/** An abandonment timer, one per absence. Never parsed. */
export const abandonJobId = (gameId: string, color: Color, awaySince: number): string => `${gameId}-${color}-${awaySince}-away`;
