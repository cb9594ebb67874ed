import { HelpRequested, type Command } from './command.js';
import { processOutput, UsageError, type Output } from '../tool-io.js';

interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  readonly load: () => Promise<Command>;
}

/**
 * A command's code is loaded only when it runs, so each run loads what it needs and no more:
 * `bestmove --ms N` counts its budget from the process's start.
 */
const COMMANDS: readonly CommandEntry[] = [
  { name: 'perft', summary: 'count the leaves of the game tree to a depth', load: async () => (await import('./commands/perft.js')).perftCommand },
  { name: 'play', summary: 'play moves and print the position, legal moves and outcome', load: async () => (await import('./commands/play.js')).playCommand },
  { name: 'bestmove', summary: 'search a position for the best move', load: async () => (await import('./commands/bestmove.js')).bestmoveCommand },
  { name: 'solve', summary: 'solve an Othello endgame exactly', load: async () => (await import('./commands/solve.js')).solveCommand },
  { name: 'arena', summary: 'play a match between two bots and estimate the Elo difference', load: async () => (await import('./commands/arena.js')).arenaCommand },
  { name: 'sprt', summary: 'decide whether one bot is stronger than another by a sequential test', load: async () => (await import('./commands/sprt.js')).sprtCommand },
  { name: 'judge-book', summary: 'judge an opening book by self-play, keeping the openings that split', load: async () => (await import('./commands/judge-book.js')).judgeBookCommand },
  { name: 'attach', summary: 'play an engine you have (piskvork, UCI, NBoard, file protocol) on a server', load: async () => (await import('./commands/attach.js')).attachCommand },
];

function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'Usage: boardroom <command> [options]',
    '',
    'Boardroom: Othello, Gomoku and MiniChess for humans and bots. Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    "Run 'boardroom <command> --help' for a command's options.",
  ].join('\n');
}

/**
 * Runs the command line and returns the exit code: 0 done, 2 bad input, 1 a bug. `startedAt` is
 * when the command started, in `performance.now()` time: the installed command passes 0, the
 * process's own start, so that time budgets include Node's start-up and the loading of the code.
 */
export async function main(argv: string[], output: Output = processOutput, startedAt = performance.now()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    output.out(overview());
    return name === undefined ? 2 : 0;
  }
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) {
    output.err(`"${name}" is not a boardroom command.\n\n${overview()}`);
    return 2;
  }
  const command = await entry.load();
  try {
    return await command.run(rest, output, startedAt);
  } catch (error) {
    if (error instanceof HelpRequested) {
      output.out(command.help);
      return 0;
    }
    if (error instanceof UsageError) {
      output.err(`boardroom ${entry.name}: ${error.message}\nRun 'boardroom ${entry.name} --help' for usage.`);
      return 2;
    }
    throw error;
  }
}
