import type { Color } from '../../shared/color.js';
import type { GameId, GameOptions } from '../../shared/rules.js';
import type { ClockView } from '../../shared/protocol/index.js';

/** One turn asked of an outside engine, in our notation (PROTOCOL.md, docs/rules.md). */
export interface EngineTurn {
  readonly gameId: string;
  readonly game: GameId;
  readonly options: GameOptions;
  /** The start position's text and the moves since, as the server keeps them. */
  readonly start: string;
  readonly moves: readonly string[];
  /** The position to move from, in our position text. */
  readonly position: string;
  readonly color: Color;
  readonly legal: readonly string[];
  readonly clock: ClockView;
  /** Epoch ms by which the move must reach the server, or null without a clock. */
  readonly deadline: number | null;
}

/** Why an engine gave no move: each is one clear line for the bot author. */
export class EngineProblem extends Error {
  constructor(
    readonly kind: 'crashed' | 'silent' | 'garbage' | 'illegal' | 'start',
    message: string,
  ) {
    super(message);
  }
}

/**
 * An outside program playing one game for us (one process per game). `think` answers a move in
 * our notation, or rejects with an EngineProblem; a crashed program is started again and told
 * the whole game on the next turn. The caller aborts `signal` when the turn is over.
 */
export interface EngineBridge {
  /**
   * Starts the program and runs its protocol's opening exchange, then stops it: rejects with an
   * EngineProblem when the program is not there or does not answer as its protocol says.
   */
  check?(game: Pick<EngineTurn, 'game' | 'options'>): Promise<void>;
  /**
   * The game has begun: start the program now, so its start-up is not paid from the first move's
   * clock. A program that fails to start here is started again at its first turn.
   */
  prepare?(game: Pick<EngineTurn, 'game' | 'options'>): Promise<void>;
  think(turn: EngineTurn, signal: AbortSignal): Promise<string>;
  /** The game is over (`END` and the like); the process is stopped. */
  close(): Promise<void>;
}

/** How an outside program is started: the command line as the author typed it (run by a shell). */
export interface EngineCommand {
  readonly command: string;
  /** Lines of stderr and protocol notes go here, one line each. */
  readonly log: (line: string) => void;
  /** The engine's own messages (piskvork MESSAGE, DEBUG); `log` when not given. */
  readonly notes?: (line: string) => void;
  /** The program died during a turn and was started again; `log` when not given. */
  readonly restarted?: (message: string) => void;
}

/** Asks the engine; one that crashed on this turn is asked once more (a new process, told the game). */
export async function againAfterCrash(turn: EngineTurn, signal: AbortSignal, spec: EngineCommand, ask: () => Promise<string>): Promise<string> {
  try {
    return await ask();
  } catch (error) {
    if (!(error instanceof EngineProblem) || error.kind !== 'crashed' || signal.aborted) throw error;
    (spec.restarted ?? spec.log)(`engine crashed at move ${turn.moves.length}; started again and told the game`);
    return ask();
  }
}
