import { GAMES } from '../../../shared/games.js';
import { othelloBoardOf, type OthelloPosition } from '../../../shared/othello/index.js';
import { solve } from '../../othello/endgame.js';
import type { Command } from '../command.js';
import { parseCommandArgs } from '../command.js';
import { UsageError } from '../../tool-io.js';
import { positionArg } from './position.js';

const HELP = `Usage: boardroom solve othello --position OBF [--json]

Solves an Othello position exactly: the best move and the final disc margin for the side to
move under perfect play by both sides (empty squares counted for the winner, as the FFO test
suite counts them). Fast up to about 24 empty squares.

  --position OBF   64 characters X/O/- for a1…h8, a space, X or O to move
  --json           last line: {"move":"a2","score":38,"nodes":123456,"ms":812}

Example: boardroom solve othello --position "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X"`;

export const solveCommand: Command = {
  help: HELP,
  run(argv, output) {
    const { values, positionals } = parseCommandArgs(argv, { position: { type: 'string' }, json: { type: 'boolean' } });
    if (positionals[0] !== 'othello' || positionals.length > 1) throw new UsageError('solve knows Othello only: boardroom solve othello --position OBF.');
    if (values.position === undefined) throw new UsageError('Give the position to solve with --position OBF.');
    const game = GAMES.othello;
    const position = positionArg(game, values.position) as OthelloPosition;
    if (game.rules.outcome(position)) throw new UsageError('The game is over in that position: there is nothing to solve.');
    const result = solve(othelloBoardOf(position));
    if (!result) throw new Error('the solver gave up without a deadline');
    const move = game.rules.formatMove(result.move);
    const ms = Math.round(result.ms * 10) / 10;
    if (values.json) output.out(JSON.stringify({ move, score: result.score, nodes: result.nodes, ms }));
    else output.out(`best move ${move}, final margin ${result.score > 0 ? '+' : ''}${result.score} for ${position.toMove} (${result.nodes} nodes, ${ms} ms)`);
    return 0;
  },
};
