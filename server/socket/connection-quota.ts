import type { Quotas } from '../quotas.js';
import type { PlatformStore } from '../store/platform.js';
import { clientAddress } from './address.js';
import { authError } from './agents.js';
import type { PlayerSocket } from './namespaces.js';

export interface ConnectionQuotaDeps {
  readonly quotas: Quotas;
  readonly platform: PlatformStore;
  /** This process: its connections are counted under its name. */
  readonly instance: string;
  /** The server processes whose lease runs, this one among them. */
  readonly liveInstances: () => Promise<string[]>;
  readonly trustProxy: number;
  readonly onError: (error: unknown) => void;
}

type Connecting = Pick<PlayerSocket, 'handshake'>;
type Connected = Pick<PlayerSocket, 'handshake' | 'connected'> & { once(event: 'disconnect', listener: () => void): unknown };

/** What is asked of a namespace (players' or agents'). */
interface Gate {
  use(middleware: (socket: Connecting, next: (err?: Error) => void) => void): unknown;
  on(event: 'connection', listener: (socket: Connected) => void): unknown;
}

/**
 * Connections per address, counted per process and summed over the live ones. The handshake is
 * refused at the limit before any later check; a connection counts from its `connection` event to
 * its `disconnect`, the only pair Socket.IO promises, so a handshake refused later (a bad token) or
 * abandoned by the client midway is never counted.
 */
export function limitConnections(ns: Gate, deps: ConnectionQuotaDeps): void {
  const { quotas, platform, instance, trustProxy, onError } = deps;
  ns.use((socket: Connecting, next: (err?: Error) => void) => {
    void (async () => {
      const allowed = await quotas.mayConnect(clientAddress(socket, trustProxy), await deps.liveInstances());
      next(allowed.ok ? undefined : authError(allowed.error.code, allowed.error.message));
    })().catch(() => next()); // the store is away: the connection is let in, and its requests say so
  });
  ns.on('connection', (socket: Connected) => {
    const address = clientAddress(socket, trustProxy);
    const release = (): void => void platform.countConnection(instance, address, -1).catch(onError);
    platform.countConnection(instance, address, 1).then(
      () => (socket.connected ? socket.once('disconnect', release) : release()),
      () => undefined, // the store is away: uncounted, as it was let in
    );
  });
}
