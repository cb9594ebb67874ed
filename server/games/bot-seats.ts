import { opposite, type Color } from '../../shared/color.js';
import type { BotJobResult, BotThinking } from '../../bots/jobs/contract.js';
import type { Quotas } from '../quotas.js';
import { accept, type ServerResult } from '../refuse.js';
import type { GameStore, IndexEntry, StoredGame } from '../store/store.js';
import { timeLeft } from './clock.js';
import * as G from './game.js';
import type { Bots, Broadcaster, BotTurns } from './ports.js';
import { Recent, RECENT_GAMES_KEPT } from './recent.js';
import type { SeatProof } from './seat-proof.js';

/** A bot answers this much before its flag falls. */
export const BOT_SAFETY_MS = 250;

/** A turn asked this long ago with no answer played is checked by the sweep: is its job still there? */
export const UNANSWERED_CHECK_MS = 5000;

/** The one index of games whose bot turn the queue could not take when it was due. */
const unqueuedBotTurn = (gameId: string): IndexEntry => ({ index: 'unqueued-bot-turns', owner: '', member: gameId });

/** What the bot seats ask of the game service: its one path for moves and for changes, and a turn's start. */
export interface GameActions {
  play(gameId: string, ply: number, move: string, proof: SeatProof, botLostMs?: number): Promise<ServerResult<unknown>>;
  mutate(gameId: string, decide: (game: StoredGame) => ServerResult<StoredGame>): Promise<ServerResult<StoredGame>>;
  startTurn(game: StoredGame): Promise<void>;
}

export interface BotSeatOptions {
  readonly store: GameStore;
  readonly broadcaster: Broadcaster;
  readonly botTurns: BotTurns;
  readonly bots: Bots;
  readonly quotas?: Quotas;
  readonly now: () => number;
}

/**
 * The bots' side of the games: a bot's turn asked of the queue, its answer played as anyone's
 * move, its thinking relayed, a draw offer answered by its evaluation, and the turns whose news
 * was lost asked again.
 */
export class BotSeats {
  /** Each bot game's latest evaluation, from the bot's side: how a bot answers a draw offer. */
  private readonly scores = new Recent<{ color: Color; score: number }>(RECENT_GAMES_KEPT);
  /**
   * Games whose bot turn must be asked again: the queue could not take it, or its answer or failure
   * could not be applied (the store was out of reach); asking again delivers a finished job's news.
   * Kept here too for when the store could not be told.
   */
  private readonly turnsToAskAgain = new Set<string>();
  /**
   * The turns this process asked and has not yet seen answered, and when: a job the queue took and
   * then lost (its master failed over before a replica had it) is asked again by the sweep.
   */
  private readonly unanswered = new Map<string, { ply: number; at: number }>();

  constructor(
    private readonly games: GameActions,
    private readonly options: BotSeatOptions,
  ) {}

  /** Asks the bot `name` for the move of the game's turn, within its budget cut to its clock (`flag`). */
  async ask(game: StoredGame, name: string, flag: number | null): Promise<void> {
    const { store, botTurns, bots, quotas } = this.options;
    const color = G.toMove(game);
    const left = timeLeft(game.timeControl, game.clock, color, this.options.now());
    const budgetMs = Math.max(10, Math.min(bots.budgetMs(game.game, name), left - BOT_SAFETY_MS));
    const deadline = flag === null ? null : flag - BOT_SAFETY_MS;
    try {
      await quotas?.botThinking(game.owner, budgetMs);
      await botTurns.request({ gameId: game.id, ply: game.moves.length, game: game.game, position: game.position, bot: name, budgetMs, deadline, ...(game.owner ? { owner: game.owner } : {}) });
      this.unanswered.set(game.id, { ply: game.moves.length, at: this.options.now() });
    } catch (error) {
      // Asked again by the sweep; the store is told when it can be, this process remembers it anyway.
      this.turnsToAskAgain.add(game.id);
      await store.addToIndex([unqueuedBotTurn(game.id)]).catch(() => undefined);
      throw error;
    }
  }

  /**
   * A bot job's answer: applied through the same path as a human's move, the time the platform
   * lost on the turn given back first (`creditBotAnswer`); a stale one is dropped.
   */
  async onResult(result: BotJobResult): Promise<boolean> {
    const played = await this.askAgainIfLost(result.gameId, async () => {
      const game = await this.options.store.get(result.gameId);
      if (!game || game.status !== 'live' || game.moves.length !== result.ply) return false;
      const color = G.toMove(game);
      if (game.seats[color].kind !== 'bot') return false;
      return (await this.games.play(result.gameId, result.ply, result.move, { color }, result.lostMs ?? 0)).ok;
    });
    if (this.unanswered.get(result.gameId)?.ply === result.ply) this.unanswered.delete(result.gameId);
    return played;
  }

  async onThinking(gameId: string, ply: number, bot: string, thinking: BotThinking): Promise<void> {
    const game = await this.options.store.get(gameId);
    if (!game || game.moves.length !== ply) return;
    const color = G.toMove(game);
    this.scores.set(gameId, { color, score: thinking.score });
    this.options.broadcaster.thinking({ gameId, ply, color, bot, ...thinking }, game.showThinking);
  }

  /** A bot that cannot move (its job failed for good) loses on time, like anyone else. */
  async onFailed(gameId: string, ply: number): Promise<void> {
    await this.askAgainIfLost(gameId, () => this.games.mutate(gameId, (game) => accept(G.forfeitTurn(game, ply, this.options.now()) ?? game)));
  }

  /**
   * A bot answers a draw offer at once, by its latest evaluation: it accepts when its last search
   * scored its position below even, and declines otherwise (or before it has searched).
   */
  async answerDraw(gameId: string, bot: Color): Promise<void> {
    const seen = this.scores.get(gameId);
    const worse = seen !== undefined && seen.color === bot && seen.score < 0;
    await this.games.mutate(gameId, (game) => {
      if (game.status !== 'live' || game.drawOffer !== opposite(bot)) return accept(game);
      return worse ? G.acceptDraw(game, bot, this.options.now()) : G.declineDraw(game, bot, this.options.now());
    });
  }

  /** The game's turn is looked at again by the next sweep (a write of it failed, and may have been stored). */
  lookAgain(gameId: string): void {
    this.turnsToAskAgain.add(gameId);
  }

  /** The game ended: its bot's evaluation and unanswered turn are forgotten. */
  ended(gameId: string): void {
    this.scores.delete(gameId);
    this.unanswered.delete(gameId);
  }

  /**
   * The sweep's backstop for the bot turns the queue could not take when they were due (the store
   * took the move, the queue was out of reach), and for a job's answer or failure this process could
   * not apply: each asked again, unless its job is pending by now or its turn is over. And for a
   * turn asked here UNANSWERED_CHECK_MS ago whose job is gone (taken, then lost with a master that
   * failed over): asked again. Returns the games whose turn was asked again.
   */
  async retryUnqueued(): Promise<string[]> {
    const { store, botTurns } = this.options;
    const ids = new Set([...this.turnsToAskAgain, ...(await store.indexed('unqueued-bot-turns', ''))]);
    const asked: string[] = [];
    for (const id of ids) {
      // Taken out first: a turn that fails again is put back by `ask`, and one whose game could
      // not be read (its master failing over) is kept for the next sweep.
      this.turnsToAskAgain.delete(id);
      try {
        await store.removeFromIndex([unqueuedBotTurn(id)]);
        const game = await store.get(id);
        if (!game || game.status !== 'live' || game.seats[G.toMove(game)].kind !== 'bot') continue;
        if (await botTurns.pending(id, game.moves.length)) {
          // Queued after all (the queue took it as it failed): watched until answered, like any ask.
          this.unanswered.set(id, { ply: game.moves.length, at: this.options.now() });
          continue;
        }
        await this.games.startTurn(game);
        asked.push(id);
      } catch {
        this.turnsToAskAgain.add(id);
      }
    }
    for (const [id, turn] of this.unanswered) {
      if (ids.has(id) || this.options.now() - turn.at < UNANSWERED_CHECK_MS) continue;
      try {
        const game = await store.get(id);
        if (!game || game.status !== 'live' || game.moves.length !== turn.ply || game.seats[G.toMove(game)].kind !== 'bot') this.unanswered.delete(id);
        else if (await botTurns.pending(id, turn.ply)) turn.at = this.options.now();
        else {
          // Lost, or answered with the answer not played: asking again queues it anew or delivers it.
          await this.games.startTurn(game);
          asked.push(id);
        }
      } catch {
        // Its game or queue is out of reach: checked again at the next pass.
      }
    }
    return asked;
  }

  /** A bot job's news that could not be applied is not lost: the sweep asks for the turn again. */
  private async askAgainIfLost<T>(gameId: string, apply: () => Promise<T>): Promise<T> {
    try {
      return await apply();
    } catch (error) {
      this.turnsToAskAgain.add(gameId);
      throw error;
    }
  }
}
