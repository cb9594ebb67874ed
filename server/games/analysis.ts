import type { AnalysisJobInput, AnalysisJobResult, AnalysisProgress } from '../../bots/jobs/contract.js';
import { WatchSchema, type AnalysisStatus } from '../../shared/protocol/index.js';
import type { GameStore, StoredAnalysis, StoredGame } from '../store/store.js';
import type { AnalysisHandlers, AnalysisJobs } from './ports.js';
import { accept, parse, refuse, type ServerResult } from '../refuse.js';

export interface AnalysisDeps {
  readonly store: GameStore;
  readonly jobs: AnalysisJobs;
  /** Where an analysis's progress, end or failure goes: the connections of this process that asked. */
  readonly notify: (status: AnalysisStatus) => void;
  /** The engine's time for each position, in ms. */
  readonly plyBudgetMs: number;
  /** Whether an owner may ask for this much bot thinking now (charged when so): the quotas' `mayThink`. */
  readonly mayThink?: (owner: string | null, ms: number) => Promise<ServerResult<Record<string, never>>>;
  readonly now?: () => number;
}

/** Progress remembered for this many games at most (each is forgotten when its analysis ends). */
const PROGRESS_KEPT = 1000;

/**
 * Post-game analysis, as Lichess's fishnet does it: a finished game is analysed once by the bot
 * workers, and the store caches the result. The store's claim decides who queues the job, and
 * asking while it is pending asks the job queue again, which queues nothing new (one job id per
 * game) but revives a job lost with its process.
 */
export class AnalysisService implements AnalysisHandlers {
  /** The latest progress of each running analysis this process heard of. */
  private readonly progress = new Map<string, AnalysisProgress>();
  private readonly now: () => number;

  constructor(private readonly deps: AnalysisDeps) {
    this.now = deps.now ?? Date.now;
  }

  /**
   * Asks for a finished game's analysis: where it stands, the job queued when it was never asked.
   * A new analysis is charged to `owner`'s bot seconds (each position's search, and as much again
   * for the moves compared with the engine's); a cached or pending one costs nothing.
   */
  async request(payload: unknown, owner: string | null = null): Promise<ServerResult<{ status: AnalysisStatus }>> {
    const found = await this.finishedGame(payload);
    if (!found.ok) return found;
    const game = found.value;
    const stored = await this.deps.store.analysis(game.id);
    if (stored?.state === 'done') return accept({ status: this.statusOf(game, stored) });
    if (!stored) {
      const allowed = (await this.deps.mayThink?.(owner, 2 * (game.moves.length + 1) * this.deps.plyBudgetMs)) ?? accept({});
      if (!allowed.ok) return allowed;
      const claim = await this.deps.store.claimAnalysis(game.id, this.now());
      if (!claim.claimed && claim.existing.state === 'done') return accept({ status: this.statusOf(game, claim.existing) });
    }
    await this.deps.jobs.request(this.jobInput(game));
    return accept({ status: this.statusOf(game, { state: 'pending', requestedAt: this.now() }) });
  }

  /** Where a finished game's analysis stands (`none` when never asked); queues nothing. */
  async status(payload: unknown): Promise<ServerResult<{ status: AnalysisStatus }>> {
    const found = await this.finishedGame(payload);
    if (!found.ok) return found;
    return accept({ status: this.statusOf(found.value, await this.deps.store.analysis(found.value.id)) });
  }

  async onAnalysisProgress(gameId: string, progress: AnalysisProgress): Promise<void> {
    this.progress.delete(gameId);
    this.progress.set(gameId, progress);
    if (this.progress.size > PROGRESS_KEPT) this.progress.delete(this.progress.keys().next().value!);
    this.deps.notify({ gameId, state: 'pending', done: progress.done, total: progress.total });
  }

  async onAnalysisDone(result: AnalysisJobResult): Promise<void> {
    this.progress.delete(result.gameId);
    // Every web process hears a BullMQ job's end and writes the same record: harmless.
    if (await this.deps.store.putAnalysis(result.gameId, result)) this.deps.notify({ gameId: result.gameId, state: 'done', analysis: result });
  }

  async onAnalysisFailed(gameId: string, message: string): Promise<void> {
    this.progress.delete(gameId);
    await this.deps.store.dropPendingAnalysis(gameId);
    this.deps.notify({ gameId, state: 'failed', message: `The analysis failed (${message}); ask again to retry.` });
  }

  private async finishedGame(payload: unknown): Promise<ServerResult<StoredGame>> {
    const request = parse(WatchSchema, payload);
    if (!request.ok) return request;
    const game = await this.deps.store.get(request.value.gameId);
    if (!game) return refuse('room/not_found', `There is no game "${request.value.gameId}".`);
    if (game.status !== 'finished') return refuse('analysis/not_finished', 'Only a finished game can be analysed; this one has not ended.');
    return accept(game);
  }

  private statusOf(game: StoredGame, stored: StoredAnalysis | undefined): AnalysisStatus {
    if (!stored) return { gameId: game.id, state: 'none' };
    if (stored.state === 'done') return { gameId: game.id, state: 'done', analysis: stored.analysis };
    const total = game.moves.length + 1;
    return { gameId: game.id, state: 'pending', done: this.progress.get(game.id)?.done ?? 0, total };
  }

  private jobInput(game: StoredGame): AnalysisJobInput {
    return { gameId: game.id, game: game.game, options: game.options, start: game.start, moves: game.moves, budgetMs: this.deps.plyBudgetMs };
  }
}
