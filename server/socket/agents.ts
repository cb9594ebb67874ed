import { AgentJoinSchema } from '../../shared/protocol/index.js';
import type { AgentSessions } from '../games/agent-sessions.js';
import type { Lobby } from '../games/lobby.js';
import { GAME_ACTIONS, type GameService } from '../games/service.js';
import type { Ladder } from '../pairing/ladder.js';
import { parse } from '../refuse.js';
import { hashToken } from '../games/tokens.js';
import type { Logger } from '../log.js';
import type { Metrics } from '../metrics.js';
import type { AgentStore } from '../store/agents.js';
import { agentRoom, gameRoom, LOBBY } from './broadcaster.js';
import { followGame } from './followed-games.js';
import { guard } from './guard.js';
import type { AgentNamespace, AgentSocket } from './namespaces.js';
import type { TournamentEntries } from '../tournaments/entries.js';
import { tournamentAgentHandlers } from './tournaments.js';

/**
 * The agent namespace: an outside bot connects with `auth: { token }` (made by the admin API,
 * stored hashed), takes agent seats, receives `turn` and answers `move`. PROTOCOL.md has it all.
 *
 * One connection per agent is active: a new connection with the agent's token takes over its
 * seats and turns, and the older one is told `session:replaced` and closed, so two processes
 * never both answer a turn. When the agent's last connection goes, its seats are away and are
 * lost after the grace, as a person's are.
 */
export function attachAgents(ns: AgentNamespace, { service, lobby, sessions, ladder, tournaments }: { service: GameService; lobby: Lobby; sessions: AgentSessions; ladder: Ladder; tournaments: TournamentEntries }, agents: AgentStore, limit: number, log: Logger, metrics: Metrics, closing: () => boolean): void {
  ns.use(async (socket, next) => {
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string' || token.length === 0) return next(authError('auth/required', 'Connect with auth: { token } holding your agent token.'));
    const agent = await agents.getAgent(hashToken(token)).catch(() => undefined);
    if (!agent) return next(authError('auth/bad_token', 'That agent token is not known here.'));
    socket.data.agent = agent.name;
    next();
  });

  ns.on('connection', (socket: AgentSocket) => {
    const agent = socket.data.agent;
    metrics.connections.inc({ namespace: '/agent' });
    const handle = guard(socket, limit, log, metrics);
    handle('hello', async () => ({ ok: true, value: { agent } }));
    handle('rooms:list', async (payload) => {
      await socket.join(LOBBY);
      return lobby.listRooms(payload);
    });
    handle('room:create', async (payload) => {
      const created = await sessions.createRoom(agent, payload);
      if (created.ok) await followGame(socket, created.value.gameId, [gameRoom(created.value.gameId)], service);
      return created;
    });
    handle('room:join', async (payload) => {
      const request = parse(AgentJoinSchema, payload);
      if (!request.ok) return request;
      const joined = await sessions.join(agent, request.value.gameId, request.value.color);
      if (joined.ok) await followGame(socket, request.value.gameId, [gameRoom(request.value.gameId)], service);
      return joined;
    });
    handle('room:watch', async (payload) => {
      const watched = await lobby.watch(payload);
      if (watched.ok) await followGame(socket, watched.value.view.id, [gameRoom(watched.value.view.id)], service);
      return watched;
    });
    handle('room:sync', (payload) => lobby.watch(payload));
    handle('challenge', async (payload) => {
      const made = await sessions.challenge(agent, payload);
      if (made.ok) await followGame(socket, made.value.gameId, [gameRoom(made.value.gameId)], service);
      return made;
    });
    handle('challenge:decline', (payload) => sessions.declineChallenge(agent, payload));
    handle('move', (payload) => service.move(payload, agent), 'refusals');
    handle('ladder:join', (payload) => ladder.join(agent, payload));
    handle('ladder:leave', (payload) => ladder.leave(agent, payload));
    tournamentAgentHandlers(handle, socket, tournaments, agent, socket.data.instance ?? '');
    for (const action of GAME_ACTIONS) handle(action, (payload) => service.act(action, payload, agent));

    socket.on('disconnect', () => {
      metrics.connections.dec({ namespace: '/agent' });
      if (closing()) return; // a server going down is not its agents leaving
      void (async () => {
        const others = await ns.in(agentRoom(agent)).fetchSockets();
        if (others.length === 0) await Promise.all([sessions.disconnected(agent), ladder.agentGone(agent)]);
      })().catch((error) => log.warn({ err: error, agent }, 'could not mark an agent away'));
    });

    void (async () => {
      // Join first: the connection being replaced then sees this one and leaves the seats held.
      await socket.join(agentRoom(agent));
      const older = (await ns.in(agentRoom(agent)).fetchSockets()).filter((s) => s.id !== socket.id);
      for (const old of older) {
        old.emit('session:replaced', { message: 'Another connection with this agent token took over; this one is closed.' });
        old.disconnect();
      }
      await sessions.connected(agent);
    })().catch((error) => log.warn({ err: error, agent }, 'could not take over the agent seats'));
  });
}

export function authError(code: string, message: string): Error {
  return Object.assign(new Error(message), { data: { code, message } });
}
