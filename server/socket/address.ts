import type { Socket } from 'socket.io';

/**
 * The client's address: the socket's peer, or with `trustProxy` proxies in front, the address
 * the outermost trusted proxy saw (X-Forwarded-For read from the right), as Express reads it.
 */
export function clientAddress(socket: Pick<Socket, 'handshake'>, trustProxy: number): string {
  const forwarded = socket.handshake.headers['x-forwarded-for'];
  if (trustProxy > 0 && typeof forwarded === 'string') {
    const hops = forwarded.split(',').map((a) => a.trim()).filter(Boolean);
    const seen = hops[Math.max(0, hops.length - trustProxy)];
    if (seen) return seen;
  }
  return socket.handshake.address;
}
