import { GAMES, type Position } from '../../shared/games.js';
import type { GameId } from '../../shared/rules.js';

/** A reproducible random legal game of `plies` plies (or until it ends). */
export function randomPosition(game: GameId, seed: number, plies: number): Position {
  const { rules } = GAMES[game];
  let position = rules.start();
  let s = seed >>> 0;
  for (let i = 0; i < plies && !rules.outcome(position); i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    let legal = rules.legalMoves(position);
    // Gomoku stones cluster in real play: keep random games to the middle of the board.
    if (game === 'gomoku') legal = legal.filter((m) => Math.abs((m % 15) - 7) <= 3 && Math.abs(Math.floor(m / 15) - 7) <= 3);
    position = rules.play(position, legal[s % legal.length]!);
  }
  return position;
}
