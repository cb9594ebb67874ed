import type { Game, Position } from '../../../shared/games.js';
import { UsageError } from '../../tool-io.js';

/** The `--position` option, or the start position when it is absent. */
export function positionArg(game: Game, text: string | undefined): Position {
  if (text === undefined) return game.rules.start();
  const parsed = game.rules.parsePosition(text);
  if (!parsed.ok) throw new UsageError(`--position: ${parsed.error.code}: ${parsed.error.message}`);
  return parsed.value;
}
