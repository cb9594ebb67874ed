import type { Namespace, Socket } from 'socket.io';
import type { Color } from '../../shared/color.js';
import { WatchSchema } from '../../shared/protocol/index.js';
import type { GameService } from '../games/service.js';
import { accept, parse, type Outcome } from '../games/refuse.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics.js';
import { gameRoom, LOBBY, seatRoom, spectatorRoom } from './broadcaster.js';
import { guard } from './guard.js';

interface SeatHeld {
  readonly gameId: string;
  readonly color: Color;
}

/**
 * The default namespace: players and spectators. A socket that takes or resumes a seat joins the
 * game's room and the seat's room; when the seat's last socket goes, the seat is marked away.
 */
export function attachPlayers(ns: Namespace, service: GameService, limit: number, log: Logger, metrics: Metrics, closing: () => boolean): void {
  ns.on('connection', (socket: Socket) => {
    metrics.connections.inc({ namespace: '/' });
    const seats: SeatHeld[] = [];
    const handle = guard(socket, limit, log, metrics);
    const holdSeat = async <T extends { seat: { gameId: string; color: Color } | null }>(outcome: Outcome<T>): Promise<Outcome<T>> => {
      if (outcome.ok && outcome.value.seat) {
        const { gameId, color } = outcome.value.seat;
        await socket.join([gameRoom(gameId), seatRoom(gameId, color)]);
        if (!seats.some((s) => s.gameId === gameId && s.color === color)) seats.push({ gameId, color });
      }
      return outcome;
    };

    handle('rooms:list', async (payload) => {
      await socket.join(LOBBY);
      return service.listRooms(payload);
    });
    handle('room:create', async (payload) => {
      const created = await service.createRoom(payload);
      if (created.ok) await socket.join(gameRoom(created.value.gameId));
      return holdSeat(created);
    });
    handle('room:join', async (payload) => holdSeat(await service.join(payload)));
    handle('room:resume', async (payload) => holdSeat(await service.resume(payload)));
    handle('room:watch', async (payload) => {
      const watched = await service.watch(payload);
      if (watched.ok) await socket.join([gameRoom(watched.value.view.id), spectatorRoom(watched.value.view.id)]);
      return watched;
    });
    handle('room:unwatch', async (payload) => {
      const request = parse(WatchSchema, payload);
      if (!request.ok) return request;
      // The game's events stop; a seat this connection holds is kept (its room tells presence).
      await Promise.all([socket.leave(gameRoom(request.value.gameId)), socket.leave(spectatorRoom(request.value.gameId))]);
      return accept({});
    });
    handle('room:leave', (payload) => service.leave(payload));
    handle(
      'move',
      async (payload) => {
        const started = performance.now();
        const moved = await service.move(payload);
        metrics.moveAck.observe((performance.now() - started) / 1000);
        return moved;
      },
      'refusals',
    );
    handle('resign', (payload) => service.resign(payload));
    handle('draw:offer', (payload) => service.offerDraw(payload));
    handle('draw:accept', (payload) => service.acceptDraw(payload));
    handle('draw:decline', (payload) => service.declineDraw(payload));
    handle('rematch', async (payload) => holdSeat(await service.rematch(payload)));

    socket.on('disconnect', () => {
      metrics.connections.dec({ namespace: '/' });
      if (closing()) return; // a server going down is not its players leaving
      for (const { gameId, color } of seats) {
        void (async () => {
          const others = await ns.in(seatRoom(gameId, color)).fetchSockets();
          if (others.length === 0) await service.connectionChanged(gameId, color, false);
        })().catch((error) => log.warn({ err: error, gameId }, 'could not mark a seat away'));
      }
    });
  });
}
