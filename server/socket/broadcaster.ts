import type { Server } from 'socket.io';
import type { AgentTurn, ChallengeOffer, GameView, MovedEvent, RoomSummary, ThinkingView } from '../../shared/protocol/index.js';
import type { Broadcaster } from '../games/ports.js';

export const gameRoom = (gameId: string): string => `game:${gameId}`;
export const seatRoom = (gameId: string, color: string): string => `seat:${gameId}:${color}`;
/** Spectators only: a seated player never receives the bots' thinking. */
export const spectatorRoom = (gameId: string): string => `spectate:${gameId}`;
export const agentRoom = (agent: string): string => `agent:${agent}`;
/** The connection waiting in quick pairing: it hears `seek:paired` there, from whichever process pairs it. */
export const seekRoom = (seekId: string): string => `seek:${seekId}`;
export const LOBBY = 'lobby';
/**
 * Every admin socket joins this room. Broadcasting to a room rather than to the whole namespace
 * lets the Redis adapter of a process with no admin skip decoding the message.
 */
export const ADMINS = 'admins';
const seatRooms = (gameId: string): string[] => [seatRoom(gameId, 'black'), seatRoom(gameId, 'white')];

/**
 * Socket.IO rooms: a game's players and spectators, the lobby, every admin, and each agent.
 * Moves and state go through the adapter (every process's sockets); bot thinking reaches every
 * process from the queue already, so each process sends it to its own sockets only.
 */
export class SocketBroadcaster implements Broadcaster {
  /** The latest thinking per live game seen by this process, for the admin console. */
  readonly latestThinking = new Map<string, ThinkingView>();

  constructor(private readonly io: Server) {}

  moved(event: MovedEvent): void {
    this.latestThinking.delete(event.gameId);
    this.io.to(gameRoom(event.gameId)).emit('moved', event);
    this.io.of('/agent').to(gameRoom(event.gameId)).emit('moved', event);
    this.io.of('/admin').to(ADMINS).emit('moved', event);
  }

  state(view: GameView): void {
    this.io.to(gameRoom(view.id)).emit('state', view);
    this.io.of('/agent').to(gameRoom(view.id)).emit('state', view);
    this.io.of('/admin').to(ADMINS).emit('state', view);
  }

  ended(view: GameView): void {
    this.latestThinking.delete(view.id);
    const event = { gameId: view.id, result: view.result!, view };
    this.io.to(gameRoom(view.id)).emit('ended', event);
    // The seated agents hear the end even if the game ended before their socket joined its room.
    const seated = [view.seats.black, view.seats.white].filter((s) => s.kind === 'agent' && s.name).map((s) => agentRoom(s.name!));
    this.io.of('/agent').to([gameRoom(view.id), ...seated]).emit('ended', event);
    this.io.of('/admin').to(ADMINS).emit('ended', event);
  }

  thinking(view: ThinkingView, toSpectators: boolean): void {
    this.latestThinking.set(view.gameId, view);
    if (toSpectators) this.io.local.to(spectatorRoom(view.gameId)).except(seatRooms(view.gameId)).emit('thinking', view);
    this.io.of('/admin').local.to(ADMINS).emit('thinking', view);
  }

  roomChanged(summary: RoomSummary): void {
    this.io.to(LOBBY).emit('rooms:changed', summary);
    this.io.of('/agent').to(LOBBY).emit('rooms:changed', summary);
    this.io.of('/admin').to(ADMINS).emit('rooms:changed', summary);
  }

  agentTurn(agent: string, turn: AgentTurn): void {
    this.io.of('/agent').to(agentRoom(agent)).emit('turn', turn);
  }

  challenge(agent: string, challenge: ChallengeOffer): void {
    this.io.of('/agent').to(agentRoom(agent)).emit('challenge', challenge);
  }

  challengeDeclined(agent: string, event: { gameId: string; by: string }): void {
    this.io.of('/agent').to(agentRoom(agent)).emit('challenge:declined', event);
  }

  /** Closes every connection of an agent whose token was rotated or revoked, in every process. */
  dropAgent(agent: string): void {
    this.io.of('/agent').in(agentRoom(agent)).disconnectSockets();
  }
}
