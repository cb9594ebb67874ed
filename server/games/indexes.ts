import { COLORS, type Color } from '../../shared/color.js';
import { agentKey, type IndexEntry, type StoredGame } from '../store/store.js';

/** A seat as a process's index holds it. */
export function seatMember(gameId: string, color: Color): string {
  return `${gameId}:${color}`;
}

export function parseSeatMember(member: string): { gameId: string; color: Color } | undefined {
  const cut = member.lastIndexOf(':');
  const color = member.slice(cut + 1);
  return cut > 0 && (color === 'black' || color === 'white') ? { gameId: member.slice(0, cut), color } : undefined;
}

/**
 * The index entries a game's state calls for: each seat a connection holds, in the index of the
 * process holding it, and each agent's seat, in the agent's. A finished game is in none.
 */
function entriesOf(game: StoredGame | undefined): Map<string, IndexEntry> {
  const entries = new Map<string, IndexEntry>();
  if (!game || game.status === 'finished') return entries;
  const add = (entry: IndexEntry): void => void entries.set(`${entry.index}|${entry.owner}|${entry.member}`, entry);
  for (const color of COLORS) {
    const seat = game.seats[color];
    if (seat.kind !== 'bot' && seat.connected && seat.connectedVia !== null) add({ index: 'instance-seats', owner: seat.connectedVia, member: seatMember(game.id, color) });
    if (seat.kind === 'agent' && seat.name !== null) add({ index: 'agent-games', owner: agentKey(seat.name), member: game.id });
  }
  return entries;
}

/**
 * What a write from `before` to `after` changes in the indexes: the one place entries come and go,
 * a game's end taking it out of all of them. A move leaves the seats as they were: nothing.
 */
export function indexChanges(before: StoredGame | undefined, after: StoredGame): { added: IndexEntry[]; removed: IndexEntry[] } {
  if (before && before.seats === after.seats && before.status === after.status) return { added: [], removed: [] };
  const was = entriesOf(before);
  const is = entriesOf(after);
  return { added: [...is].filter(([key]) => !was.has(key)).map(([, e]) => e), removed: [...was].filter(([key]) => !is.has(key)).map(([, e]) => e) };
}
