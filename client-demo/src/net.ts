import { io, type Socket } from 'socket.io-client';
import { PROTOCOL_VERSION, type Ack, type ClientToServerEvents, type ServerToClientEvents } from '../../shared/protocol/index.js';

export type PlayerSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
export type ConnectionState = 'connecting' | 'online' | 'reconnecting';

type AckOf<E extends keyof ClientToServerEvents> = Parameters<Parameters<ClientToServerEvents[E]>[1]>[0];

const REQUEST_TIMEOUT_MS = 10_000;

/**
 * The one connection to the default namespace (players and spectators). Socket.IO reconnects by
 * itself; pages listen to `onReconnect` to resume their seat or watch again.
 */
class Connection {
  readonly socket: PlayerSocket;
  state: ConnectionState = 'connecting';
  private everConnected = false;
  private readonly stateListeners = new Set<(state: ConnectionState) => void>();
  private readonly reconnectListeners = new Set<() => void>();

  constructor() {
    this.socket = io({ transports: ['websocket', 'polling'], reconnectionDelay: 500, reconnectionDelayMax: 4000, auth: { protocol: PROTOCOL_VERSION } });
    this.socket.on('connect', () => {
      const again = this.everConnected;
      this.everConnected = true;
      this.setState('online');
      if (again) for (const fn of this.reconnectListeners) fn();
    });
    this.socket.on('disconnect', () => this.setState('reconnecting'));
    this.socket.io.on('reconnect_attempt', () => this.setState('reconnecting'));
  }

  private setState(state: ConnectionState): void {
    this.state = state;
    for (const fn of this.stateListeners) fn(state);
  }

  onState(fn: (state: ConnectionState) => void): () => void {
    this.stateListeners.add(fn);
    fn(this.state);
    return () => this.stateListeners.delete(fn);
  }

  /** Called after a dropped connection comes back (not on the first connect). */
  onReconnect(fn: () => void): () => void {
    this.reconnectListeners.add(fn);
    return () => this.reconnectListeners.delete(fn);
  }

  /** A request with its acknowledgement; a timeout or a drop answers like a refusal. */
  async ask<E extends keyof ClientToServerEvents>(event: E, payload: unknown): Promise<AckOf<E>> {
    return askOn(this.socket as unknown as Socket, event, payload) as Promise<AckOf<E>>;
  }

  /** A new handshake, so the server reads the session cookie that signing in or out has just changed. */
  renew(): void {
    this.socket.disconnect();
    this.socket.connect();
  }

  on<E extends keyof ServerToClientEvents>(event: E, fn: ServerToClientEvents[E]): () => void {
    this.socket.on(event, fn as never);
    return () => this.socket.off(event, fn as never);
  }
}

export async function askOn<T>(socket: Socket, event: string, payload: unknown): Promise<Ack<T>> {
  try {
    return (await socket.timeout(REQUEST_TIMEOUT_MS).emitWithAck(event, payload)) as Ack<T>;
  } catch {
    return { ok: false, error: { code: 'server/busy', message: 'The server did not answer in time; check your connection.' } };
  }
}

let connection: Connection | undefined;

export function net(): Connection {
  connection ??= new Connection();
  return connection;
}

export async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { headers: { accept: 'application/json' } });
  const body = (await res.json()) as T & { ok?: boolean; error?: { message: string } };
  if (!res.ok || body.ok === false) throw new Error(body.error?.message ?? `${url}: HTTP ${res.status}`);
  return body;
}
