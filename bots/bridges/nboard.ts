import { againAfterCrash, EngineProblem, type EngineBridge, type EngineCommand, type EngineTurn } from './engine.js';
import { LineProcess } from './line-process.js';
import { transportMargin } from './piskvork.js';

const START_MS = 5000;
const MOVE_LINE = /^===\s*([A-Za-z]+\d*)/;

/**
 * An NBoard (protocol 2) Othello engine playing one game: `nboard 2` and `set depth`, then each
 * turn `set game` with the whole game as GGF and `go`, answered by `=== F5` (or `=== PA`).
 * Telling the whole game every turn keeps a restarted engine in step for free.
 */
export class NboardBridge implements EngineBridge {
  private engine: LineProcess | undefined;

  constructor(
    private readonly spec: EngineCommand,
    private readonly depth = 12,
  ) {}

  think(turn: EngineTurn, signal: AbortSignal): Promise<string> {
    return againAfterCrash(turn, signal, this.spec.log, () => this.ask(turn, signal));
  }

  async close(): Promise<void> {
    await this.engine?.stop('quit');
    this.engine = undefined;
  }

  private async ask(turn: EngineTurn, signal: AbortSignal): Promise<string> {
    const engine = this.started();
    const until = turn.deadline === null ? Infinity : turn.deadline - transportMargin(turn.deadline - Date.now());
    engine.send(`set game ${ggf(turn)}`);
    engine.send('go');
    const answer = await engine.next((line) => MOVE_LINE.exec(line)?.[1] ?? (line.startsWith('===') ? line : undefined), until, signal);
    if (answer === 'exited') return this.lost('crashed', 'the engine exited; it is started again');
    if (answer === 'timeout' || answer === 'aborted') return this.lost('silent', 'the engine gave no move in time');
    const move = /^pa(ss)?$/i.test(answer) ? 'pass' : /^[a-h][1-8]$/i.test(answer) ? answer.toLowerCase() : undefined;
    if (move === undefined) return this.lost('garbage', `the engine answered "${answer.slice(0, 60)}", not a square`);
    if (!turn.legal.includes(move)) return this.lost('illegal', `the engine played ${move}, which is not legal here`);
    return move;
  }

  private started(): LineProcess {
    if (this.engine && !this.engine.exited) return this.engine;
    const engine = new LineProcess(this.spec.command, this.spec.log);
    engine.send('nboard 2');
    engine.send(`set depth ${this.depth}`);
    this.engine = engine;
    return engine;
  }

  /** No move this turn; an engine that crashed or went silent is started again (a late answer must not count next turn). */
  private lost(kind: EngineProblem['kind'], message: string): never {
    if (kind === 'crashed' || kind === 'silent') {
      void this.engine?.stop();
      this.engine = undefined;
    }
    throw new EngineProblem(kind, message);
  }
}

/** The game so far as GGF: the start board (`*` black, `O` white), then the moves, passes as PA. */
export function ggf(turn: Pick<EngineTurn, 'start' | 'moves'>): string {
  const [discs = '', side = 'X'] = turn.start.trim().split(/\s+/);
  const board = discs.toUpperCase().replaceAll('X', '*');
  const first = side.toUpperCase() === 'X' ? 0 : 1;
  const moves = turn.moves.map((m, i) => `${(i + first) % 2 === 0 ? 'B' : 'W'}[${m === 'pass' ? 'PA' : m.toUpperCase()}]`).join('');
  return `(;GM[Othello]PC[Boardroom]PB[black]PW[white]RE[?]TI[0//0]TY[8]BO[8 ${board} ${first === 0 ? '*' : 'O'}]${moves};)`;
}
