import type { GameStore, StoredGame } from '../store/store.js';

/** Recovery at start-up reads the live games' ids this many at a time … */
const RECOVERY_PAGE = 500;
/** … and takes up this many games at once. */
const RECOVERY_CONCURRENCY = 32;

export interface RecoveryOptions {
  /** Stops early when it aborts. */
  readonly signal?: AbortSignal;
  readonly onFailed?: (gameId: string, error: unknown) => void;
}

/** Runs `each` over `items`, at most `atOnce` at a time. */
async function forEachAtOnce<T>(items: readonly T[], atOnce: number, each: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) await each(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, lane));
}

/**
 * Every live game's turn started again (`startTurn`): the ids read a page at a time and the games
 * taken up `RECOVERY_CONCURRENCY` at once, while the process already serves requests (a turn
 * started twice is harmless: arming replaces, a bot turn's job id is its own). A game that fails is
 * counted and left to its flag. Returns the games re-armed.
 */
export async function recoverLiveGames(store: GameStore, startTurn: (game: StoredGame) => Promise<void>, options: RecoveryOptions = {}): Promise<number> {
  const seen = new Set<string>();
  let recovered = 0;
  let cursor = '0';
  do {
    const page = await store.scanIds('live', cursor, RECOVERY_PAGE);
    cursor = page.cursor;
    const fresh = page.ids.filter((id) => !seen.has(id));
    for (const id of fresh) seen.add(id);
    await forEachAtOnce(fresh, RECOVERY_CONCURRENCY, async (id) => {
      if (options.signal?.aborted) return;
      try {
        const game = await store.get(id);
        if (!game || game.status !== 'live') return;
        await startTurn(game);
        recovered++;
      } catch (error) {
        options.onFailed?.(id, error);
      }
    });
  } while (cursor !== '0' && !options.signal?.aborted);
  return recovered;
}
