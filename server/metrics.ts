import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Prometheus metrics at /metrics. */
export class Metrics {
  readonly registry = new Registry();
  readonly connections = new Gauge({ name: 'boardroom_connections', help: 'Open Socket.IO connections', labelNames: ['namespace'], registers: [this.registry] });
  readonly liveGames = new Gauge({ name: 'boardroom_live_games', help: 'Games in play', registers: [this.registry] });
  readonly moves = new Counter({ name: 'boardroom_moves_total', help: 'Moves applied', labelNames: ['game', 'by'], registers: [this.registry] });
  readonly rejections = new Counter({ name: 'boardroom_rejections_total', help: 'Requests refused', labelNames: ['code'], registers: [this.registry] });
  readonly moveAck = new Histogram({
    name: 'boardroom_move_ack_seconds',
    help: 'From a move request to its acknowledgement',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.02, 0.03, 0.05, 0.1, 0.25, 0.5, 1],
    registers: [this.registry],
  });
  readonly botThink = new Histogram({
    name: 'boardroom_bot_think_seconds',
    help: 'Time a bot took for a move',
    labelNames: ['game', 'bot'],
    buckets: [0.01, 0.05, 0.1, 0.3, 1, 3, 10],
    registers: [this.registry],
  });
  readonly botQueueWait = new Histogram({
    name: 'boardroom_bot_queue_wait_seconds',
    help: 'From a bot turn asked to a worker taking it (turns whose answer this process applied)',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  /** The latest queue waits, for the admin console's p50/p95. */
  readonly recentWaits = new RecentSamples(500);
  readonly queueDepth = new Gauge({ name: 'boardroom_bot_queue_depth', help: 'Bot turns waiting or running', registers: [this.registry] });
  readonly botJobs = new Gauge({
    name: 'boardroom_bot_jobs',
    help: 'Bot jobs that stalled (their worker died; run again), were retried after failing, or are failed (kept a day), counted by the workers for the whole queue',
    labelNames: ['outcome'],
    registers: [this.registry],
  });

  private readonly readers: (() => Promise<void>)[] = [];

  /** A bot's answer applied in this process: how long it thought, and how long it waited for a worker when known. */
  botAnswered(result: { game: string; bot: string; ms: number; queuedMs?: number }): void {
    this.botThink.observe({ game: result.game, bot: result.bot }, result.ms / 1000);
    if (result.queuedMs === undefined) return;
    this.botQueueWait.observe(result.queuedMs / 1000);
    this.recentWaits.add(result.queuedMs);
  }

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'boardroom_' });
  }

  /** Figures read from elsewhere (the queue, Redis) just before each scrape. */
  readBeforeScrape(read: () => Promise<void>): void {
    this.readers.push(read);
  }

  async scrape(): Promise<string> {
    await Promise.all(this.readers.map((read) => read().catch(() => undefined)));
    return this.registry.metrics();
  }
}

/** The last `size` samples, for percentiles over recent activity. */
export class RecentSamples {
  private readonly samples: number[] = [];
  constructor(private readonly size: number) {}

  add(value: number): void {
    this.samples.push(value);
    if (this.samples.length > this.size) this.samples.shift();
  }

  /** The q-quantile (0–1) of the samples kept, or null with none. */
  quantile(q: number): number | null {
    if (this.samples.length === 0) return null;
    const sorted = [...this.samples].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  }
}
