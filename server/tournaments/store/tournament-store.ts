import type { TournamentStatus } from '../../../shared/protocol/index.js';
import type { Tournament } from '../model.js';

/**
 * Tournaments beside the games: one document each, written whole and only over the version it
 * was read at, so two processes that decide the same round cannot both write it. Memory in the
 * embedded mode, Redis otherwise; one contract suite (tournament-store.contract.ts).
 */
export interface TournamentStore {
  /** False (nothing written) when the id is taken. */
  create(tournament: Tournament): Promise<boolean>;
  get(id: string): Promise<Tournament | undefined>;
  /** Writes `next` only while the stored version is `next.version - 1`: false (nothing written) otherwise. */
  update(next: Tournament): Promise<boolean>;
  /** The ids of the tournaments in a status, the newest first, at most `limit`. */
  ids(status: TournamentStatus, limit: number): Promise<string[]>;
}
