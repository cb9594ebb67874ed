import type { AdminPage, AdminQuery } from '../../shared/protocol/index.js';
import { TABLE_READ_MS, type LiveTable } from './live-table.js';

/** Where a page goes: an admin socket in production, a recorder in tests. */
export interface PageSink {
  send(page: AdminPage): void;
}

/**
 * Each admin's page of the live table, sent again once per TABLE_READ_MS while it changes. The
 * bytes reaching one admin are its rows (at most ADMIN_PAGE_MAX, about 300 bytes each) plus the
 * summary, once a second: they do not grow with the number of games.
 */
export class AdminFeed {
  private readonly pages = new Map<PageSink, { query: AdminQuery; last: string }>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(
    private readonly table: LiveTable,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Starts (or changes) the page an admin follows; answers its first page at once. */
  async follow(sink: PageSink, query: AdminQuery): Promise<AdminPage> {
    const page = await this.table.page(query);
    this.pages.set(sink, { query, last: fingerprint(page) });
    this.timer ??= setInterval(() => void this.push(), TABLE_READ_MS);
    this.timer.unref?.();
    return page;
  }

  unfollow(sink: PageSink): void {
    this.pages.delete(sink);
    if (this.pages.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  get followers(): number {
    return this.pages.size;
  }

  /** One fresh reading for all, then each admin's page if it changed since the last one it got. */
  async push(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await this.table.fresh();
      for (const [sink, followed] of this.pages) {
        const page = await this.table.page(followed.query);
        const print = fingerprint(page);
        if (print === followed.last || this.pages.get(sink) !== followed) continue;
        followed.last = print;
        sink.send(page);
      }
    } catch (error) {
      this.onError(error);
    } finally {
      this.running = false;
    }
  }

  close(): void {
    this.pages.clear();
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** What the admin sees: a page whose rows and figures are unchanged is not sent again. */
function fingerprint(page: AdminPage): string {
  return JSON.stringify([page.total, page.rows, page.summary]);
}
