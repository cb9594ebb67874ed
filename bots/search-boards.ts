import type { Position } from '../shared/games.js';
import type { GameId } from '../shared/rules.js';
import { othelloBoardOf } from '../shared/othello/index.js';
import type { SearchGame } from './engine/game.js';
import { GomokuSearchBoard } from './gomoku/search-board.js';
import { MiniChessSearchBoard } from './minichess/search-board.js';
import { OthelloSearchBoard } from './othello/search-board.js';

/**
 * Each game's board for the generic search, from a position of that game, with the board's own
 * defaults: for the search's tests and the opening books' plain search. The engine bots set their
 * own options in each game's `bots.ts`; to search as they do, think with one (`bots/registry.ts`).
 */
export function searchBoardOf(game: GameId, position: Position): SearchGame {
  switch (game) {
    case 'othello':
      if (position.game !== 'othello') break;
      return OthelloSearchBoard.from(othelloBoardOf(position));
    case 'gomoku':
      if (position.game !== 'gomoku') break;
      return GomokuSearchBoard.fromPosition(position);
    case 'minichess':
      if (position.game !== 'minichess') break;
      return MiniChessSearchBoard.fromPosition(position);
  }
  throw new Error(`a ${position.game} position is not a ${game} one`);
}
