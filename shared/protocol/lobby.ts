import { z } from 'zod';
import { GAME_IDS, type GameId } from '../rules.js';
import { SEAT_KINDS } from './admin.js';
import type { GameStatus, RoomSummary, SeatView } from './views.js';

export const LOBBY_PAGE_MAX = 100;
export const LOBBY_SORTS = ['newest', 'oldest'] as const;
export type LobbySort = (typeof LOBBY_SORTS)[number];
type SeatKind = (typeof SEAT_KINDS)[number];

/** Where the last room of a page was: its creation time and id. The next page starts after it. */
const cursor = z.string().regex(/^\d{1,15}:[\w-]{1,64}$/);

/**
 * `rooms:list`. `status` alone (an older client) still answers the first page. `all` answers the
 * first page of each status and no cursor: page through one status at a time.
 */
export const ListSchema = z.object({
  status: z.enum(['open', 'waiting', 'live', 'finished', 'all']).default('all'),
  game: z.enum(GAME_IDS).optional(),
  rated: z.boolean().optional(),
  /** Rooms with an open seat of this kind (the seat you would take). */
  open: z.enum(['human', 'agent']).optional(),
  /** Rooms where you would face this kind of player: across from an open seat, or seated in a game under way. */
  vs: z.enum(SEAT_KINDS).optional(),
  sort: z.enum(LOBBY_SORTS).default('newest'),
  limit: z.number().int().min(1).max(LOBBY_PAGE_MAX).default(50),
  cursor: cursor.optional(),
});
export type LobbyQuery = z.infer<typeof ListSchema>;
/** What a client sends: every field may be left out. */
export type LobbyRequest = z.input<typeof ListSchema>;
export type LobbyFilter = Pick<LobbyQuery, 'game' | 'rated' | 'open' | 'vs'>;

/** The answer to `rooms:list`: a page, how many rooms match in all, and the cursor of the page after (null: the last). */
export interface RoomsPage {
  readonly rooms: RoomSummary[];
  readonly total: number;
  readonly next: string | null;
}

/** What the lobby's filters look at in a room. */
export interface LobbyRoom {
  readonly game: GameId;
  readonly rated: boolean;
  readonly status: GameStatus;
  readonly seats: { readonly black: LobbySeat; readonly white: LobbySeat };
}
export interface LobbySeat {
  readonly kind: SeatKind;
  readonly open: boolean;
}

/**
 * The filter values a room answers to, one word each: its game (`g:`), rated or not (`r:`), and
 * per open seat the seat's kind (`open:`), its opponent's (`vs:`) and both (`human-bot`); a room
 * with no open seat answers `vs:` for each player's kind. A filter matches a room that has every
 * word of `filterTags`: a store keeps one sorted set per word.
 */
export function roomTags(room: LobbyRoom): string[] {
  const tags = new Set([`g:${room.game}`, `r:${room.rated ? 1 : 0}`]);
  const { black, white } = room.seats;
  const open = room.status === 'waiting' ? ([[black, white], [white, black]] as const).filter(([seat]) => seat.open) : [];
  for (const [seat, opponent] of open) tags.add(`open:${seat.kind}`).add(`vs:${opponent.kind}`).add(`${seat.kind}-${opponent.kind}`);
  if (open.length === 0) tags.add(`vs:${black.kind}`).add(`vs:${white.kind}`);
  return [...tags];
}

export function filterTags(filter: LobbyFilter): string[] {
  const tags: string[] = [];
  if (filter.game) tags.push(`g:${filter.game}`);
  if (filter.rated !== undefined) tags.push(`r:${filter.rated ? 1 : 0}`);
  if (filter.open && filter.vs) tags.push(`${filter.open}-${filter.vs}`);
  else if (filter.open) tags.push(`open:${filter.open}`);
  else if (filter.vs) tags.push(`vs:${filter.vs}`);
  return tags;
}

export function matchesLobbyFilter(room: LobbyRoom, filter: LobbyFilter): boolean {
  const tags = roomTags(room);
  return filterTags(filter).every((tag) => tags.includes(tag));
}

/** A summary's seat as the filters see it: an open agent seat shows the agent it is reserved for, but no identity. */
export function lobbySeat(seat: SeatView): LobbySeat {
  return { kind: seat.kind, open: seat.kind !== 'bot' && seat.identity === null && (seat.kind === 'agent' || seat.name === null) };
}

export function lobbyRoom(room: RoomSummary): LobbyRoom {
  return { game: room.game, rated: room.rated, status: room.status, seats: { black: lobbySeat(room.seats.black), white: lobbySeat(room.seats.white) } };
}

/** Newest first: later creation first, then the greater id; `oldest` is the reverse. */
export function lobbyOrder(sort: LobbySort): (a: { createdAt: number; id: string }, b: { createdAt: number; id: string }) => number {
  const newest = (a: { createdAt: number; id: string }, b: { createdAt: number; id: string }) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
  return sort === 'newest' ? newest : (a, b) => newest(b, a);
}

export const makeCursor = (room: { createdAt: number; id: string }): string => `${room.createdAt}:${room.id}`;

export function readCursor(text: string): { createdAt: number; id: string } {
  const colon = text.indexOf(':');
  return { createdAt: Number(text.slice(0, colon)), id: text.slice(colon + 1) };
}
