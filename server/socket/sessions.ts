import type { SessionEnded } from '../../shared/protocol/index.js';
import type { PlayerNamespace, PlayerSocket } from './namespaces.js';

/** The room of a session's connections, in every process: a sign-out reaches them all. */
export const sessionRoom = (key: string): string => `session:${key}`;

export const SESSION_ENDED: SessionEnded = { code: 'session/ended', message: 'You are signed out (here, on another page, or the session ran out): you play as a guest now. Sign in again for rated games.' };
export const SESSION_LOST: SessionEnded = {
  code: 'session/lost',
  message: 'The server’s storage restarted empty: accounts and sessions are gone, so you are signed out and play as a guest now. Sign up again for rated games.',
};

/**
 * The connection is a guest's from now. It is told, unless a sign-out already told it: that
 * reached it through its session room and took it out of it.
 */
export function endSession(socket: PlayerSocket, event: SessionEnded): void {
  const room = socket.data.session === undefined ? undefined : sessionRoom(socket.data.session);
  const told = room !== undefined && !socket.rooms.has(room);
  socket.data.account = undefined;
  socket.data.session = undefined;
  if (room) void socket.leave(room);
  if (!told) socket.emit('session:ended', event);
}

/**
 * A signed-out session's connections, in every process, are told now; each becomes a guest at its
 * next account request, when its session is asked again.
 */
export function announceSignOut(ns: PlayerNamespace, key: string): void {
  const room = sessionRoom(key);
  ns.to(room).emit('session:ended', SESSION_ENDED);
  ns.in(room).socketsLeave(room);
}

/** After the store came back empty: this process's signed-in connections are guests from now. */
export function endAllSessions(ns: PlayerNamespace): number {
  let ended = 0;
  for (const socket of ns.sockets.values()) {
    if (socket.data.account === undefined) continue;
    endSession(socket, SESSION_LOST);
    ended++;
  }
  return ended;
}
