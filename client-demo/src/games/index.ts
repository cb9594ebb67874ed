import type { GameId } from '../../../shared/rules.js';
import type { ClientGame } from './client-game.js';
import { gomoku } from './gomoku.js';
import { minichess } from './minichess.js';
import { othello } from './othello.js';

export type { BoardState, ClientGame, Grid, Motion } from './client-game.js';

/** Each game's part of the client, by id: everything else in the client is the same for all three. */
export const CLIENT_GAMES: Readonly<Record<GameId, ClientGame>> = { othello, gomoku, minichess };
