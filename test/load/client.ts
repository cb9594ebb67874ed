import { io, type Socket } from 'socket.io-client';
import { PROTOCOL_VERSION } from '../../shared/protocol/index.js';

/** What the load tools need of a running server: connections, its own figures, percentiles. */

/** A connection speaking this protocol version, which reconnects by itself only when asked to. */
export function connect(url: string, namespace = '/', auth: Record<string, string> = {}, reconnection = false): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = io(url + namespace, { transports: ['websocket'], reconnection, forceNew: true, auth: { protocol: PROTOCOL_VERSION, ...auth } });
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/** The server process's CPU seconds and resident memory, from its /metrics. */
export async function readUsage(url: string): Promise<{ cpu: number; rss: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const read = (name: string): number => Number(new RegExp(`^${name} ([0-9.e+]+)`, 'm').exec(text)?.[1] ?? NaN);
  return { cpu: read('boardroom_process_cpu_seconds_total'), rss: read('boardroom_process_resident_memory_bytes') };
}

/** The p-th percentile of the values (sorted here), to a tenth. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round((sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN) * 10) / 10;
}
