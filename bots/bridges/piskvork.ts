import { formatGomocup, parseGomocup, parseMove, formatMove } from '../../shared/gomoku/index.js';
import { againAfterCrash, EngineProblem, type EngineBridge, type EngineCommand, type EngineTurn } from './engine.js';
import { LineProcess } from './line-process.js';

/** Kept back from every time the engine is told, for the trip to the server and back. */
export function transportMargin(ms: number): number {
  return Math.max(300, Math.round(ms * 0.1));
}
const START_MS = 5000;
const NOT_MOVES = /^(MESSAGE|DEBUG|UNKNOWN|ERROR)\b/i;

/**
 * A Gomocup (piskvork) engine playing one Gomoku game: START 15 and the INFO lines, then BEGIN
 * for the first move of a fresh game, TURN X,Y when the engine has seen the game up to the
 * opponent's last move, and BOARD … DONE otherwise (a resumed game, a restarted engine).
 */
export class PiskvorkBridge implements EngineBridge {
  private engine: LineProcess | undefined;
  /** The moves the engine has been told (ours and the opponent's), in our notation. */
  private seen: readonly string[] | undefined;

  constructor(private readonly spec: EngineCommand) {}

  think(turn: EngineTurn, signal: AbortSignal): Promise<string> {
    return againAfterCrash(turn, signal, this.spec.log, () => this.ask(turn, signal));
  }

  private async ask(turn: EngineTurn, signal: AbortSignal): Promise<string> {
    const engine = await this.started(turn);
    const until = turn.deadline === null ? Infinity : turn.deadline - transportMargin(turn.deadline - Date.now());
    this.tellTime(engine, turn);
    const known = this.seen;
    if (turn.moves.length === 0) engine.send('BEGIN');
    else if (known && known.length === turn.moves.length - 1 && known.every((m, i) => m === turn.moves[i])) engine.send(`TURN ${gomocup(turn.moves.at(-1)!)}`);
    else {
      engine.send('BOARD');
      // 1 marks the engine's own stones: those of the side to move now.
      const mine = turn.moves.length % 2;
      turn.moves.forEach((m, i) => engine.send(`${gomocup(m)},${i % 2 === mine ? 1 : 2}`));
      engine.send('DONE');
    }
    const answer = await engine.next((line) => (NOT_MOVES.test(line) ? (this.spec.log(`engine: ${line}`), undefined) : line), until, signal);
    if (answer === 'exited') return this.lost('crashed', 'the engine exited; it is started again next turn');
    if (answer === 'timeout' || answer === 'aborted') return this.lost('silent', 'the engine gave no move in time');
    const point = parseGomocup(answer);
    if (!point.ok) return this.lost('garbage', `the engine answered "${answer.slice(0, 60)}", not X,Y`);
    const move = formatMove(point.value);
    if (!turn.legal.includes(move)) return this.lost('illegal', `the engine played ${answer} (${move}), which is not legal here`);
    this.seen = [...turn.moves, move];
    return move;
  }

  async close(): Promise<void> {
    await this.engine?.stop('END');
    this.engine = undefined;
  }

  private async started(turn: EngineTurn): Promise<LineProcess> {
    if (this.engine && !this.engine.exited) return this.engine;
    const engine = new LineProcess(this.spec.command, this.spec.log);
    engine.send('START 15');
    const ok = await engine.next((line) => (/^OK\b/i.test(line) ? 'ok' : /^ERROR\b/i.test(line) ? line : undefined), Date.now() + START_MS);
    if (ok !== 'ok') {
      await engine.stop();
      throw new EngineProblem('start', `the engine did not start: ${ok === 'timeout' ? 'no OK to START 15' : ok}`);
    }
    engine.send(`INFO rule ${turn.options.exactFive ? 1 : 0}`);
    this.engine = engine;
    this.seen = undefined; // a new process knows nothing: it is told the board
    return engine;
  }

  private tellTime(engine: LineProcess, turn: EngineTurn): void {
    const { control } = turn.clock;
    if (control.kind === 'none') {
      engine.send('INFO timeout_turn 30000');
      engine.send('INFO timeout_match 0');
      return;
    }
    const left = turn.deadline === null ? 30_000 : turn.deadline - Date.now();
    const usable = Math.max(50, left - transportMargin(left));
    engine.send(`INFO timeout_turn ${usable}`);
    engine.send(`INFO timeout_match ${control.kind === 'per-move' ? 0 : usable}`);
    engine.send(`INFO time_left ${usable}`);
  }

  /**
   * No move this turn. The engine no longer knows the game as we do: it is told the board next
   * turn; one that crashed or went silent is started again (a late answer must not be read as the
   * next turn's).
   */
  private lost(kind: EngineProblem['kind'], message: string): never {
    this.seen = undefined;
    if (kind === 'crashed' || kind === 'silent') {
      void this.engine?.stop();
      this.engine = undefined;
    }
    throw new EngineProblem(kind, message);
  }
}

function gomocup(move: string): string {
  const point = parseMove(move);
  if (!point.ok) throw new EngineProblem('garbage', `the server sent ${move}, which is not a Gomoku point`);
  return formatGomocup(point.value);
}
