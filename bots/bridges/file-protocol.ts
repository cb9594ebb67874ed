import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GAMES } from '../../shared/games.js';
import { formatCourseState, parseCourseAnswer, type MiniChessPosition } from '../../shared/minichess/index.js';
import { EngineProblem, type EngineBridge, type EngineCommand, type EngineTurn } from './engine.js';
import { transportMargin } from './piskvork.js';

/** Without a clock, a program of the file protocol gets this long a move. */
const NO_CLOCK_MS = 30_000;
const FILES = 'abcdefghijklmno';

/**
 * The course projects' file protocol (docs/rules.md §Protocols): each turn a state file is
 * written, `CMD state action` runs until the move's time is up, and the last complete answer
 * in the action file is the move. Nothing lives between turns, so a crash costs only that turn.
 */
export class FileProtocolBridge implements EngineBridge {
  constructor(private readonly spec: EngineCommand) {}

  async think(turn: EngineTurn, signal: AbortSignal): Promise<string> {
    if (turn.legal.length === 1 && turn.legal[0] === 'pass') return 'pass'; // the protocol has no pass to ask
    const dir = await mkdtemp(join(tmpdir(), 'boardroom-file-'));
    try {
      const state = join(dir, 'state');
      const action = join(dir, 'action');
      await writeFile(state, stateFile(turn));
      await writeFile(action, '');
      const left = turn.deadline === null ? NO_CLOCK_MS : turn.deadline - Date.now();
      const exit = await this.run(`${this.spec.command} ${state} ${action}`, Date.now() + left - transportMargin(left), signal);
      const answer = await readFile(action, 'utf8');
      const move = moveOf(turn, answer);
      if (move === undefined) {
        if (exit !== 0 && exit !== 'killed') throw new EngineProblem('crashed', `the program exited with ${exit} and no complete answer`);
        throw new EngineProblem(answer.trim() === '' ? 'silent' : 'garbage', answer.trim() === '' ? 'the program wrote no answer in time' : `the program answered "${answer.trim().slice(0, 60)}"`);
      }
      if (!turn.legal.includes(move)) throw new EngineProblem('illegal', `the program played ${move}, which is not legal here`);
      return move;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async close(): Promise<void> {}

  /** Runs the program until it exits or `until`; resolves with its exit code or 'killed'. */
  private run(command: string, until: number, signal: AbortSignal): Promise<number | 'killed'> {
    return new Promise((resolve) => {
      const child = spawn(command, { shell: true, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
      child.stderr.on('data', (chunk: Buffer) => this.spec.log(`program: ${chunk.toString().trimEnd()}`));
      let killed = false;
      // The whole process group: a shell's children die with it.
      const kill = (): void => {
        killed = true;
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
      };
      const timer = setTimeout(kill, Math.max(0, until - Date.now()));
      signal.addEventListener('abort', kill, { once: true });
      child.once('exit', (code) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', kill);
        resolve(killed ? 'killed' : (code ?? 1));
      });
    });
  }
}

/** The state file of the turn's position. */
function stateFile(turn: EngineTurn): string {
  const side = turn.color === 'black' ? 1 : 2;
  if (turn.game === 'minichess') {
    const parsed = GAMES.minichess.rules.parsePosition(turn.position);
    if (!parsed.ok) throw new EngineProblem('garbage', `the server's position "${turn.position}" could not be read`);
    return formatCourseState(parsed.value as MiniChessPosition);
  }
  if (turn.game === 'othello') {
    const cells = turn.position.slice(0, 64).split('').map((c) => (c === 'X' ? 1 : c === 'O' ? 2 : 0));
    const rows = Array.from({ length: 8 }, (_, r) => cells.slice(r * 8, r * 8 + 8).join(' '));
    const legal = turn.legal.filter((m) => m !== 'pass').map((m) => [Number(m.slice(1)) - 1, FILES.indexOf(m[0]!)]).sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]!);
    return [side, ...rows, legal.length, ...legal.map(([r, c]) => `${r} ${c}`)].join('\n') + '\n';
  }
  const grid = Array.from({ length: 15 }, () => Array<number>(15).fill(0));
  turn.moves.forEach((m, i) => (grid[15 - Number(m.slice(1))]![FILES.indexOf(m[0]!)] = i % 2 === 0 ? 1 : 2));
  return [side, ...grid.map((row) => row.join(' '))].join('\n') + '\n';
}

/** The last complete answer in our notation, or undefined. */
function moveOf(turn: EngineTurn, answer: string): string | undefined {
  if (turn.game === 'minichess') {
    const move = parseCourseAnswer(answer);
    return move.ok ? GAMES.minichess.rules.formatMove(move.value as never) : undefined;
  }
  const numbers: number[] = [];
  const integer = /\s*([+-]?[0-9]+)/y;
  for (let match = integer.exec(answer); match; match = integer.exec(answer)) numbers.push(Number(match[1]));
  const pairs = Math.floor(numbers.length / 2);
  if (pairs === 0) return undefined;
  const [row, col] = numbers.slice((pairs - 1) * 2, pairs * 2) as [number, number];
  const size = turn.game === 'othello' ? 8 : 15;
  if (row < 0 || row >= size || col < 0 || col >= size) return undefined;
  return turn.game === 'othello' ? `${FILES[col]}${row + 1}` : `${FILES[col]}${15 - row}`;
}
