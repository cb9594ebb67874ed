import type { Color } from '../../shared/color.js';
import type { BotJobResult } from '../../bots/jobs/contract.js';
import { accept } from '../refuse.js';
import type { GameStore } from '../store/store.js';
import type { GameActions } from './bot-seats.js';
import { flagTime } from './clock.js';
import * as G from './game.js';
import type { BotTurns, Timers } from './ports.js';

export interface DeadlineOptions {
  readonly store: GameStore;
  readonly botTurns: BotTurns;
  readonly timers: Timers;
  /** How long a dropped player keeps the seat while the game goes on. */
  readonly graceMs: number;
  readonly firstMoveGraceMs: number;
  readonly now: () => number;
  /** A bot's answer that came but was not played yet, played now. */
  readonly playBotAnswer: (result: BotJobResult) => Promise<boolean>;
}

// A bot whose move the platform still owes at its flag gets OWED_STEP_MS more, again and again,
// up to OWED_MAX_MS in one turn.
const OWED_STEP_MS = 1000;
const OWED_MAX_MS = 60_000;

/**
 * What a game's deadlines do when they come, each judged on the game as it is then: a flag falls
 * (or a bot the platform still owes a move is given time), an absent seat is abandoned, a room no
 * one came to play in is closed. Every change goes through the service's `mutate`.
 */
export class Deadlines {
  constructor(
    private readonly games: Pick<GameActions, 'mutate'>,
    private readonly options: DeadlineOptions,
  ) {}

  /**
   * A flag's time came. A bot seat whose job is still waiting or running is not the bot's fault
   * (its search is cut to its clock): the bot is given time while the platform catches up.
   */
  async onFlag(gameId: string, ply: number): Promise<void> {
    const { store, botTurns, timers, now, firstMoveGraceMs } = this.options;
    const game = await store.get(gameId);
    if (!game || game.status !== 'live' || game.moves.length !== ply) return;
    const bot = game.seats[G.toMove(game)].kind === 'bot';
    const owed = bot && (await botTurns.pending(gameId, ply));
    // The bot answered, but no process has played the answer yet (it was down, or hears it later).
    const answer = bot && !owed ? await botTurns.answered(gameId, ply) : undefined;
    if (answer && (await this.options.playBotAnswer(answer))) return;
    const result = await this.games.mutate(gameId, (g) => accept((owed ? G.owedBotFlag(g, ply, now(), OWED_STEP_MS, OWED_MAX_MS) : G.flagFall(g, ply, now(), firstMoveGraceMs)) ?? g));
    if (!owed || !result.ok || result.value.status !== 'live') return;
    const flag = flagTime(result.value.timeControl, result.value.clock, G.toMove(result.value));
    if (flag !== null) await timers.armFlag(gameId, ply, flag);
  }

  /** A turn timer that names only its game: the flag of the turn the game is at now, which judges whether it is due. */
  async onTurnDue(gameId: string): Promise<void> {
    const game = await this.options.store.get(gameId);
    if (game?.status === 'live') await this.onFlag(gameId, game.moves.length);
  }

  async onAbandon(gameId: string, color: Color, awaySince: number): Promise<void> {
    await this.games.mutate(gameId, (game) => accept(G.abandon(game, color, awaySince, this.options.now()) ?? game));
  }

  /** An absence timer that names only its seat: the seat's absence now, once it has lasted the grace. */
  async onAwayDue(gameId: string, color: Color): Promise<void> {
    const game = await this.options.store.get(gameId);
    const awaySince = game?.status === 'live' ? game.seats[color].awaySince : null;
    if (awaySince !== null && this.options.now() >= awaySince + this.options.graceMs) await this.onAbandon(gameId, color, awaySince);
  }

  /** Retention: a room nobody has come to play in since `idleSince` is closed. */
  async expireRoom(gameId: string, idleSince: number): Promise<void> {
    await this.games.mutate(gameId, (game) => accept(G.expire(game, idleSince, this.options.now()) ?? game));
  }
}
