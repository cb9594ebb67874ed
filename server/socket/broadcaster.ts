import type { Namespace } from 'socket.io';
import type { Color } from '../../shared/color.js';
import type { AgentTurn, ChallengeOffer, GameView, MovedEvent, RoomSummary, ThinkingView } from '../../shared/protocol/index.js';
import type { Broadcaster } from '../games/ports.js';
import type { MoveRelay } from './move-relay.js';
import { adminNamespace, agentNamespace, type AdminNamespace, type AgentNamespace, type BoardroomServer } from './namespaces.js';

/**
 * A game's room carries its id as a hash tag, as its keys do: on a cluster, the adapter's channel
 * for the room is then in the game's slot, on the game's master, and no other master's failover
 * stops the game's news.
 */
export const gameRoom = (gameId: string): string => `game:{${gameId}}`;
/** The game whose room this is, if it is a game's room. */
export const gameOfRoom = (room: string): string | undefined => /^game:\{(.+)\}$/.exec(room)?.[1];
export const seatRoom = (gameId: string, color: string): string => `seat:${gameId}:${color}`;
/** The seats whose rooms a connection is in. */
export const heldSeats = (rooms: Iterable<string>): { gameId: string; color: Color }[] =>
  [...rooms].flatMap((room) => {
    const held = /^seat:(.+):(black|white)$/.exec(room);
    return held ? [{ gameId: held[1]!, color: held[2] as Color }] : [];
  });
/** Spectators only: a seated player never receives the bots' thinking. */
export const spectatorRoom = (gameId: string): string => `spectate:${gameId}`;
export const agentRoom = (agent: string): string => `agent:${agent}`;
/** The connection waiting in quick pairing: it hears `seek:paired` there, from whichever process pairs it. */
export const seekRoom = (seekId: string): string => `seek:${seekId}`;
/** The connections that asked for a game's analysis and wait for it. */
export const analysisRoom = (gameId: string): string => `analysis:${gameId}`;
export const LOBBY = 'lobby';
/** Bot thinking reaches spectators and admins at most once per this many ms per game; the latest wins. */
export const THINKING_EVERY_MS = 250;
/** Thinking older than this is forgotten (its game moved on in another process). */
const THINKING_KEPT_MS = 120_000;
const seatRooms = (gameId: string): string[] => [seatRoom(gameId, 'black'), seatRoom(gameId, 'white')];
/** Every room a connection may hold for a game: the game's, its seats', its spectators'. */
export const roomsOfGame = (gameId: string): string[] => [gameRoom(gameId), ...seatRooms(gameId), spectatorRoom(gameId)];

/**
 * Whether a socket of this process other than `except` is in the namespace's room: an emit to a
 * room no one is in still encodes its packet, and most games have no agent and no admin watching.
 */
function heardBy(ns: Namespace, room: string, except?: string): boolean {
  const members = ns.adapter.rooms.get(room);
  return members !== undefined && members.size > (except !== undefined && members.has(except) ? 1 : 0);
}

/**
 * Socket.IO rooms: a game's players and spectators, the lobby, each agent, and in the admin
 * namespace the admins following a game (`admin:open`); admins follow the rest through the
 * live table's pages. Moves and state go through the adapter (every process's sockets); bot
 * thinking reaches every process from the queue already, so each process sends it to its own
 * sockets only, at most once per THINKING_EVERY_MS per game.
 */
export class SocketBroadcaster implements Broadcaster {
  /** The latest thinking per live game seen by this process, and when it came. */
  private readonly latest = new Map<string, { view: ThinkingView; at: number }>();
  /** Per game, while a window is open: the thinking to send when it closes, if any came. */
  private readonly windows = new Map<string, { pending: { view: ThinkingView; toSpectators: boolean } | null; timer: NodeJS.Timeout }>();
  private sinceSweep = 0;
  /** Sends waiting for the end of this turn of the event loop, in the order they were made. */
  private readonly outbox: (() => void)[] = [];

  private readonly agents: AgentNamespace;
  private readonly admins: AdminNamespace;

  /** `relay`: how moves reach the other web processes (none in the embedded mode). */
  constructor(
    private readonly io: BoardroomServer,
    private readonly relay?: MoveRelay,
  ) {
    this.agents = agentNamespace(io);
    this.admins = adminNamespace(io);
  }

  moved(event: MovedEvent, origin?: string): void {
    this.relay?.publish(event);
    this.movedHere(event, origin);
  }

  /**
   * Everything sent to sockets waits for the end of the current turn of the event loop, in order:
   * the mover's acknowledgement leaves first, not behind the writes to a thousand spectators.
   */
  private later(send: () => void): void {
    this.outbox.push(send);
    if (this.outbox.length === 1) setImmediate(() => this.flush());
  }

  private flush(): void {
    const sends = this.outbox.splice(0);
    for (const send of sends) send();
  }

  /**
   * A move, to this process's sockets in the game's rooms of the three namespaces; the mover's own
   * connection (`origin`) has it in its acknowledgement already, and is spared the frame.
   */
  movedHere(event: MovedEvent, origin?: string): void {
    this.forgetThinking(event.gameId);
    const room = gameRoom(event.gameId);
    this.later(() => {
      if (heardBy(this.io.sockets, room, origin)) (origin === undefined ? this.io.local.to(room) : this.io.local.to(room).except(origin)).emit('moved', event);
      if (heardBy(this.agents, room)) this.agents.local.to(room).emit('moved', event);
      if (heardBy(this.admins, room)) this.admins.local.to(room).emit('moved', event);
    });
  }

  state(view: GameView): void {
    this.later(() => {
      this.io.to(gameRoom(view.id)).emit('state', view);
      this.agents.to(gameRoom(view.id)).emit('state', view);
      this.admins.to(gameRoom(view.id)).emit('state', view);
    });
  }

  ended(view: GameView): void {
    this.forgetThinking(view.id);
    const event = { gameId: view.id, result: view.result!, view };
    // The seated agents hear the end even if the game ended before their socket joined its room.
    const seated = [view.seats.black, view.seats.white].filter((s) => s.kind === 'agent' && s.name).map((s) => agentRoom(s.name!));
    this.later(() => {
      this.io.to(gameRoom(view.id)).emit('ended', event);
      this.agents.to([gameRoom(view.id), ...seated]).emit('ended', event);
      this.admins.to(gameRoom(view.id)).emit('ended', event);
    });
  }

  /** A bot's latest thinking in the game, for the admin console. */
  latestThinking(gameId: string): ThinkingView | undefined {
    return this.latest.get(gameId)?.view;
  }

  /** Sent at once if the game's window is closed; otherwise kept (replacing older) until it closes. */
  thinking(view: ThinkingView, toSpectators: boolean): void {
    const now = Date.now();
    this.latest.set(view.gameId, { view, at: now });
    if (++this.sinceSweep >= 1000) this.sweepThinking(now);
    const open = this.windows.get(view.gameId);
    if (open) {
      open.pending = { view, toSpectators };
      return;
    }
    this.sendThinking(view, toSpectators);
    this.openWindow(view.gameId);
  }

  private openWindow(gameId: string): void {
    const timer = setTimeout(() => {
      const window = this.windows.get(gameId);
      this.windows.delete(gameId);
      if (!window?.pending) return;
      this.sendThinking(window.pending.view, window.pending.toSpectators);
      this.openWindow(gameId);
    }, THINKING_EVERY_MS);
    timer.unref();
    this.windows.set(gameId, { pending: null, timer });
  }

  private sendThinking(view: ThinkingView, toSpectators: boolean): void {
    this.later(() => {
      if (toSpectators) this.io.local.to(spectatorRoom(view.gameId)).except(seatRooms(view.gameId)).emit('thinking', view);
      this.admins.local.to(gameRoom(view.gameId)).emit('thinking', view);
    });
  }

  /** A move or the end makes the game's thinking stale: none of it is sent any more. */
  private forgetThinking(gameId: string): void {
    this.latest.delete(gameId);
    const window = this.windows.get(gameId);
    if (window) window.pending = null;
  }

  private sweepThinking(now: number): void {
    this.sinceSweep = 0;
    for (const [id, { at }] of this.latest) if (now - at >= THINKING_KEPT_MS) this.latest.delete(id);
  }

  roomChanged(summary: RoomSummary): void {
    this.later(() => {
      this.io.to(LOBBY).emit('rooms:changed', summary);
      this.agents.to(LOBBY).emit('rooms:changed', summary);
    });
  }

  agentTurn(agent: string, turn: AgentTurn): void {
    this.later(() => this.agents.to(agentRoom(agent)).emit('turn', turn));
  }

  challenge(agent: string, challenge: ChallengeOffer): void {
    this.later(() => this.agents.to(agentRoom(agent)).emit('challenge', challenge));
  }

  challengeDeclined(agent: string, event: { gameId: string; by: string }): void {
    this.later(() => this.agents.to(agentRoom(agent)).emit('challenge:declined', event));
  }

  /** Closes every connection of an agent whose token was rotated or revoked, in every process. */
  dropAgent(agent: string): void {
    this.agents.in(agentRoom(agent)).disconnectSockets();
  }
}
