import { DEATHS_TO_STOP, DEFAULT_MOVE_MS } from '../../bridges/attach.js';
import { PLAYS, PROTOCOLS, type AttachArgs } from '../../bridges/attach-settings.js';
import type { Command } from '../command.js';
import { parseCommandArgs } from '../command.js';
import { gameArg, UsageError, wholeNumberArg, type Output } from '../../tool-io.js';

const HELP = `Usage: boardroom attach --server URL --token TOKEN --game othello|gomoku|minichess
                        (--piskvork CMD | --uci CMD | --nboard CMD | --file CMD)
                        [--uci-variant NAME] [--uci-variants-file FILE] [--uci-option NAME=VALUE]...
                        [--games N] [--play open|challenges|ladder|tournament [--tournament ID]]
                        [--vs NAME [--move-ms MS]]
                        [--rounds N] [--json]

Plays an engine you already have on a Boardroom server, as the agent whose token you give
(an admin makes one: POST /admin/api/agents). The engine is started and greeted first (uciok,
START/OK, ping/pong, or the program is there to run): one that fails exits with 1 before any
seat is taken. One engine process per game; each turn is told to the engine in its own
protocol and its answer sent back in Boardroom's notation.

  --server URL             the server, e.g. http://localhost:3000
  --token TOKEN            your agent token (or the environment variable BOARDROOM_TOKEN)
  --game G                 the game the engine plays
  --piskvork CMD           a Gomocup engine (Gomoku): START, INFO, BEGIN/TURN/BOARD, END
  --uci CMD                a UCI engine (MiniChess): position fen … moves …, go, bestmove
  --uci-variant NAME       sent as UCI_Variant (a variant engine such as Fairy-Stockfish)
  --uci-variants-file FILE sent as VariantPath
  --uci-option NAME=VALUE  any other setoption, repeatable
  --nboard CMD             an NBoard (protocol 2) engine (Othello): set game as GGF, go, === MOVE
  --file CMD               a program of the course file protocol (all three games), run each
                           turn as CMD STATE ACTION until the move's time is up
  --games N                games at once (default 1)
  --play open|challenges|ladder|tournament
                           open: take open agent seats of the game and accept challenges
                           (default); challenges: only challenges and seats reserved for you;
                           ladder: enter the game's rated ladder, whose games the server starts
                           (up to --games at once); see GET /api/ratings/GAME; tournament:
                           enter the tournament --tournament ID (GET /api/tournaments) and
                           play its games until it ends
  --vs NAME                challenge this bot or agent instead, game after game, taking
                           black and white in turn
  --move-ms MS             the per-move clock of those challenges (default ${DEFAULT_MOVE_MS}), from
                           1000 to 3600000 (the server's range); an engine is told the
                           clock less a margin for the network, so it thinks about that long
  --rounds N               stop after N games (default: play until Ctrl-C)
  --json                   one JSON object per line:
                           {"event":"started","gameId":…,"color":…,"opponent":…}
                           {"event":"ended","gameId":…,"result":{…},"color":…,
                            "outcome":"won"|"lost"|"drawn","plies":…,
                            "rating":{"before":…,"after":…,"change":…} (rated games)}
                           {"event":"restarted","gameId":…,"message":…}
                           {"event":"problem","gameId":…,"message":…}
                           {"event":"stopped","message":…}
                           and the engine's MESSAGE/DEBUG lines are not echoed

An engine that crashes is started again and told the game; one that answers nothing in time,
garbage or an illegal move makes no move, so its flag falls as a person's would. An engine that
dies ${DEATHS_TO_STOP} times in a row (no move between) stops the attach, with exit code 1. Ctrl-C
stops the engines and resigns nothing: your seats wait for you through the server's grace.

Example: boardroom attach --server http://localhost:3000 --token $TOKEN --game gomoku \\
           --piskvork ./pbrain-rapfi --games 2`;

export function attachArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): AttachArgs {
  const { values } = parseCommandArgs(argv, {
    server: { type: 'string' },
    token: { type: 'string' },
    game: { type: 'string' },
    piskvork: { type: 'string' },
    file: { type: 'string' },
    nboard: { type: 'string' },
    uci: { type: 'string' },
    'uci-variant': { type: 'string' },
    'uci-variants-file': { type: 'string' },
    'uci-option': { type: 'string', multiple: true },
    games: { type: 'string' },
    play: { type: 'string' },
    tournament: { type: 'string' },
    vs: { type: 'string' },
    'move-ms': { type: 'string' },
    rounds: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (!values.server || !/^https?:\/\//.test(values.server)) throw new UsageError('Give the server as --server http://HOST:PORT.');
  const token = values.token ?? env.BOARDROOM_TOKEN;
  if (!token) throw new UsageError('Give your agent token with --token (or BOARDROOM_TOKEN); an admin makes one with POST /admin/api/agents.');
  const game = gameArg(values.game);
  const chosen = PROTOCOLS.filter((p) => values[p] !== undefined);
  if (chosen.length !== 1) throw new UsageError('Name exactly one engine: --piskvork CMD, --uci CMD, --nboard CMD or --file CMD.');
  const protocol = chosen[0]!;
  if (!PLAYS[protocol].includes(game)) throw new UsageError(`A ${protocol} engine plays ${PLAYS[protocol].join(' or ')}, not ${game}.`);
  const uciOptions = (values['uci-option'] ?? []).map((option) => {
    const cut = option.indexOf('=');
    if (cut <= 0) throw new UsageError(`--uci-option takes NAME=VALUE, not "${option}".`);
    return { name: option.slice(0, cut), value: option.slice(cut + 1) };
  });
  const play = values.play ?? 'open';
  if (play !== 'open' && play !== 'challenges' && play !== 'ladder' && play !== 'tournament') throw new UsageError(`--play takes open, challenges, ladder or tournament, not "${play}".`);
  if ((play === 'ladder' || play === 'tournament') && values.vs) throw new UsageError(`--vs challenges one opponent; the ${play} chooses opponents itself: use one or the other.`);
  if ((play === 'tournament') !== (values.tournament !== undefined)) throw new UsageError('--play tournament takes the tournament as --tournament ID (and --tournament goes with --play tournament).');
  return {
    server: values.server.replace(/\/+$/, ''),
    token,
    game,
    protocol,
    command: values[protocol]!,
    ...(values['uci-variant'] ? { uciVariant: values['uci-variant'] } : {}),
    ...(values['uci-variants-file'] ? { uciVariantsFile: values['uci-variants-file'] } : {}),
    uciOptions,
    games: values.games === undefined ? 1 : wholeNumberArg('--games', values.games, 1, 64),
    play,
    ...(values.tournament ? { tournament: values.tournament } : {}),
    ...(values.vs ? { vs: values.vs } : {}),
    moveMs: values['move-ms'] === undefined ? DEFAULT_MOVE_MS : wholeNumberArg('--move-ms', values['move-ms'], 1000, 3_600_000),
    ...(values.rounds !== undefined ? { rounds: wholeNumberArg('--rounds', values.rounds, 1, 100_000) } : {}),
    json: values.json === true,
  };
}

export const attachCommand: Command = {
  help: HELP,
  async run(argv, output: Output) {
    const args = attachArgs(argv);
    const { runAttach } = await import('../../bridges/run-attach.js');
    return runAttach(args, output);
  },
};
