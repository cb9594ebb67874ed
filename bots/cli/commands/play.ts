import { GAMES, type Game, type Position } from '../../../shared/games.js';
import { replay } from '../../../shared/record.js';
import type { Outcome } from '../../../shared/rules.js';
import type { Command } from '../command.js';
import { parseCommandArgs } from '../command.js';
import { gameArg, type Output } from '../../tool-io.js';
import { positionArg } from './position.js';

const HELP = `Usage: boardroom play <game> [--position TEXT] <move>... [--json]

Plays the moves from the start (or --position) and prints the position, the side to move,
the legal moves and the outcome. Moves may be separate arguments or one quoted record
("f5 d6 c3"); runs without spaces ("f5d6c3") are read too.

  <game>             othello, gomoku or minichess
  <move>...          othello f5 or pass; gomoku h8; minichess b2b3 (b5b6q for a promotion)
  --position TEXT    start from this position (same forms as for perft)
  --json             last line: {"position":"…","toMove":"black","legal":["d3",…],"outcome":null}
                     or, when the game is over, "outcome":{"winner":"black","reason":"five"}
                     (winner null is a draw)

An illegal or unreadable move stops the replay: one line names the move, its index (from 0)
and the reason code, and the exit code is 2.

Example: boardroom play othello f5 d6 c3 d3 c4 --json`;

export const playCommand: Command = {
  help: HELP,
  run(argv, output) {
    const { values, positionals } = parseCommandArgs(argv, { position: { type: 'string' }, json: { type: 'boolean' } });
    const game = GAMES[gameArg(positionals[0])];
    const start = positionArg(game, values.position);
    const result = replay(game.rules, start, positionals.slice(1).join(' '));
    if (!result.ok) {
      const { index, move, code, message } = result.error;
      output.err(`Move ${index} "${move}" was refused: ${code}: ${message}`);
      if (values.json) output.out(JSON.stringify({ error: { index, move, code, message } }));
      return 2;
    }
    const position = result.value.positions.at(-1)!;
    report(game, position, values.json === true, output);
    return 0;
  },
};

function report(game: Game, position: Position, json: boolean, output: Output): void {
  const { rules } = game;
  const outcome = rules.outcome(position);
  const legal = rules.legalMoves(position).map((m) => rules.formatMove(m));
  const text = rules.formatPosition(position);
  if (json) {
    output.out(JSON.stringify({ position: text, toMove: rules.toMove(position), legal, outcome }));
    return;
  }
  output.out(game.render(position));
  output.out(`position: ${text}`);
  output.out(outcome ? `outcome:  ${describe(outcome)}` : `to move:  ${rules.toMove(position)}`);
  if (!outcome) output.out(`legal:    ${legal.join(' ')}`);
}

function describe(outcome: Outcome): string {
  return outcome.winner ? `${outcome.winner} wins (${outcome.reason})` : `draw (${outcome.reason})`;
}
