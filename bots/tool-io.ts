import { isGameId, GAME_IDS, type GameId } from '../shared/rules.js';

/** What the tools share (the command line, arena, training, the attach): usage errors, arguments, output. */

/** A command-line failure the user can fix: printed as one sentence, exit code 2. */
export class UsageError extends Error {}

export interface Output {
  out(line: string): void;
  err(line: string): void;
  /** True when stderr is a terminal, so progress may redraw in place. */
  readonly interactive: boolean;
}

export const processOutput: Output = {
  out: (line) => process.stdout.write(line + '\n'),
  err: (line) => process.stderr.write(line + '\n'),
  interactive: process.stderr.isTTY === true,
};

export function gameArg(value: string | undefined): GameId {
  if (value === undefined) throw new UsageError(`Name a game: ${GAME_IDS.join(', ')}.`);
  const id = value.toLowerCase();
  if (!isGameId(id)) throw new UsageError(`"${value}" is not a game: choose ${GAME_IDS.join(', ')}.`);
  return id;
}

export function wholeNumberArg(name: string, value: string | undefined, min: number, max: number): number {
  const n = Number(value);
  if (value === undefined || !Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`${name} must be a whole number from ${min} to ${max}${value === undefined ? '' : `, not "${value}"`}.`);
  }
  return n;
}

/** A number option: `fallback` when it is absent; `max` may be left unbounded. */
export function numberArg(name: string, value: string | undefined, fallback: number, min: number, max = Infinity): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) {
    const range = max === Infinity ? `of at least ${min}` : `from ${min} to ${max}`;
    throw new UsageError(`${name} must be a number ${range}, not "${value}".`);
  }
  return n;
}

/** A progress bar on stderr, drawn only on a terminal. */
export interface ProgressBar {
  total: number;
  tick(done: number): void;
  end(): void;
}

export function progressBar(output: Output, label: string, total: number): ProgressBar {
  const width = 30;
  const draw = (done: number): void => {
    if (!output.interactive || bar.total <= 0) return;
    const filled = Math.min(width, Math.round((done / bar.total) * width));
    process.stderr.write(`\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${bar.total}`);
  };
  const bar: ProgressBar = {
    total,
    tick: draw,
    end: () => {
      if (output.interactive) process.stderr.write('\r' + ' '.repeat(label.length + width + 24) + '\r');
    },
  };
  draw(0);
  return bar;
}
