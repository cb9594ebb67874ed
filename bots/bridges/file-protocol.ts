import { constants } from 'node:fs';
import { access, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { createInterface } from 'node:readline';
import { answerBy } from './deadline.js';
import { EngineProblem, type EngineBridge, type EngineCommand, type EngineTurn } from './engine.js';
import { courseState, readCourseAnswer } from './file-protocol-format.js';
import { startProgram, stopProgram } from './process.js';

/** Without a clock, a program of the file protocol gets this long a move. */
const NO_CLOCK_MS = 30_000;

/**
 * The course projects' file protocol (docs/rules.md §Protocols, "File protocol"): each turn a
 * state file is written, `CMD state action` runs until the move's time is up, and the last
 * complete answer in the action file is the move. Nothing lives between turns, so a crash costs
 * only that turn.
 */
export class FileProtocolBridge implements EngineBridge {
  constructor(private readonly spec: EngineCommand) {}

  /** The program (the command's first word after any NAME=value) exists and may be run. */
  async check(): Promise<void> {
    const program = programOf(this.spec.command);
    const candidates = program.includes('/') ? [program] : (process.env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, program));
    for (const path of candidates) {
      if (await access(path, constants.X_OK).then(() => true, () => false)) return;
    }
    throw new EngineProblem('start', `"${program}" is not a program that can be run (not found, or not executable)`);
  }

  async think(turn: EngineTurn, signal: AbortSignal): Promise<string> {
    if (turn.legal.length === 1 && turn.legal[0] === 'pass') return 'pass'; // the protocol has no pass to ask for
    const dir = await mkdtemp(join(tmpdir(), 'boardroom-file-'));
    try {
      const state = join(dir, 'state');
      const action = join(dir, 'action');
      await writeFile(state, courseState(turn));
      await writeFile(action, '');
      const until = turn.deadline === null ? Date.now() + NO_CLOCK_MS : answerBy(turn.deadline);
      const exit = await this.run(`${this.spec.command} ${shellQuoted(state)} ${shellQuoted(action)}`, until, signal);
      const answer = readCourseAnswer(turn.game, await readFile(action, 'utf8').catch(() => ''));
      if (!answer.ok) {
        if (exit !== 0 && exit !== 'killed') throw new EngineProblem('crashed', `the program exited with ${exit} and no complete answer`);
        throw new EngineProblem(answer.error.code, answer.error.message);
      }
      if (!turn.legal.includes(answer.value)) throw new EngineProblem('illegal', `the program played ${answer.value}, which is not legal here`);
      return answer.value;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async close(): Promise<void> {}

  /** Runs the program until it exits or `until`; resolves with its exit code or 'killed'. */
  private run(command: string, until: number, signal: AbortSignal): Promise<number | 'killed'> {
    return new Promise((resolve) => {
      const child = startProgram(command);
      child.stdin.end();
      child.stdout.resume(); // read and dropped, so that a chatty program never blocks on a full pipe
      createInterface({ input: child.stderr }).on('line', (line) => this.spec.log(`program: ${line}`));
      let killed = false;
      const kill = (): void => {
        killed = true;
        stopProgram(child);
      };
      const finish = (code: number): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', kill);
        resolve(killed ? 'killed' : code);
      };
      const timer = setTimeout(kill, Math.max(0, until - Date.now()));
      if (signal.aborted) kill();
      else signal.addEventListener('abort', kill, { once: true });
      child.once('exit', (code) => finish(code ?? 1));
      child.once('error', () => finish(127));
    });
  }
}

/** The program a command line runs: its first word that is not a NAME=value, unquoted. */
function programOf(command: string): string {
  const words = command.trim().split(/\s+/);
  const word = words.find((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) ?? '';
  return word.replace(/^(['"])(.*)\1$/, '$2');
}

function shellQuoted(path: string): string {
  return `'${path.replaceAll("'", "'\\''")}'`;
}
