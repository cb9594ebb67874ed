import { GAMES } from '../../shared/games.js';
import { MiniChessBoard, minichessRules, moveFrom, moveTo, PAWN, PROMOTION_SUFFIX, RANK_COUNT, rankOf } from '../../shared/minichess/index.js';
import type { EngineCommand, EngineTurn } from './engine.js';
import { LineEngineBridge } from './line-engine.js';
import type { LineProcess } from './line-process.js';
import { answerBy, thinkingTime } from './deadline.js';

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
export class UciBridge extends LineEngineBridge {
  constructor(
    spec: EngineCommand,
    private readonly settings: UciSettings = {},
  ) {
    super(spec, 'quit');
  }

  protected async ask(turn: EngineTurn, signal: AbortSignal): Promise<string> {
    const engine = await this.started(turn, signal);
    const until = turn.deadline === null ? Infinity : answerBy(turn.deadline);
    engine.send(`position fen ${fen(turn.start)}${turn.moves.length > 0 ? ` moves ${uciMoves(turn.start, turn.moves).join(' ')}` : ''}`);
    engine.send(`go ${goArguments(turn)}`);
    const answer = await this.answer(engine, (line) => (line.startsWith('bestmove') ? line.split(/\s+/)[1] ?? '' : undefined), until, signal).catch((error: unknown) => {
      engine.send('stop');
      throw error;
    });
    const rules = GAMES[turn.game].rules;
    const parsed = rules.parseMove(answer);
    if (!parsed.ok) return this.lost('garbage', `the engine answered "bestmove ${answer.slice(0, 40)}"`);
    const move = rules.formatMove(parsed.value & ~PROMOTION_SUFFIX); // our lists write promotions without their q
    if (!turn.legal.includes(move)) return this.lost('illegal', `the engine played ${answer}, which is not legal here`);
    return move;
  }

  /** `uci` … `uciok`, the options, `isready` … `readyok`. */
  protected async greet(engine: LineProcess): Promise<void> {
    await this.handshake(engine, 'uci', 'uciok');
    const { variant, variantsFile, options = [] } = this.settings;
    if (variantsFile) engine.send(`setoption name VariantPath value ${variantsFile}`);
    if (variant) engine.send(`setoption name UCI_Variant value ${variant}`);
    for (const { name, value } of options) engine.send(`setoption name ${name} value ${value}`);
    await this.handshake(engine, 'isready', 'readyok');
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
