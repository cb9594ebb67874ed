import { formatGgf } from '../../shared/records/othello-ggf.js';
import { answerBy } from './deadline.js';
import type { EngineCommand, EngineTurn } from './engine.js';
import { LineEngineBridge } from './line-engine.js';
import type { LineProcess } from './line-process.js';

const MOVE_LINE = /^===\s*([A-Za-z]+\d*)/;

/**
 * An NBoard (protocol 2) Othello engine playing one game: `nboard 2`, `set depth`, `ping`, then each
 * turn `set game` with the whole game as GGF and `go`, answered by `=== F5` (or `=== PA`).
 * Telling the whole game every turn keeps a restarted engine in step for free.
 */
export class NboardBridge extends LineEngineBridge {
  constructor(
    spec: EngineCommand,
    private readonly depth = 12,
  ) {
    super(spec, 'quit');
  }

  protected async ask(turn: EngineTurn, signal: AbortSignal): Promise<string> {
    const engine = await this.started(turn, signal);
    const until = turn.deadline === null ? Infinity : answerBy(turn.deadline);
    engine.send(`set game ${ggf(turn)}`);
    engine.send('go');
    const answer = await this.answer(engine, (line) => MOVE_LINE.exec(line)?.[1] ?? (line.startsWith('===') ? line : undefined), until, signal);
    const move = /^pa(ss)?$/i.test(answer) ? 'pass' : /^[a-h][1-8]$/i.test(answer) ? answer.toLowerCase() : undefined;
    if (move === undefined) return this.lost('garbage', `the engine answered "${answer.slice(0, 60)}", not a square`);
    if (!turn.legal.includes(move)) return this.lost('illegal', `the engine played ${move}, which is not legal here`);
    return move;
  }

  /** `nboard 2`, `set depth`, then `ping 1` … `pong 1`: the engine has read what came before. */
  protected async greet(engine: LineProcess): Promise<void> {
    engine.send('nboard 2');
    engine.send(`set depth ${this.depth}`);
    await this.handshake(engine, 'ping 1', 'pong 1');
  }
}

/** The game so far as GGF: the start board (`*` black, `O` white), then the moves, passes as PA. */
export function ggf(turn: Pick<EngineTurn, 'start' | 'moves'>): string {
  return formatGgf({ start: turn.start, moves: turn.moves });
}
