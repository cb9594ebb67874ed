import type { Socket } from 'socket.io';
import type { Ack, AckValue, ServerError } from '../../shared/protocol/index.js';
import type { ServerResult } from '../refuse.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics.js';
import { isStoreUnavailable } from '../store/store.js';

const WINDOW_MS = 10_000;

/** The answer while the store is out of reach: nothing was done; the same request may be sent again. */
export const STORE_UNAVAILABLE: ServerError = {
  code: 'server/unavailable',
  message: 'The game store cannot be reached just now; nothing was changed. Send the request again in a moment.',
  retryAfterMs: 1000,
};

/**
 * How a request is counted against the connection's rate: `messages` counts every request;
 * `refusals` counts a request while it runs and keeps counting it only if it was refused, so a
 * move made on one's own turn is never refused by the budget however fast the games go (each
 * accepted move needs a turn, which paces it).
 */
export type Budget = 'messages' | 'refusals';

/** A count of requests per 10 s window; `retryAfterMs` says when the window opens again. */
class Window {
  private start = Date.now();
  private used = 0;
  constructor(private readonly limit: number) {}

  private roll(): number {
    const now = Date.now();
    if (now - this.start >= WINDOW_MS) {
      this.start = now;
      this.used = 0;
    }
    return now;
  }

  full(): boolean {
    this.roll();
    return this.used >= this.limit;
  }

  count(): void {
    this.roll();
    this.used++;
  }

  refund(): void {
    this.used = Math.max(0, this.used - 1);
  }

  retryAfterMs(): number {
    return Math.max(1, this.start + WINDOW_MS - this.roll());
  }
}

/**
 * Registers request handlers on a socket: each request is counted against the connection's rate,
 * run, and always acknowledged with `{ ok: true, … }` or `{ ok: false, error: { code, message } }`.
 * A request of no registered name is answered `event/unknown`. A handler that throws is a bug:
 * it is logged and answered, and the server goes on.
 */
export function guard<Requests extends object>(typed: Socket<Requests, never>, limit: number, log: Logger, metrics: Metrics) {
  // The wire is untrusted: a request's arguments are read as unknown whatever the event map says.
  const socket = typed as unknown as Socket;
  const messages = new Window(limit);
  const refusals = new Window(limit);
  const known = new Set<string>();

  const reply = <T>(ack: ((a: Ack<T>) => void) | undefined, a: Ack<T>): void => {
    if (!a.ok) metrics.rejections.inc({ code: a.error.code });
    ack?.(a);
  };
  const limited = (window: Window, what: string): ServerError => ({
    code: 'rate/limited',
    message: `More than ${limit} ${what} in 10 s: slow down.`,
    retryAfterMs: window.retryAfterMs(),
  });

  socket.onAny((event: string, ...args: unknown[]) => {
    if (known.has(event)) return;
    const ack = typeof args.at(-1) === 'function' ? (args.at(-1) as (a: Ack) => void) : undefined;
    if (messages.full()) return reply(ack, { ok: false, error: limited(messages, 'messages') });
    messages.count();
    reply(ack, { ok: false, error: { code: 'event/unknown', message: `There is no request "${String(event).slice(0, 40)}" here; PROTOCOL.md lists them.` } });
  });

  /** `event` must be a request of the namespace's map, and `run` must answer what its acknowledgement carries. */
  return function handle<E extends keyof Requests & string, T extends AckValue<Requests[E]> & object>(event: E, run: (payload: unknown) => Promise<ServerResult<T>>, budget: Budget = 'messages'): void {
    known.add(event);
    const window = budget === 'messages' ? messages : refusals;
    socket.on(event as string, async (...args: unknown[]) => {
      const ack = typeof args.at(-1) === 'function' ? (args.at(-1) as (a: Ack<T>) => void) : undefined;
      const payload = args.length > (ack ? 1 : 0) ? args[0] : undefined;
      if (window.full()) return reply(ack, { ok: false, error: limited(window, budget === 'messages' ? 'messages' : 'refused requests') });
      window.count(); // counted while in flight, so a burst cannot outrun the budget
      try {
        const outcome = await run(payload);
        if (outcome.ok && budget === 'refusals') window.refund();
        reply(ack, outcome.ok ? ({ ok: true, ...outcome.value } as Ack<T>) : { ok: false, error: outcome.error });
      } catch (error) {
        if (isStoreUnavailable(error)) {
          log.warn({ event, err: (error as Error).message }, 'request refused: the store is out of reach');
          return reply(ack, { ok: false, error: STORE_UNAVAILABLE });
        }
        log.error({ err: error, event }, 'request handler failed');
        reply(ack, { ok: false, error: { code: 'server/busy', message: 'The server could not handle this request; try again.' } });
      }
    });
  };
}
