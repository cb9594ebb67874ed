import { PROTOCOL_VERSION, type StoreEmptied } from '../../shared/protocol/index.js';
import { Accounts } from '../accounts/accounts.js';
import { AdminSessions } from '../accounts/admin-sessions.js';
import { AdminFeed } from '../admin/feed.js';
import { LiveTable } from '../admin/live-table.js';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics.js';
import { Ladder } from '../pairing/ladder.js';
import { Matchmaker } from '../pairing/matchmaker.js';
import type { Runtime } from '../runtime/runtime.js';
import { attachAdmin } from '../socket/admin.js';
import { attachAgents, authError } from '../socket/agents.js';
import { gameRoom, seatRoom, seekRoom } from '../socket/broadcaster.js';
import { limitConnections } from '../socket/connection-quota.js';
import { adminNamespace, agentNamespace, playerNamespace, type ConnectionData } from '../socket/namespaces.js';
import { attachPlayers } from '../socket/players.js';
import { TournamentEntries } from '../tournaments/entries.js';
import { TournamentRunner } from '../tournaments/runner.js';
import { SocketTournamentNotifier } from '../socket/tournament-notifier.js';

export interface ProcessContext {
  readonly config: Config;
  readonly log: Logger;
  readonly metrics: Metrics;
  /** This process among the others sharing the store: seats its connections hold carry it. */
  readonly instance: string;
  readonly onError: (error: unknown) => void;
}

/** The three namespaces, answered, and what they stand on beside the runtime. */
export type Sockets = ReturnType<typeof attachSockets>;

/**
 * The namespaces of players, agents and admins, each checking the protocol version a client names,
 * with the accounts, pairing, ladder and live table they answer from. `closing()` tells them the
 * server is going down (a connection closing then is not a player leaving).
 */
export function attachSockets(runtime: Runtime, { config, log, metrics, instance, onError }: ProcessContext) {
  const { store, agents: agentStore, leases, platform, tournaments, io, broadcaster, quotas, bots, service, lobby, agentSessions, analysis, queueStats } = runtime;
  const accounts = new Accounts(platform, { perName: config.LOGIN_LIMIT, perAddress: config.LOGIN_LIMIT * 5 }, async (name) => bots.named(name) !== undefined || (await agentStore.agentNamed(name)) !== undefined);
  const matchmaker = new Matchmaker({
    platform,
    store,
    leases,
    service,
    instance,
    bots,
    // A process that does not answer in time must not stop all pairing: its seekers count as there.
    reachable: (seekId) => io.in(seekRoom(seekId)).fetchSockets().then((sockets) => sockets.length > 0, () => true),
    notify: (paired) => {
      // The seeker's connection holds the seat from now: were it to go before taking the seat, the seat is away.
      io.in(seekRoom(paired.seekId)).socketsJoin([gameRoom(paired.gameId), seatRoom(paired.gameId, paired.seat.color)]);
      io.to(seekRoom(paired.seekId)).emit('seek:paired', paired);
    },
  });
  // The ladder's share of the bot workers: half of this process's threads, at least one game.
  const ladder = new Ladder({ platform, store, leases, service, instance, bots, maxConcurrent: Math.max(1, Math.floor(config.BOT_THREADS / 2)), log });
  const tournamentNotifier = new SocketTournamentNotifier(io);
  const entries = new TournamentEntries({ tournaments, games: store, notifier: tournamentNotifier, botExists: (game, name) => bots.entry(game, name) !== undefined });
  const tournamentRunner = new TournamentRunner({ tournaments, games: store, platform, service, notifier: tournamentNotifier, instance, log });

  let closing = false;
  /** The server processes whose lease runs, this one always among them. */
  const liveInstances = async (): Promise<string[]> => {
    const live = [...(await leases.leases())].filter(([id, until]) => id === instance || until > Date.now()).map(([id]) => id);
    return live.includes(instance) ? live : [...live, instance];
  };
  // A client that names a protocol version must name this one: moves reach it as deltas.
  const players = playerNamespace(io);
  const agents = agentNamespace(io);
  const admins = adminNamespace(io);
  for (const ns of [players, agents, admins] as const) {
    ns.use((socket: { handshake: { auth: unknown } }, next: (err?: Error) => void) => {
      const protocol = (socket.handshake.auth as { protocol?: unknown } | undefined)?.protocol;
      if (protocol === undefined || protocol === PROTOCOL_VERSION) return next();
      next(authError('protocol/unsupported', `This server speaks protocol ${PROTOCOL_VERSION} (PROTOCOL.md), not ${String(protocol).slice(0, 20)}.`));
    });
  }
  for (const ns of [players, agents] as const) {
    ns.use((socket: { data: ConnectionData }, next: () => void) => {
      socket.data.instance = instance;
      next();
    });
    limitConnections(ns, { quotas, platform, instance, liveInstances, trustProxy: config.TRUST_PROXY, onError });
  }
  attachPlayers(players, { service, lobby, analysis, accounts, matchmaker, tournaments: entries, tournamentRunner, trustProxy: config.TRUST_PROXY }, config.RATE_LIMIT, log, metrics, () => closing);
  attachAgents(agents, { service, lobby, sessions: agentSessions, ladder, tournaments: entries }, agentStore, config.RATE_LIMIT, log, metrics, () => closing);
  const adminSessions = new AdminSessions(platform);
  const liveTable = new LiveTable({
    store,
    queue: queueStats,
    connections: async () => platform.allConnections(await liveInstances()),
    thinking: (gameId) => broadcaster.latestThinking(gameId),
  });
  const adminFeed = new AdminFeed(liveTable, onError);
  /** The latest time this process found the store empty, told to admins who connect later too. */
  let emptied: StoreEmptied | undefined;
  attachAdmin(admins, { service, broadcaster, feed: adminFeed, adminToken: config.ADMIN_TOKEN, sessions: adminSessions, queueStats, storeEmptied: () => emptied }, log, metrics);

  return {
    players,
    agents,
    admins,
    accounts,
    adminSessions,
    matchmaker,
    ladder,
    entries,
    tournamentRunner,
    liveTable,
    /** The store came back empty: admins connected now and later hear it. */
    storeEmptied(event: StoreEmptied): void {
      emptied = event;
      admins.local.emit('store:emptied', event);
    },
    closing(): void {
      closing = true;
    },
    close: async (): Promise<void> => adminFeed.close(),
  };
}
