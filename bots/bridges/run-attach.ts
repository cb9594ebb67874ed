import type { Output } from '../cli/io.js';
import type { AttachArgs } from '../cli/commands/attach.js';
import { formatEvent } from '../cli/commands/attach.js';
import { attach } from './attach.js';
import { connectForAttach } from './attach-connection.js';
import { engineBridge } from './bridges.js';

/** `boardroom attach`: connects, plays until `--rounds` games ended or Ctrl-C; exit code 0, or 1 if it could not connect. */
export async function runAttach(args: AttachArgs, output: Output): Promise<number> {
  const log = (line: string): void => output.err(line);
  let connection;
  try {
    connection = await connectForAttach(args.server, args.token);
  } catch (error) {
    output.err(`Could not attach to ${args.server}: ${(error as Error).message}`);
    return 1;
  }
  output.err(`attached to ${args.server} as ${connection.name}: ${args.protocol} engine "${args.command}" plays ${args.game}, ${args.games} game(s) at once`);
  const stop = new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
  const played = attach(connection, {
    game: args.game,
    games: args.games,
    play: args.play,
    ...(args.vs ? { vs: args.vs, moveMs: args.moveMs } : {}),
    ...(args.rounds !== undefined ? { rounds: args.rounds } : {}),
    newBridge: () => engineBridge(args, log),
    report: (event) => output.out(formatEvent(event, args.json)),
  });
  await Promise.race([played, stop]);
  await connection.close(); // engines stop with their games; seats wait out the server's grace
  return 0;
}
