/** Games the service keeps something of in memory (their latest state, a bot's evaluation). */
export const RECENT_GAMES_KEPT = 5000;

/** A map by game id that keeps the most recently set entries, at most `max`: the oldest goes first. */
export class Recent<V> {
  private readonly entries = new Map<string, V>();
  constructor(private readonly max: number) {}

  get(id: string): V | undefined {
    return this.entries.get(id);
  }

  set(id: string, value: V): void {
    this.entries.delete(id);
    this.entries.set(id, value);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(id: string): void {
    this.entries.delete(id);
  }

  get size(): number {
    return this.entries.size;
  }
}
