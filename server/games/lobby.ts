import { GAME_STATUSES, ListSchema, WatchSchema, type GameView, type RoomsPage } from '../../shared/protocol/index.js';
import { accept, parse, refuse, type ServerResult } from '../refuse.js';
import type { GameStore, StoredGame } from '../store/store.js';
import { toSummary, toView } from './game.js';

/** What anyone may read of the rooms, changing nothing: the lobby's pages, a room's view, the recent games. */
export class Lobby {
  constructor(
    private readonly store: GameStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** A page of the lobby (`rooms:list`); `all` is the first page of each status, for clients that do not page. */
  async listRooms(payload: unknown): Promise<ServerResult<RoomsPage>> {
    const request = parse(ListSchema, payload ?? {});
    if (!request.ok) return request;
    const { status, ...query } = request.value;
    const statuses = status === 'all' ? GAME_STATUSES : [status === 'open' ? 'waiting' : status];
    const pages = await Promise.all(statuses.map((s) => this.store.lobby(s, status === 'all' ? { ...query, cursor: undefined } : query)));
    return accept({
      rooms: pages.flatMap((p) => p.games.map(toSummary)),
      total: pages.reduce((sum, p) => sum + p.total, 0),
      next: status === 'all' ? null : pages[0]!.next,
    });
  }

  /** A room's view for a spectator (`room:watch`) or a client that missed a move (`room:sync`). */
  async watch(payload: unknown): Promise<ServerResult<{ view: GameView }>> {
    const request = parse(WatchSchema, payload);
    if (!request.ok) return request;
    const view = await this.view(request.value.gameId);
    return view.ok ? accept({ view: view.value }) : view;
  }

  async view(gameId: string): Promise<ServerResult<GameView>> {
    const game = await this.store.get(gameId);
    if (!game) return refuse('room/not_found', `There is no room "${gameId}".`);
    return accept(toView(game, this.now()));
  }

  async recentGames(limit: number): Promise<StoredGame[]> {
    return this.store.list('finished', limit);
  }
}
