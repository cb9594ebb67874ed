import { lobbyOrder, lobbyRoom, makeCursor, matchesLobbyFilter, readCursor, type GameStatus, type LobbyFilter, type RoomSummary } from '../../../shared/protocol/index.js';
import { h, replace, toast } from '../dom.js';
import type { net } from '../net.js';

const TEST_IDS: Record<GameStatus, string> = { waiting: 'rooms-open', live: 'rooms-live', finished: 'rooms-finished' };

/**
 * One status's rooms in pages, as the server cuts them (`rooms:list`): Prev and Next walk the
 * cursors, the count is the server's. A `rooms:changed` is applied to the page shown: a room on it
 * is redrawn (or leaves it when it no longer matches); a matching room that is new to the page
 * takes its place in the order when it falls within the page.
 */
export class RoomPages {
  readonly list: HTMLUListElement;
  readonly count = h('span', { class: 'pill count-pill' });
  readonly pager: HTMLElement;
  private rooms: RoomSummary[] = [];
  private total = 0;
  private next: string | null = null;
  /** The cursor each page shown before this one started from (the first: none). */
  private readonly back: (string | undefined)[] = [];
  private cursor: string | undefined;
  private filter: LobbyFilter = {};
  private asked = 0;
  private readonly prev = h('button', { class: 'btn small', type: 'button', 'aria-label': 'previous page' }, '‹ Prev');
  private readonly forward = h('button', { class: 'btn small', type: 'button', 'aria-label': 'next page' }, 'Next ›');
  private readonly range = h('span', { class: 'muted' });

  constructor(
    private readonly conn: ReturnType<typeof net>,
    private readonly status: GameStatus,
    private readonly limit: number,
    private readonly item: (room: RoomSummary) => HTMLElement,
    private readonly empty: string,
  ) {
    this.list = h('ul', { class: 'rooms', 'data-testid': TEST_IDS[status] });
    this.prev.dataset.testid = `${TEST_IDS[status]}-prev`;
    this.forward.dataset.testid = `${TEST_IDS[status]}-next`;
    this.prev.addEventListener('click', () => void this.load(this.back.pop(), false));
    this.forward.addEventListener('click', () => {
      if (this.next === null) return;
      this.back.push(this.cursor);
      void this.load(this.next, false);
    });
    this.pager = h('div', { class: 'pager room-pager' }, this.prev, this.range, this.forward);
  }

  /** Shows the first page of rooms matching `filter`. */
  show(filter: LobbyFilter): Promise<void> {
    this.filter = filter;
    this.back.length = 0;
    return this.load(undefined, true);
  }

  /** The page shown, asked again (after a reconnect). */
  reload(): Promise<void> {
    return this.load(this.cursor, false);
  }

  apply(room: RoomSummary): void {
    const at = this.rooms.findIndex((r) => r.id === room.id);
    const belongs = room.status === this.status && matchesLobbyFilter(lobbyRoom(room), this.filter);
    if (at >= 0) {
      if (belongs) this.rooms[at] = room;
      else {
        this.rooms.splice(at, 1);
        this.total--;
      }
    } else if (belongs) {
      this.total++;
      const order = lobbyOrder('newest');
      const last = this.rooms.at(-1);
      const afterStart = this.cursor === undefined || order(room, readCursor(this.cursor)) > 0;
      const beforeEnd = this.next === null || (last !== undefined && order(room, last) < 0);
      if (afterStart && beforeEnd) {
        this.rooms = [...this.rooms, room].sort(order);
        if (this.rooms.length > this.limit) {
          this.rooms.length = this.limit;
          this.next = makeCursor(this.rooms.at(-1)!);
        }
      }
    }
    this.render();
  }

  /** Redraws the rows (their "min ago" too). */
  render(): void {
    replace(this.list, ...(this.rooms.length ? this.rooms.map(this.item) : [h('li', { class: 'empty' }, this.empty)]));
    this.count.textContent = String(Math.max(0, this.total));
    const first = this.back.length * this.limit;
    this.range.textContent = this.rooms.length ? `${first + 1}–${first + this.rooms.length} of ${Math.max(this.total, first + this.rooms.length)}` : '';
    this.prev.disabled = this.back.length === 0 && this.cursor === undefined;
    this.forward.disabled = !this.next;
    this.pager.hidden = this.prev.disabled && this.forward.disabled;
  }

  private async load(cursor: string | undefined, first: boolean): Promise<void> {
    const asked = ++this.asked;
    const ack = await this.conn.ask('rooms:list', { status: this.status, ...this.filter, limit: this.limit, ...(cursor ? { cursor } : {}) });
    if (asked !== this.asked) return; // a later request answers for the page shown
    if (!ack.ok) return void toast(ack.error.message, 'error');
    if (first) this.back.length = 0;
    this.cursor = cursor;
    this.rooms = ack.rooms;
    this.total = ack.total;
    this.next = ack.next;
    this.render();
  }
}
