import type { Output } from '../tool-io.js';
import { attach, type AttachEvent } from './attach.js';
import type { AttachArgs } from './attach-settings.js';
import { connectForAttach } from './attach-connection.js';
import { checkEngine, engineBridge } from './bridges.js';

/**
 * `boardroom attach`: checks that the engine starts, connects, plays until `--rounds` games ended
 * or Ctrl-C; exit code 0, or 1 if the engine did not start, could not connect, or kept dying.
 */
export async function runAttach(args: AttachArgs, output: Output): Promise<number> {
  const log = (line: string): void => output.err(line);
  try {
    await checkEngine(args, log);
  } catch (error) {
    output.err(`The ${args.protocol} engine "${args.command}" did not start: ${(error as Error).message}. No seat was taken.`);
    return 1;
  }
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
    ...(args.tournament ? { tournament: args.tournament } : {}),
    ...(args.vs ? { vs: args.vs, moveMs: args.moveMs } : {}),
    ...(args.rounds !== undefined ? { rounds: args.rounds } : {}),
    newBridge: ({ restarted }) => engineBridge(args, { log, restarted, ...(args.json ? { notes: () => undefined } : {}) }),
    report: (event) => output.out(formatEvent(event, args.json)),
  });
  const end = await Promise.race([played, stop]);
  await connection.close(); // engines stop with their games; seats wait out the server's grace
  if (end?.ended !== 'engine-failed' && end?.ended !== 'refused') return 0;
  output.err(`Stopped: ${end.message}.`);
  return 1;
}

/** One line per event: plain for a person, JSON with --json. */
export function formatEvent(event: AttachEvent, json: boolean): string {
  if (json) return JSON.stringify(event);
  switch (event.event) {
    case 'started':
      return `game ${event.gameId}: started as ${event.color}${event.opponent ? ` against ${event.opponent}` : ''}`;
    case 'ended': {
      const rating = event.rating ? `, rating ${event.rating.before} → ${event.rating.after}` : '';
      return `game ${event.gameId}: ${event.outcome ?? 'ended'} (${event.result.reason}) after ${event.plies} plies${rating}`;
    }
    case 'restarted':
    case 'problem':
      return `game ${event.gameId}: ${event.message}`;
    case 'stopped':
      return event.message;
  }
}
