import { GAMES } from '../../shared/games.js';
import { MiniChessBoard, minichessRules, moveFrom, moveTo, PAWN, RANK_COUNT, rankOf } from '../../shared/minichess/index.js';
import { againAfterCrash, EngineProblem, type EngineBridge, type EngineCommand, type EngineTurn } from './engine.js';
import { LineProcess } from './line-process.js';
import { answerBy, thinkingTime } from './deadline.js';

const START_MS = 5000;
const NO_CLOCK_MOVE_MS = 1000;

export interface UciSettings {
  /** Sent as UCI_Variant. */
  readonly variant?: string;
  /** Sent as VariantPath (Fairy-Stockfish's variants file). */
  readonly variantsFile?: string;
  readonly options?: readonly { readonly name: string; readonly value: string }[];
}

/**
 * A UCI engine playing one MiniChess game: `uci`/`uciok`, the options (VariantPath, UCI_Variant,
 * any others), `isready`/`readyok`; each turn `position fen <start> moves …` and `go` with the
 * clock (`wtime/btime/winc/binc` for a bank, `movetime` for a per-move clock), read back from
 * `bestmove`. MiniChess squares are written alike in UCI and in our notation (b2b3, b5b6q).
 */
export class UciBridge implements EngineBridge {
  private engine: LineProcess | undefined;

  constructor(
    private readonly spec: EngineCommand,
    private readonly settings: UciSettings = {},
  ) {}

  think(turn: EngineTurn, signal: AbortSignal): Promise<string> {
    return againAfterCrash(turn, signal, this.spec.log, () => this.ask(turn, signal));
  }

  async close(): Promise<void> {
    await this.engine?.stop('quit');
    this.engine = undefined;
  }

  private async ask(turn: EngineTurn, signal: AbortSignal): Promise<string> {
    const engine = await this.started();
    const until = turn.deadline === null ? Infinity : answerBy(turn.deadline);
    engine.send(`position fen ${fen(turn.start)}${turn.moves.length > 0 ? ` moves ${uciMoves(turn.start, turn.moves).join(' ')}` : ''}`);
    engine.send(`go ${goArguments(turn)}`);
    const answer = await engine.next((line) => (line.startsWith('bestmove') ? line.split(/\s+/)[1] ?? '' : undefined), until, signal);
    if (answer === 'timeout' || answer === 'aborted') {
      engine.send('stop');
      return this.lost('silent', 'the engine gave no bestmove in time');
    }
    if (answer === 'exited') return this.lost('crashed', 'the engine exited; it is started again');
    const rules = GAMES[turn.game].rules;
    const parsed = rules.parseMove(answer);
    if (!parsed.ok) return this.lost('garbage', `the engine answered "bestmove ${answer.slice(0, 40)}"`);
    const move = rules.formatMove(parsed.value);
    if (!turn.legal.includes(move)) return this.lost('illegal', `the engine played ${answer}, which is not legal here`);
    return move;
  }

  private async started(): Promise<LineProcess> {
    if (this.engine && !this.engine.exited) return this.engine;
    const engine = new LineProcess(this.spec.command, this.spec.log);
    engine.send('uci');
    if ((await engine.next((line) => (line.trim() === 'uciok' ? true : undefined), Date.now() + START_MS)) !== true) {
      await engine.stop();
      throw new EngineProblem('start', 'the engine did not answer uci with uciok');
    }
    const { variant, variantsFile, options = [] } = this.settings;
    if (variantsFile) engine.send(`setoption name VariantPath value ${variantsFile}`);
    if (variant) engine.send(`setoption name UCI_Variant value ${variant}`);
    for (const { name, value } of options) engine.send(`setoption name ${name} value ${value}`);
    engine.send('isready');
    if ((await engine.next((line) => (line.trim() === 'readyok' ? true : undefined), Date.now() + START_MS)) !== true) {
      await engine.stop();
      throw new EngineProblem('start', 'the engine did not answer isready with readyok');
    }
    this.engine = engine;
    return engine;
  }

  /** No move this turn; an engine that crashed or went silent is started again (a late bestmove must not count next turn). */
  private lost(kind: EngineProblem['kind'], message: string): never {
    if (kind === 'crashed' || kind === 'silent') {
      void this.engine?.stop('quit');
      this.engine = undefined;
    }
    throw new EngineProblem(kind, message);
  }
}

/** Our MiniChess position text (`board side moveNumber`) as a FEN: no castling, no en passant. */
export function fen(position: string): string {
  const [board = '', side = 'w', number = '1'] = position.trim().split(/\s+/);
  return `${board} ${side} - - 0 ${Math.max(1, Math.ceil(Number(number) / 2))}`;
}

/** Our moves as UCI writes them: a promotion carries its `q` (our notation may leave it out). */
export function uciMoves(start: string, moves: readonly string[]): string[] {
  const position = minichessRules.parsePosition(start);
  if (!position.ok) return [...moves];
  const board = MiniChessBoard.fromPosition(position.value);
  return moves.map((text) => {
    const move = minichessRules.parseMove(text);
    if (!move.ok) return text;
    const from = moveFrom(move.value);
    const to = moveTo(move.value);
    const promotes = Math.abs(board.pieceAt(from)) === PAWN && (rankOf(to) === 1 || rankOf(to) === RANK_COUNT);
    board.make(move.value);
    return `${text.slice(0, 4)}${promotes ? 'q' : ''}`;
  });
}

function goArguments(turn: EngineTurn): string {
  const { control } = turn.clock;
  const usable = turn.deadline === null ? NO_CLOCK_MOVE_MS : thinkingTime(turn.deadline);
  if (control.kind !== 'bank') return `movetime ${usable}`;
  const mine = turn.color === 'white' ? 'w' : 'b';
  const theirs = turn.color === 'white' ? 'b' : 'w';
  const other = (turn.color === 'white' ? turn.clock.black : turn.clock.white) ?? usable;
  return `${mine}time ${usable} ${theirs}time ${other} winc ${control.incrementMs} binc ${control.incrementMs}`;
}
