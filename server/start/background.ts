import type { Runtime } from '../runtime/runtime.js';
import { Retention } from '../runtime/retention.js';
import { Sweeper } from '../runtime/sweeper.js';
import { agentRoom, seatRoom } from '../socket/broadcaster.js';
import { announceLostGames, storeEmptied } from '../socket/lost-games.js';
import { endAllSessions } from '../socket/sessions.js';
import type { ProcessContext, Sockets } from './sockets.js';

/**
 * The process's periodic work, once it listens: the live games re-armed (while it already
 * serves: a request that touches one first is harmless), the sweep of leases and lost seats,
 * retention, quick pairing and the ladder every second, and the queue's figures for /metrics.
 * Returns what stops it all.
 */
export async function startBackground(runtime: Runtime, sockets: Sockets, { config, log, metrics, instance, onError }: ProcessContext): Promise<() => Promise<void>> {
  const { store, leases, platform, io, service, queueStats } = runtime;
  const recovery = new AbortController();
  const recoveryStarted = Date.now();
  const recovered = service
    .recover({ signal: recovery.signal, onFailed: (gameId, error) => log.warn({ gameId, err: error }, 'could not re-arm a live game') })
    .then(
      (games) => log.info({ games, ms: Date.now() - recoveryStarted, stopped: recovery.signal.aborted }, 'live games re-armed'),
      (error: unknown) => log.error({ err: error }, 're-arming the live games failed'),
    );
  const sweeper = new Sweeper({
    store,
    leases,
    service,
    instance,
    log,
    onLiveCount: (count) => metrics.liveGames.set(count),
    onStoreEmptied: async () => {
      sockets.storeEmptied(storeEmptied(Date.now()));
      const signedOut = endAllSessions(sockets.players);
      const lost = await announceLostGames(io, store);
      log.error({ lost, signedOut }, 'games announced lost to their players, signed-in connections told their sessions ended');
    },
    holders: async (game, color) => {
      const seat = game.seats[color];
      const held = seat.kind === 'agent' && seat.name ? sockets.agents.in(agentRoom(seat.name)) : sockets.players.in(seatRoom(game.id, color));
      return (await held.fetchSockets()).map((s) => s.data.instance ?? '');
    },
  });
  await sweeper.start();
  const retention = new Retention(
    { store, platform, service, instance, log },
    { waitingIdleMs: config.WAITING_ROOM_IDLE_MS, finishedKeepMs: config.FINISHED_GAMES_KEEP_DAYS * 86_400_000, finishedMax: config.FINISHED_GAMES_MAX, everyMs: config.RETENTION_EVERY_MS },
  );
  retention.start();
  // Quick pairing and the ladder: every process ticks, one at a time does the work (a store lock).
  const pairingTimer = setInterval(() => {
    void sockets.matchmaker.tick().catch(onError);
    void sockets.ladder.tick().catch(onError);
  }, 1000);
  // Tournaments: every process ticks, one at a time works (a store lock); a tick that overlaps the last is skipped.
  let tournamentTick: Promise<void> | undefined;
  const tournamentTimer = setInterval(() => {
    tournamentTick ??= sockets.tournamentRunner
      .tick()
      .catch(onError)
      .finally(() => (tournamentTick = undefined));
  }, config.TOURNAMENT_TICK_MS);
  metrics.readBeforeScrape(async () => {
    const q = await queueStats();
    metrics.queueDepth.set((q.waiting ?? 0) + (q.active ?? 0));
    for (const outcome of ['stalled', 'retried', 'failed'] as const) if (q[outcome] !== undefined) metrics.botJobs.set({ outcome }, q[outcome]);
  });
  return async () => {
    clearInterval(pairingTimer);
    clearInterval(tournamentTimer);
    await tournamentTick;
    recovery.abort();
    await recovered;
    await retention.stop();
    await sweeper.stop();
  };
}
