import type { Color } from '../../shared/color.js';
import { formatGomocup, gomokuRules, parseGomocup, pointOfBoardIndex } from '../../shared/gomoku/index.js';
import { answerBy, thinkingTime } from './deadline.js';
import { EngineProblem, type EngineCommand, type EngineTurn } from './engine.js';
import { LineEngineBridge } from './line-engine.js';
import type { LineProcess } from './line-process.js';

const START_MS = 5000;
const NOT_MOVES = /^(MESSAGE|DEBUG|UNKNOWN|ERROR)\b/i;
const NO_CLOCK_TURN_MS = 30_000;
/** The match clock of a per-move game: one no engine runs short of (some read piskvork's 0, "unlimited", badly). */
const ENDLESS_MS = 1_000_000_000;

/**
 * A Gomocup (piskvork) engine playing one Gomoku game: START 15 and the INFO lines, then BEGIN
 * for the first move on an empty board, TURN X,Y when the engine has seen the game up to the
 * opponent's last move, and BOARD … DONE otherwise (a resumed game, a restarted engine).
 */
export class PiskvorkBridge extends LineEngineBridge {
  /** The moves the engine has been told (ours and the opponent's), in our notation. */
  private seen: readonly string[] | undefined;

  constructor(spec: EngineCommand) {
    super(spec, 'END');
  }

  /** The engine no longer knows the game as we do: it is told the board next turn. */
  protected override forget(): void {
    this.seen = undefined;
  }

  protected async ask(turn: EngineTurn, signal: AbortSignal): Promise<string> {
    const engine = await this.started(turn, signal);
    for (const line of [...timeInfo(turn), ...this.request(turn)]) engine.send(line);
    const until = turn.deadline === null ? Infinity : answerBy(turn.deadline);
    const answer = await this.answer(engine, (line) => this.moveLine(line), until, signal);
    const point = parseGomocup(answer);
    if (!point.ok) return this.lost(point.error.code === 'move/off_board' ? 'illegal' : 'garbage', `the engine answered "${answer.slice(0, 60)}": ${point.error.message}`);
    const move = gomokuRules.formatMove(point.value);
    if (!turn.legal.includes(move)) return this.lost('illegal', `the engine played ${answer.trim()} (${move}), which is not legal here`);
    this.seen = [...turn.moves, move];
    return move;
  }

  /** BEGIN, TURN or BOARD: the least that brings the engine up to this turn. */
  private request(turn: EngineTurn): string[] {
    const seen = this.seen;
    const oneMoreSinceSeen = seen !== undefined && seen.length === turn.moves.length - 1 && seen.every((move, i) => move === turn.moves[i]);
    if (oneMoreSinceSeen) return [`TURN ${formatGomocup(pointOf(turn.moves.at(-1)!))}`];
    const stones = stonesInOrder(turn);
    if (stones.length === 0) return ['BEGIN'];
    // 1 marks the engine's own stones.
    return ['BOARD', ...stones.map(({ point, color }) => `${formatGomocup(point)},${color === turn.color ? 1 : 2}`), 'DONE'];
  }

  /** The line is the engine's answer, or a note to log and pass over. */
  private moveLine(line: string): string | undefined {
    if (line.trim() === '') return undefined;
    if (!NOT_MOVES.test(line)) return line;
    (this.spec.notes ?? this.spec.log)(`engine: ${line}`);
    return undefined;
  }

  /** START 15 … OK, then the rule. */
  protected async greet(engine: LineProcess, game: Pick<EngineTurn, 'options'>, signal: AbortSignal): Promise<void> {
    engine.send('START 15');
    const startReply = (line: string): string | undefined => {
      if (/^OK\b/i.test(line)) return 'ok';
      if (/^ERROR\b/i.test(line)) return line;
      (this.spec.notes ?? this.spec.log)(`engine: ${line}`);
      return undefined;
    };
    const reply = await engine.next(startReply, Date.now() + START_MS, signal);
    if (reply !== 'ok') {
      if (reply === 'aborted') throw new EngineProblem('silent', 'the turn ended while the engine was starting');
      const why = reply === 'timeout' ? `no OK to START 15 within ${START_MS / 1000} s` : reply === 'exited' ? 'it exited at START 15' : `it answered "${reply}" to START 15`;
      throw new EngineProblem('start', `the engine did not start: ${why}`);
    }
    engine.send(`INFO rule ${game.options.exactFive ? 1 : 0}`);
  }
}

/** The INFO lines of the turn's clock, less the transport margin. */
export function timeInfo(turn: Pick<EngineTurn, 'clock' | 'deadline'>, now = Date.now()): string[] {
  const { control } = turn.clock;
  if (control.kind === 'none' || turn.deadline === null) return [`INFO timeout_turn ${NO_CLOCK_TURN_MS}`, 'INFO timeout_match 0'];
  const thinkMs = thinkingTime(turn.deadline, now);
  if (control.kind === 'per-move') return [`INFO timeout_turn ${thinkMs}`, `INFO timeout_match ${ENDLESS_MS}`, `INFO time_left ${ENDLESS_MS}`];
  return [`INFO timeout_turn ${thinkMs}`, `INFO timeout_match ${control.initialMs}`, `INFO time_left ${thinkMs}`];
}

/** Every stone of the game in the order played: those of the start position first, then the moves. */
export function stonesInOrder(turn: Pick<EngineTurn, 'start' | 'moves' | 'options'>): { point: number; color: Color }[] {
  const start = gomokuRules.parsePosition(turn.start, turn.options);
  if (!start.ok) throw new Error(`The server's start position "${turn.start}" is not a Gomoku position: ${start.error.message}`);
  const stones: { point: number; color: Color }[] = [];
  [...start.value.board].forEach((char, index) => {
    if (char !== '.') stones.push({ point: pointOfBoardIndex(index), color: char === 'X' ? 'black' : 'white' });
  });
  let color = gomokuRules.toMove(start.value);
  for (const move of turn.moves) {
    stones.push({ point: pointOf(move), color });
    color = color === 'black' ? 'white' : 'black';
  }
  return stones;
}

function pointOf(move: string): number {
  const point = gomokuRules.parseMove(move);
  if (!point.ok) throw new Error(`The server sent ${move}, which is not a Gomoku point`);
  return point.value;
}
