import type { Color } from '../../shared/color.js';
import { WatchSchema } from '../../shared/protocol/index.js';
import { sessionFromCookie, type Accounts } from '../accounts/accounts.js';
import type { AnalysisService } from '../games/analysis.js';
import type { Lobby } from '../games/lobby.js';
import { GAME_ACTIONS, type GameService } from '../games/service.js';
import type { Matchmaker } from '../pairing/matchmaker.js';
import { accept, parse, type ServerResult } from '../refuse.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics.js';
import { clientAddress } from './address.js';
import { analysisRoom, gameRoom, heldSeats, LOBBY, seatRoom, seekRoom, spectatorRoom } from './broadcaster.js';
import { guard } from './guard.js';
import type { PlayerNamespace, PlayerSocket } from './namespaces.js';
import { followGame } from './followed-games.js';
import { endSession, SESSION_ENDED, sessionRoom } from './sessions.js';
import { SpectatorCount } from './spectators.js';
import type { TournamentEntries } from '../tournaments/entries.js';
import type { TournamentRunner } from '../tournaments/runner.js';
import { tournamentPlayerHandlers } from './tournaments.js';

interface SeatHeld {
  readonly gameId: string;
  readonly color: Color;
}

export interface PlayerServices {
  readonly service: GameService;
  readonly lobby: Lobby;
  readonly analysis: AnalysisService;
  readonly accounts: Accounts;
  readonly matchmaker: Matchmaker;
  readonly tournaments: TournamentEntries;
  readonly tournamentRunner: TournamentRunner;
  /** Proxies in front of the server whose X-Forwarded-For is believed. */
  readonly trustProxy: number;
}

/**
 * The default namespace: players and spectators. A socket that takes or resumes a seat joins the
 * game's room and the seat's room; when the seat's last socket goes, the seat is marked away.
 * A signed-in player's session cookie, read at the handshake, makes its seats its account's while
 * the session lives: it is asked again before each request that acts as the account.
 */
export function attachPlayers(ns: PlayerNamespace, { service, lobby, analysis, accounts, matchmaker, tournaments, tournamentRunner, trustProxy }: PlayerServices, limit: number, log: Logger, metrics: Metrics, closing: () => boolean): void {
  ns.use((socket, next) => {
    accounts
      .session(sessionFromCookie(socket.handshake.headers.cookie))
      .then((session) => {
        socket.data.account = session?.account;
        socket.data.session = session?.key;
        next();
      })
      .catch(() => next()); // the store is away: a guest connection still plays casual games
  });

  const spectators = new SpectatorCount(ns, (error, gameId) => log.warn({ err: error, gameId }, 'could not count the spectators'));
  ns.on('connection', (socket: PlayerSocket) => {
    metrics.connections.inc({ namespace: '/' });
    if (socket.data.session !== undefined) void socket.join(sessionRoom(socket.data.session));
    /** The account this connection acts as: none once its session was signed out or ran out. */
    const signedIn = async (): Promise<string | undefined> => {
      const { account, session } = socket.data;
      if (account === undefined || session === undefined) return undefined;
      if (await accounts.holds(session, account)) return account;
      endSession(socket, SESSION_ENDED);
      return undefined;
    };
    /** Whose rooms these are, for quotas and the bot queue's turns: the account, else the address. */
    const ownerOf = (account: string | undefined): string => (account ? `account:${account}` : `address:${clientAddress(socket, trustProxy)}`);
    const seeks = new Set<string>();
    const handle = guard(socket, limit, log, metrics);
    const holdSeat = async <T extends { seat: { gameId: string; color: Color } | null }>(outcome: ServerResult<T>): Promise<ServerResult<T>> => {
      if (outcome.ok && outcome.value.seat) {
        const { gameId, color } = outcome.value.seat;
        await followGame(socket, gameId, [gameRoom(gameId), seatRoom(gameId, color)], service);
        spectators.changed(gameId); // the new player hears the count; a spectator who sat down is one fewer
      }
      return outcome;
    };

    handle('rooms:list', async (payload) => {
      await socket.join(LOBBY);
      return lobby.listRooms(payload);
    });
    tournamentPlayerHandlers(handle, socket, tournaments, tournamentRunner, signedIn);
    handle('room:create', async (payload) => {
      const account = await signedIn();
      const created = await service.createRoom(payload, { account, owner: ownerOf(account) });
      if (created.ok) await followGame(socket, created.value.gameId, [gameRoom(created.value.gameId)], service);
      return holdSeat(created);
    });
    handle('room:join', async (payload) => holdSeat(await service.join(payload, await signedIn())));
    handle('seek', async (payload) => {
      for (const seekId of seeks) {
        if (await matchmaker.waiting(seekId)) continue;
        seeks.delete(seekId); // paired (heard on whichever process) or dropped since
        await socket.leave(seekRoom(seekId));
      }
      if (seeks.size > 0) return { ok: false, error: { code: 'seek/too_many', message: 'This connection is already seeking a game; cancel that seek first.' } };
      const account = await signedIn();
      // In the seek's room before the seek can be paired: a pairing made at once is heard (before this answer).
      try {
        return await matchmaker.seek(payload, { account, owner: ownerOf(account) }, async (seekId) => {
          seeks.add(seekId);
          await socket.join(seekRoom(seekId));
        });
      } catch (error) {
        // The store failed: the connection may seek again, and a seek left in the pool, heard by no one, is dropped.
        for (const seekId of seeks) await socket.leave(seekRoom(seekId));
        seeks.clear();
        throw error;
      }
    });
    handle('seek:cancel', async (payload) => {
      const cancelled = await matchmaker.cancel(payload);
      seeks.clear();
      return cancelled;
    });
    handle('seek:bot', async (payload) => {
      const paired = await matchmaker.botInstead(payload);
      seeks.clear();
      if (!paired.ok) return paired;
      await followGame(socket, paired.value.gameId, [gameRoom(paired.value.gameId)], service);
      return holdSeat(accept(paired.value));
    });
    handle('room:resume', async (payload) => holdSeat(await service.resume(payload)));
    handle('room:watch', async (payload) => {
      const watched = await lobby.watch(payload);
      if (watched.ok) {
        await followGame(socket, watched.value.view.id, [gameRoom(watched.value.view.id), spectatorRoom(watched.value.view.id)], service);
        spectators.changed(watched.value.view.id);
      }
      return watched;
    });
    handle('room:sync', (payload) => lobby.watch(payload));
    handle('room:unwatch', async (payload) => {
      const request = parse(WatchSchema, payload);
      if (!request.ok) return request;
      // The game's events stop; a seat this connection holds is kept (its room tells presence).
      await Promise.all([socket.leave(gameRoom(request.value.gameId)), socket.leave(spectatorRoom(request.value.gameId))]);
      spectators.changed(request.value.gameId);
      return accept({});
    });
    handle('room:leave', (payload) => service.act('leave', payload));
    handle(
      'move',
      async (payload) => {
        const started = performance.now();
        const moved = await service.move(payload, undefined, socket.id);
        metrics.moveAck.observe((performance.now() - started) / 1000);
        return moved;
      },
      'refusals',
    );
    for (const action of GAME_ACTIONS) handle(action, (payload) => service.act(action, payload));
    handle('rematch', async (payload) => holdSeat(await service.rematch(payload, await signedIn())));
    handle('analysis:request', async (payload) => {
      // In the room before the job is queued, so no event of a quick analysis is missed.
      const gameId = typeof (payload as { gameId?: unknown } | null)?.gameId === 'string' ? (payload as { gameId: string }).gameId : undefined;
      if (gameId) await socket.join(analysisRoom(gameId));
      const asked = await analysis.request(payload, ownerOf(socket.data.account));
      if (gameId && (!asked.ok || asked.value.status.state !== 'pending')) await socket.leave(analysisRoom(gameId));
      return asked;
    });

    // The seats held are the seat rooms joined (by a seat taken, or given by a pairing), read while
    // the connection still has its rooms.
    let seats: SeatHeld[] = [];
    socket.on('disconnecting', () => {
      if (closing()) return;
      seats = heldSeats(socket.rooms);
      for (const gameId of SpectatorCount.watched(socket.rooms)) spectators.changed(gameId);
    });
    socket.on('disconnect', () => {
      metrics.connections.dec({ namespace: '/' });
      if (closing()) return; // a server going down is not its players leaving
      for (const seekId of seeks) void matchmaker.cancel({ seekId }).catch(() => undefined); // a seek ends with its connection
      for (const { gameId, color } of seats) {
        void (async () => {
          const others = await ns.in(seatRoom(gameId, color)).fetchSockets();
          if (others.length === 0) await service.connectionChanged(gameId, color, false);
        })().catch((error) => log.warn({ err: error, gameId }, 'could not mark a seat away'));
      }
    });
  });
}
