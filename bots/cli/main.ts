import { HelpRequested, type Command } from './command.js';
import { arenaCommand } from './commands/arena.js';
import { bestmoveCommand } from './commands/bestmove.js';
import { solveCommand } from './commands/solve.js';
import { perftCommand } from './commands/perft.js';
import { playCommand } from './commands/play.js';
import { processOutput, UsageError, type Output } from './io.js';

const COMMANDS: readonly Command[] = [perftCommand, playCommand, bestmoveCommand, solveCommand, arenaCommand];

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

/** Runs the command line and returns the exit code: 0 done, 2 bad input, 1 a bug. */
export async function main(argv: string[], output: Output = processOutput): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    output.out(overview());
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    output.err(`"${name}" is not a boardroom command.\n\n${overview()}`);
    return 2;
  }
  try {
    return await command.run(rest, output);
  } catch (error) {
    if (error instanceof HelpRequested) {
      output.out(command.help);
      return 0;
    }
    if (error instanceof UsageError) {
      output.err(`boardroom ${command.name}: ${error.message}\nRun 'boardroom ${command.name} --help' for usage.`);
      return 2;
    }
    throw error;
  }
}
