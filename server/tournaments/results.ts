import { opposite } from '../../shared/color.js';
import { toMove } from '../games/game.js';
import type { StoredGame } from '../store/store.js';

/**
 * A finished game's result for the tournament. An aborted game (a side's first move did not come
 * in time) is lost by the side that was to move: an entrant absent at pairing loses on time.
 */
export function tournamentResult(game: StoredGame): { winner: 'black' | 'white' | 'draw'; reason: string } | null {
  if (game.status !== 'finished' || !game.result) return null;
  if (game.result.winner) return { winner: game.result.winner, reason: game.result.reason };
  if (game.result.reason === 'aborted') return { winner: opposite(toMove(game)), reason: 'absent' };
  return { winner: 'draw', reason: game.result.reason };
}
