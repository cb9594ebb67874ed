import { applyMoved, type Ack, type GameView, type MovedEvent } from '../../shared/protocol/index.js';
import { Client } from './server.js';

/** A move some player heard acknowledged, and when. */
export interface Acked {
  readonly gameId: string;
  readonly ply: number;
  readonly move: string;
  /** When the move was sent, and when its acknowledgement came. */
  readonly asked: number;
  readonly at: number;
}

export interface Seat {
  readonly gameId: string;
  readonly color: 'black' | 'white';
  readonly token: string;
}

export interface PlayOptions {
  /** The connection the seat was taken on; a new one is opened when it fails. */
  readonly client: Client;
  /** Which web process that connection went to: a new one tries the next first. */
  readonly server: number;
  readonly cookie?: string;
  /** After this many of its own moves, the seat resigns. */
  readonly resignAfter?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * People who play random legal moves on several web processes, as real clients would through a
 * fault: a refused or unanswered request makes them read the game again (`room:resume`, on a new
 * connection if theirs failed) and go on from what the server has. Every move acknowledged to
 * any of them is kept in `acked`.
 */
export class RandomPlayers {
  readonly acked: Acked[] = [];
  /** Refusals heard, by code. */
  readonly refused = new Map<string, number>();
  /** Every refusal: what was asked in which game, when it was asked and answered. */
  readonly refusals: { gameId: string; event: string; code: string; message: string; asked: number; at: number }[] = [];
  private readonly opened = new Set<Client>();
  /** Players stop at this time even if their game goes on. */
  deadline = Infinity;
  /**
   * Games a waiting player found moved on only by reading them again after `patienceMs` of silence:
   * an event it never heard, which would leave a real client waiting.
   */
  readonly unheard: { gameId: string; ply: number; at: number }[] = [];

  constructor(
    private readonly urls: readonly string[],
    private readonly random: () => number,
    private readonly paceMs: readonly [number, number] = [20, 60],
    /** How long a waiting player hears nothing before it reads the game again. */
    private readonly patienceMs = 300,
  ) {}

  /** A connection to the `first` web process, or the next one that answers. */
  async connect(first: number, cookie?: string): Promise<Client> {
    for (let tries = 0; ; tries++) {
      const client = new Client(this.urls[(first + tries) % this.urls.length]!, '/', undefined, cookie);
      this.opened.add(client);
      try {
        return await client.connected();
      } catch (error) {
        client.close();
        this.opened.delete(client);
        if (tries >= 20) throw error;
        await sleep(200);
      }
    }
  }

  /** Plays the seat until its game ends or the deadline passes; the last view the player had. */
  async play(seat: Seat, options: PlayOptions): Promise<GameView | undefined> {
    const { gameId, token, color } = seat;
    let client = options.client;
    let server = options.server;
    let view: GameView | undefined;
    const follow = (c: Client) => {
      c.socket.on('moved', (e: MovedEvent) => {
        if (e.gameId === gameId && view) view = applyMoved(view, e) ?? view;
      });
      c.socket.on('ended', (e: { view: GameView }) => {
        if (e.view.id === gameId) view = e.view;
      });
      c.socket.on('state', (v: GameView) => {
        if (v.id === gameId && (!view || v.ply >= view.ply)) view = v;
      });
    };
    follow(client);
    const ask = async <T>(event: string, payload: unknown): Promise<Ack<T>> => {
      const asked = Date.now();
      const ack = await client.ask<T>(event, payload).catch((error: unknown): Ack<T> => ({ ok: false, error: { code: 'client/no-answer' as never, message: String(error) } }));
      if (!ack.ok) {
        this.refused.set(ack.error.code, (this.refused.get(ack.error.code) ?? 0) + 1);
        this.refusals.push({ gameId, event, code: ack.error.code, message: ack.error.message, asked, at: Date.now() });
      }
      return ack;
    };
    const resync = async (): Promise<void> => {
      while (Date.now() < this.deadline) {
        if (!client.socket.connected) {
          client.close();
          client = await this.connect(++server, options.cookie);
          follow(client);
        }
        const ack = await ask<{ view: GameView }>('room:resume', { gameId, token });
        if (ack.ok) return void (view = ack.view);
        await sleep(100);
      }
    };
    await resync();
    let mine = 0;
    while (view && view.status !== 'finished' && Date.now() < this.deadline) {
      if (view.status !== 'live' || view.toMove !== color || view.legal.length === 0) {
        const seen = view;
        for (let waited = 0; waited < this.patienceMs && view === seen; waited += 20) await sleep(20);
        if (view === seen) {
          await resync();
          if (view && (view.ply > seen.ply || view.status !== seen.status)) this.unheard.push({ gameId, ply: view.ply, at: Date.now() });
        }
        continue;
      }
      const [least, most] = this.paceMs;
      await sleep(least + this.random() * (most - least));
      // The view may have changed while this player thought (the game ended, or the turn passed).
      if (view.status !== 'live' || view.toMove !== color || view.legal.length === 0) continue;
      if (options.resignAfter !== undefined && mine >= options.resignAfter) {
        await ask('resign', { gameId, token });
        await resync();
        continue;
      }
      const ply = view.ply;
      const move = view.legal[Math.floor(this.random() * view.legal.length)]!;
      const asked = Date.now();
      const ack = await ask<{ moved: MovedEvent }>('move', { gameId, token, ply, move });
      if (ack.ok) {
        this.acked.push({ gameId, ply, move, asked, at: Date.now() });
        mine++;
        view = applyMoved(view, ack.moved) ?? view;
      } else await resync();
    }
    client.close();
    return view;
  }

  closeAll(): void {
    for (const client of this.opened) client.close();
    this.opened.clear();
  }
}

/** The acknowledged moves a game's stored moves do not hold at their ply. */
export function lostMoves(acked: readonly Acked[], storedMoves: ReadonlyMap<string, readonly string[]>): Acked[] {
  return acked.filter((a) => storedMoves.get(a.gameId)?.[a.ply] !== a.move);
}
