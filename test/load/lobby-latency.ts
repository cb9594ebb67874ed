import type { Ack } from '../../shared/protocol/index.js';
import { connect, percentile } from './client.js';

/** The p99 in ms of `samples` lobby pages (`rooms:list` of the open rooms) asked one after the other by one player. */
export async function lobbyPageP99(url: string, samples: number): Promise<number> {
  const socket = await connect(url);
  try {
    const times: number[] = [];
    for (let i = 0; i < samples; i++) {
      const sent = performance.now();
      const ack = (await socket.timeout(10_000).emitWithAck('rooms:list', { status: 'open' })) as Ack;
      if (!ack.ok) throw new Error(`rooms:list: ${ack.error.code} ${ack.error.message}`);
      times.push(performance.now() - sent);
    }
    return percentile(times, 99);
  } finally {
    socket.close();
  }
}
