import type { Namespace, Server, Socket } from 'socket.io';
import type {
  AdminClientToServerEvents,
  AdminServerToClientEvents,
  AgentClientToServerEvents,
  AgentServerToClientEvents,
  ClientToServerEvents,
  ServerToClientEvents,
} from '../../shared/protocol/index.js';

/** Web processes talk through the adapter's rooms, never by server-side events. */
export type NoServerEvents = Record<never, never>;

/** What a connection carries: the process holding it, and who it is once the handshake said so. */
export interface ConnectionData {
  /** The web process holding the connection (`Sweeper` asks it of every process's sockets). */
  instance?: string;
  /** A signed-in player's account (the default namespace). */
  account?: string;
  /** The key of that account's session (`Accounts.session`), asked again before each account request. */
  session?: string;
}

/** An agent's connection: the agent its token belongs to, set before the connection is accepted. */
export interface AgentConnectionData extends ConnectionData {
  agent: string;
}

/** The server, typed by the default namespace's event maps (`shared/protocol/events.ts`). */
export type BoardroomServer = Server<ClientToServerEvents, ServerToClientEvents, NoServerEvents, ConnectionData>;
export type PlayerNamespace = Namespace<ClientToServerEvents, ServerToClientEvents, NoServerEvents, ConnectionData>;
export type PlayerSocket = Socket<ClientToServerEvents, ServerToClientEvents, NoServerEvents, ConnectionData>;
export type AgentNamespace = Namespace<AgentClientToServerEvents, AgentServerToClientEvents, NoServerEvents, AgentConnectionData>;
export type AgentSocket = Socket<AgentClientToServerEvents, AgentServerToClientEvents, NoServerEvents, AgentConnectionData>;
export type AdminNamespace = Namespace<AdminClientToServerEvents, AdminServerToClientEvents, NoServerEvents, ConnectionData>;
export type AdminSocket = Socket<AdminClientToServerEvents, AdminServerToClientEvents, NoServerEvents, ConnectionData>;

// Socket.IO types every namespace by the server's maps; each of ours has its own, given here once.
export const playerNamespace = (io: BoardroomServer): PlayerNamespace => io.of('/');
export const agentNamespace = (io: BoardroomServer): AgentNamespace => io.of('/agent') as unknown as AgentNamespace;
export const adminNamespace = (io: BoardroomServer): AdminNamespace => io.of('/admin') as unknown as AdminNamespace;
