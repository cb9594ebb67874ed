import type { TournamentStatus } from '../../../shared/protocol/index.js';
import type { Tournament } from '../model.js';
import type { TournamentStore } from './tournament-store.js';

/** The embedded mode's tournaments; documents are copied in and out, as Redis would. */
export class MemoryTournaments implements TournamentStore {
  private readonly docs = new Map<string, string>();

  async create(tournament: Tournament): Promise<boolean> {
    if (this.docs.has(tournament.id)) return false;
    this.docs.set(tournament.id, JSON.stringify(tournament));
    return true;
  }

  async get(id: string): Promise<Tournament | undefined> {
    const doc = this.docs.get(id);
    return doc === undefined ? undefined : (JSON.parse(doc) as Tournament);
  }

  async update(next: Tournament): Promise<boolean> {
    // Read and written in one turn of the event loop: nothing runs between.
    const doc = this.docs.get(next.id);
    if (doc === undefined || (JSON.parse(doc) as Tournament).version !== next.version - 1) return false;
    this.docs.set(next.id, JSON.stringify(next));
    return true;
  }

  async ids(status: TournamentStatus, limit: number): Promise<string[]> {
    const all = [...this.docs.values()].map((doc) => JSON.parse(doc) as Tournament).filter((t) => t.status === status);
    return all.sort((a, b) => b.createdAt - a.createdAt).slice(0, limit).map((t) => t.id);
  }
}
