import { GAMES } from '../../shared/games.js';
import type { AgentTurn, GameResult, GameView, RoomSummary } from '../../shared/protocol/index.js';
import type { GameId } from '../../shared/rules.js';
import type { Color } from '../../shared/color.js';
import { EngineProblem, type EngineBridge, type EngineTurn } from './engine.js';

/** What an attached engine needs of its connection to the server: the agent SDK provides it. */
export interface AttachConnection {
  readonly name: string;
  onTurn(handler: (turn: AgentTurn, signal: AbortSignal) => Promise<string | null>): void;
  onEnded(handler: (event: { gameId: string; result: GameResult; view: GameView }) => void): void;
  onRoomsChanged(handler: (room: RoomSummary) => void): void;
  onChallenge(handler: (offer: { gameId: string; game: GameId; from: string }) => void): void;
  /** Every waiting room of the game with a seat open to agents, page after page. */
  listOpenRooms(game: GameId): Promise<RoomSummary[]>;
  join(gameId: string): Promise<GameView>;
  watch(gameId: string): Promise<GameView>;
  challenge(opponent: string, game: GameId, moveMs: number, color: Color): Promise<GameView>;
  declineChallenge(gameId: string): Promise<void>;
  joinLadder(game: GameId, games: number): Promise<void>;
  leaveLadder(game: GameId): Promise<void>;
  /** Enters a tournament; its games come as turns. */
  joinTournament(tournamentId: string): Promise<void>;
  /** The tournament's status now. */
  tournamentStatus(tournamentId: string): Promise<'upcoming' | 'running' | 'finished'>;
  onTournamentChanged(handler: (delta: { id: string; status: 'upcoming' | 'running' | 'finished' }) => void): void;
  /** A game of ours in a tournament was made: its engine can start before the first turn. */
  onTournamentPaired(handler: (paired: { tournamentId: string; gameId: string }) => void): void;
}

export type AttachEvent =
  | { readonly event: 'started'; readonly gameId: string; readonly color: Color; readonly opponent: string | null }
  | {
      readonly event: 'ended';
      readonly gameId: string;
      readonly color: Color | null;
      readonly result: GameResult;
      /** The result for us: null when we held no seat. */
      readonly outcome: 'won' | 'lost' | 'drawn' | null;
      readonly plies: number;
      /** Our rating before and after, rounded, in a rated game. */
      readonly rating?: { readonly before: number; readonly after: number; readonly change: number };
    }
  | { readonly event: 'restarted'; readonly gameId: string; readonly message: string }
  | { readonly event: 'problem'; readonly gameId: string; readonly message: string }
  | { readonly event: 'stopped'; readonly message: string };

/** How `attach` came to an end: its rounds were played, or its engine kept dying. */
export type AttachEnd = { readonly ended: 'rounds' } | { readonly ended: 'tournament' } | { readonly ended: 'engine-failed' | 'refused'; readonly message: string };

/** The per-move clock of `vs` challenges: time enough for an engine, short enough for many games. */
export const DEFAULT_MOVE_MS = 5000;

/** Deaths of the engine in a row (crashes, failed starts, with no move between) that stop the attach. */
export const DEATHS_TO_STOP = 3;

export interface AttachPlan {
  readonly game: GameId;
  /** Games played at once, each with its own engine process. */
  readonly games: number;
  /**
   * `open`: open agent seats of the game and challenges; `challenges`: only challenges and seats
   * reserved for us; `ladder`: the game's ladder, whose rated games the server starts for us;
   * `tournament`: the tournament `tournament`, until it ends.
   */
  readonly play: 'open' | 'challenges' | 'ladder' | 'tournament';
  readonly tournament?: string;
  /** Challenge this bot or agent, game after game (instead of waiting for seats)… */
  readonly vs?: string;
  /** … with this per-move clock. */
  readonly moveMs?: number;
  /** Stop after this many games have ended. */
  readonly rounds?: number;
  /** A new engine for a game; it calls `restarted` when it died during a turn and was started again. */
  readonly newBridge: (hooks: { restarted: (message: string) => void }) => EngineBridge;
  readonly report: (event: AttachEvent) => void;
}

/** An engine, made before or after the game it plays is known. */
interface Engine {
  readonly bridge: EngineBridge;
  playing(gameId: string): void;
}

interface Playing {
  readonly bridge: EngineBridge;
  readonly view: GameView;
  color: Color | null;
}

/**
 * Plays an outside engine on the server: takes seats (open ones, challenges, or its own
 * challenges with `vs`, colours alternating), one engine process per game, asks the engine on
 * each turn and sends its move. An engine that gives no move (crash, silence, garbage, an illegal
 * move) gets what a person's missing move gets: the turn stays open, and the flag falls. Resolves
 * when `rounds` games have ended (never without `rounds`), or when the engine died
 * `DEATHS_TO_STOP` times in a row: then no more seats are taken.
 */
export function attach(connection: AttachConnection, plan: AttachPlan): Promise<AttachEnd> {
  const playing = new Map<string, Playing>();
  let ended = 0;
  let challenged = 0;
  let deathsInARow = 0;
  let stopped = false;
  let seeking = false;
  let spare: { engine: Engine; ready: Promise<void> } | undefined;
  let done: (end: AttachEnd) => void = () => {};
  const finished = new Promise<AttachEnd>((resolve) => (done = resolve));
  const stop = (end: AttachEnd): void => {
    stopped = true;
    void spare?.engine.bridge.close();
    spare = undefined;
    if (plan.play === 'ladder') void connection.leaveLadder(plan.game).catch(() => undefined);
    done(end);
  };
  const died = (): void => {
    if (++deathsInARow >= DEATHS_TO_STOP && !stopped) {
      const message = `the engine died ${deathsInARow} times in a row; attach stops (the games under way are left to the clock)`;
      plan.report({ event: 'stopped', message });
      stop({ ended: 'engine-failed', message });
    }
  };
  /** A new engine whose `restarted` reports under the game it is given to. */
  const newEngine = (): Engine => {
    let gameId = '';
    const restarted = (message: string): void => {
      plan.report({ event: 'restarted', gameId, message });
      died();
    };
    return { bridge: plan.newBridge({ restarted }), playing: (id) => (gameId = id) };
  };
  // Started before a challenge, so that the engine's start-up is not paid from its first move's clock.
  const warmSpare = (): Promise<void> => {
    if (!spare) {
      const engine = newEngine();
      spare = { engine, ready: (engine.bridge.prepare?.({ game: plan.game, options: {} }) ?? Promise.resolve()).catch(() => undefined) };
    }
    return spare.ready;
  };
  const room = (gameId: string, view: GameView): Playing => {
    let entry = playing.get(gameId);
    if (!entry) {
      const warm = spare && view.game === plan.game && !view.options.exactFive ? spare.engine : undefined;
      if (warm) spare = undefined;
      const engine = warm ?? newEngine();
      engine.playing(gameId);
      entry = { bridge: engine.bridge, view, color: mySeat(view, connection.name) };
      playing.set(gameId, entry);
      if (!warm) void entry.bridge.prepare?.({ game: view.game, options: view.options });
      if (entry.color) plan.report({ event: 'started', gameId, color: entry.color, opponent: opponentOf(view, entry.color) });
    }
    return entry;
  };
  const wanted = (): number => {
    if (stopped) return 0;
    const left = plan.rounds === undefined ? Infinity : plan.rounds - ended - playing.size;
    return Math.max(0, Math.min(plan.games - playing.size, left));
  };

  const seek = async (): Promise<void> => {
    if (seeking || plan.play === 'ladder' || plan.play === 'tournament') return;
    seeking = true;
    try {
      while (wanted() > 0) {
        if (plan.vs) {
          const color = challenged++ % 2 === 0 ? 'black' : 'white';
          await warmSpare();
          const view = await connection.challenge(plan.vs, plan.game, plan.moveMs ?? DEFAULT_MOVE_MS, color);
          room(view.id, view);
          continue;
        }
        const open = (await connection.listOpenRooms(plan.game)).filter((r) => !playing.has(r.id) && seatFor(r, plan, connection.name));
        if (open.length === 0) break;
        for (const r of open.slice(0, wanted())) {
          const view = await connection.join(r.id).catch(() => undefined); // taken by someone else meanwhile
          if (view) room(view.id, view);
        }
      }
    } finally {
      seeking = false;
    }
  };

  connection.onTurn(async (turn, signal) => {
    const entry = playing.get(turn.gameId) ?? room(turn.gameId, await connection.watch(turn.gameId));
    try {
      const move = await entry.bridge.think(engineTurn(turn, entry.view), signal);
      deathsInARow = 0;
      return move;
    } catch (error) {
      const message = error instanceof EngineProblem ? `${error.kind}: ${error.message}` : String(error);
      plan.report({ event: 'problem', gameId: turn.gameId, message: `no move at ply ${turn.ply} (${message}); the turn stays open` });
      if (error instanceof EngineProblem && (error.kind === 'crashed' || error.kind === 'start')) died();
      return null;
    }
  });
  connection.onEnded(({ gameId, result, view }) => {
    const entry = playing.get(gameId);
    if (!entry) return;
    playing.delete(gameId);
    ended++;
    plan.report(endedEvent(entry.color, result, view));
    void entry.bridge.close();
    if (plan.rounds !== undefined && ended >= plan.rounds) stop({ ended: 'rounds' });
    else if (plan.play === 'tournament') void tournamentOver();
    else void seek();
  });
  connection.onRoomsChanged((r) => {
    if (r.status === 'waiting' && seatFor(r, plan, connection.name)) void seek();
  });
  connection.onChallenge((offer) => {
    if (offer.game !== plan.game || wanted() === 0 || plan.play === 'ladder' || plan.play === 'tournament') return void connection.declineChallenge(offer.gameId).catch(() => undefined);
    void connection.join(offer.gameId).then((view) => room(view.id, view), () => undefined);
  });
  if (plan.play === 'ladder') void connection.joinLadder(plan.game, plan.games).catch((error: unknown) => plan.report({ event: 'problem', gameId: '', message: `could not enter the ladder: ${String(error)}` }));
  // A tournament's games are made by the server: attach plays them as turns come, and ends with it.
  const tournamentOver = async (): Promise<void> => {
    const status = await connection.tournamentStatus(plan.tournament!).catch(() => 'running');
    if (status === 'finished' && playing.size === 0 && !stopped) stop({ ended: 'tournament' });
  };
  if (plan.play === 'tournament') {
    connection.onTournamentChanged((delta) => {
      if (delta.id === plan.tournament && delta.status === 'finished') void tournamentOver();
    });
    connection.onTournamentPaired((paired) => {
      if (paired.tournamentId !== plan.tournament || playing.has(paired.gameId)) return;
      void connection.watch(paired.gameId).then((view) => room(view.id, view), () => undefined);
    });
    connection.joinTournament(plan.tournament!).catch((error: unknown) => {
      const message = `could not enter the tournament: ${String(error)}`;
      plan.report({ event: 'stopped', message });
      stop({ ended: 'refused', message });
    });
  }
  void seek();
  return finished;
}

function endedEvent(color: Color | null, result: GameResult, view: GameView): Extract<AttachEvent, { event: 'ended' }> {
  const outcome = color === null ? null : result.winner === null ? 'drawn' : result.winner === color ? 'won' : 'lost';
  const change = color && view.ratingChange?.[color];
  // The change is the difference of the figures shown, so "1534 → 1567" says +33, never +34.
  const rating = change ? { before: Math.round(change.before), after: Math.round(change.after), change: Math.round(change.after) - Math.round(change.before) } : undefined;
  return { event: 'ended', gameId: view.id, color, result, outcome, plies: view.moves.length, ...(rating ? { rating } : {}) };
}

/** An agent seat of our game that we may take: open to any agent (with `open`), or reserved for us. */
function seatFor(room: RoomSummary, plan: AttachPlan, me: string): boolean {
  if (room.game !== plan.game || room.status !== 'waiting') return false;
  return [room.seats.black, room.seats.white].some((s) => s.kind === 'agent' && !s.connected && (s.name === me || (s.name === null && plan.play === 'open')));
}

function mySeat(view: GameView, me: string): Color | null {
  if (view.seats.black.kind === 'agent' && view.seats.black.name === me) return 'black';
  if (view.seats.white.kind === 'agent' && view.seats.white.name === me) return 'white';
  return null;
}

function opponentOf(view: GameView, color: Color): string | null {
  return view.seats[color === 'black' ? 'white' : 'black'].name;
}

function engineTurn(turn: AgentTurn, view: GameView): EngineTurn {
  const rules = GAMES[turn.game].rules;
  return {
    gameId: turn.gameId,
    game: turn.game,
    options: view.options,
    start: view.start ?? rules.formatPosition(rules.start(view.options)),
    moves: turn.moves,
    position: turn.position,
    color: turn.color,
    legal: turn.legal,
    clock: turn.clock,
    deadline: turn.deadline,
  };
}
