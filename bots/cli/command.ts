import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError, type Output } from '../tool-io.js';

export interface Command {
  /** The full `--help` text. */
  readonly help: string;
  /** `startedAt`: the `performance.now()` time the command started, for budgets that count from it. */
  run(argv: string[], output: Output, startedAt: number): Promise<number> | number;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** Thrown by `parseCommandArgs` on `--help`: the runner prints the command's help and exits 0. */
export class HelpRequested extends Error {}

/** node:util parseArgs with its errors turned into one-sentence usage errors, and `--help`/`-h` for every command. */
export function parseCommandArgs<O extends Options>(argv: string[], options: O) {
  const parsed = parseStrictly(argv, options);
  if ((parsed.values as { help?: boolean }).help) throw new HelpRequested();
  return parsed;
}

function parseStrictly<O extends Options>(argv: string[], options: O) {
  try {
    return parseArgs({ args: withJoinedValues(argv, options), options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message.split('\n')[0]! : String(error));
  }
}

/**
 * A string option takes the next word as its value even when that word starts with a dash, as
 * Othello positions often do (`--position -OX… O`); parseArgs alone would call it ambiguous.
 */
function withJoinedValues(argv: string[], options: Options): string[] {
  const joined: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      joined.push(...argv.slice(i));
      break;
    }
    const takesValue = arg.startsWith('--') && !arg.includes('=') && options[arg.slice(2)]?.type === 'string';
    if (takesValue && i + 1 < argv.length) joined.push(`${arg}=${argv[++i]!}`);
    else joined.push(arg);
  }
  return joined;
}
