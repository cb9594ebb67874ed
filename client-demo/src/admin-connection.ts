import { io, type Socket } from 'socket.io-client';
import { applyMoved, PROTOCOL_VERSION, type AdminPage, type AdminQuery, type GameView, type MovedEvent, type StoreEmptied, type ThinkingView } from '../../shared/protocol/index.js';
import { askOn, type ConnectionState } from './net.js';

export type AdminNews = { page?: true; view?: GameView; thinking?: ThinkingView; state?: true; storeEmptied?: true };
export type Opened = { view: GameView; thinking: ThinkingView | null };

/**
 * The admin namespace, kept across page changes. The server sends a page of the live-games table
 * once a second while it changes (`admin:page`) and the moves and thinking of the games this
 * console has opened; after a dropped connection it asks again for that page and those games only.
 */
export class AdminConnection {
  readonly socket: Socket;
  state: ConnectionState = 'connecting';
  authError: string | null = null;
  page: AdminPage | null = null;
  /** The server found its store empty: kept for as long as this connection, so the console keeps saying so. */
  storeEmptied: StoreEmptied | null = null;
  private query: Partial<AdminQuery> | null = null;
  /** Opened games and how many views of the page use each. */
  private readonly opened = new Map<string, number>();
  /** Their latest views, which moves (deltas) are applied to. */
  private readonly views = new Map<string, GameView>();
  private readonly listeners = new Set<(news: AdminNews) => void>();

  /** Authenticated by the admin session cookie (the token itself is never kept by the page). */
  constructor() {
    this.socket = io('/admin', { transports: ['websocket', 'polling'], reconnectionDelay: 500, reconnectionDelayMax: 4000, auth: { protocol: PROTOCOL_VERSION } });
    let connectedBefore = false;
    this.socket.on('connect', () => {
      this.setState('online');
      // Requests made before the first connection went out with it; after a drop, ask again.
      if (connectedBefore) {
        if (this.query) void this.list(this.query);
        for (const id of this.opened.keys()) void this.reopen(id);
      }
      connectedBefore = true;
    });
    this.socket.on('disconnect', () => this.setState('reconnecting'));
    this.socket.on('connect_error', (error: Error & { data?: { code?: string; message?: string } }) => {
      if (error.data?.code?.startsWith('auth/')) {
        this.authError = error.data.message ?? error.message;
        this.socket.disconnect();
      }
      this.setState('reconnecting');
    });
    this.socket.on('admin:page', (page: AdminPage) => {
      this.page = page;
      this.emit({ page: true });
    });
    this.socket.on('moved', (e: MovedEvent) => {
      const known = this.views.get(e.gameId);
      const next = known && applyMoved(known, e);
      if (next) return next !== known && this.setView(next);
      if (this.opened.has(e.gameId)) void this.reopen(e.gameId);
    });
    this.socket.on('state', (view: GameView) => this.setView(view));
    this.socket.on('ended', (e: { view: GameView }) => this.setView(e.view));
    this.socket.on('thinking', (thinking: ThinkingView) => this.emit({ thinking }));
    this.socket.on('store:emptied', (notice: StoreEmptied) => {
      this.storeEmptied = notice;
      this.emit({ storeEmptied: true });
    });
  }

  close(): void {
    this.socket.close();
  }

  on(fn: (news: AdminNews) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Follows the page of the table this query selects; the server keeps sending it. */
  async list(query: Partial<AdminQuery>): Promise<void> {
    this.query = query;
    const ack = await this.ask<{ page: AdminPage }>('admin:list', query);
    if (!ack.ok || this.query !== query) return;
    this.page = ack.page;
    this.emit({ page: true });
  }

  unlist(): void {
    this.query = null;
    if (this.socket.connected) void this.ask('admin:unlist', {});
  }

  /** Follows one game move by move until `closeGame`. */
  async open(gameId: string): Promise<Opened | string> {
    this.opened.set(gameId, (this.opened.get(gameId) ?? 0) + 1);
    const ack = await this.ask<Opened>('admin:open', { gameId });
    if (!ack.ok) return ack.error.message;
    this.views.set(gameId, ack.view);
    return { view: ack.view, thinking: ack.thinking };
  }

  /** The whole view again: after a reconnection, or a missed move. */
  private async reopen(gameId: string): Promise<void> {
    const ack = await this.ask<Opened>('admin:open', { gameId });
    if (ack.ok) this.setView(ack.view);
  }

  private setView(view: GameView): void {
    if (!this.opened.has(view.id)) return;
    const known = this.views.get(view.id);
    if (known && view.ply < known.ply) return;
    this.views.set(view.id, view);
    this.emit({ view });
  }

  closeGame(gameId: string): void {
    const left = (this.opened.get(gameId) ?? 1) - 1;
    if (left > 0) return void this.opened.set(gameId, left);
    this.opened.delete(gameId);
    this.views.delete(gameId);
    if (this.socket.connected) void this.ask('admin:close', { gameId });
  }

  ask<T>(event: string, payload: unknown) {
    return askOn<T>(this.socket, event, payload);
  }

  private emit(news: AdminNews): void {
    for (const fn of this.listeners) fn(news);
  }

  private setState(state: ConnectionState): void {
    this.state = state;
    this.emit({ state: true });
  }
}
