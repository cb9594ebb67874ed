import { COLORS, opposite, type Color } from '../../shared/color.js';
import { AgentCreateRoomSchema, AgentSeatActionSchema, ChallengeSchema, type GameView, type SeatSpec } from '../../shared/protocol/index.js';
import { accept, parse, refuse, type ServerResult } from '../refuse.js';
import type { AgentStore } from '../store/agents.js';
import { agentKey, type GameStore, type StoredGame } from '../store/store.js';
import * as G from './game.js';
import type { Broadcaster } from './ports.js';
import { agentColors } from './seat-proof.js';
import type { GameService, Seated } from './service.js';

type AgentSeat = Omit<Seated, 'token'>;

/**
 * An agent's life on the server beside its moves: the rooms it makes and the challenges it sends
 * or declines, and its connection coming and going, which holds or leaves its seats in every game
 * it sits in (PROTOCOL.md, the agent namespace). Its moves and seat actions go through the
 * service's one path, its identity being the seat's proof.
 */
export class AgentSessions {
  constructor(
    private readonly service: GameService,
    private readonly store: GameStore,
    private readonly agents: AgentStore,
    private readonly broadcaster: Broadcaster,
    private readonly instance: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** An agent takes a seat; its name comes from its authenticated identity. */
  async join(agent: string, gameId: string, color: Color | 'any'): Promise<ServerResult<{ seat: AgentSeat; view: GameView }>> {
    const joined = await this.service.takeSeat(gameId, color, { name: agent, agent: true });
    if (!joined.ok) return joined;
    const { token: _token, ...seat } = joined.value.seat;
    return accept({ seat, view: joined.value.view });
  }

  /** An agent makes a room (a seat of its own in it when `sit` is given). */
  async createRoom(agent: string, payload: unknown): Promise<ServerResult<{ gameId: string; seat: AgentSeat | null; view: GameView }>> {
    const request = parse(AgentCreateRoomSchema, payload);
    if (!request.ok) return request;
    const { sit, ...spec } = request.value;
    const created = await this.service.createRoom(spec, { owner: `agent:${agent}` });
    if (!created.ok || !sit) return created.ok ? accept({ ...created.value, seat: null }) : created;
    const joined = await this.join(agent, created.value.gameId, sit.color);
    return joined.ok ? accept({ gameId: created.value.gameId, ...joined.value }) : joined;
  }

  /**
   * An agent challenges a bot, another agent or any person: a room with the agent seated in one
   * seat and the opponent in the other. A challenged agent is told (`challenge`) and takes the
   * seat with `room:join`, or declines.
   */
  async challenge(agent: string, payload: unknown): Promise<ServerResult<{ gameId: string; seat: AgentSeat; view: GameView }>> {
    const request = parse(ChallengeSchema, payload);
    if (!request.ok) return request;
    const { opponent: asked, color: wanted, ...room } = request.value;
    const opponent = asked.kind === 'agent' ? { ...asked, agent: (await this.agents.agentNamed(asked.agent))?.name ?? asked.agent } : asked; // its name as registered
    if (opponent.kind === 'agent' && agentKey(opponent.agent) === agentKey(agent)) return refuse('room/bad_seat', 'An agent cannot challenge itself.');
    const color: Color = wanted === 'random' ? COLORS[Math.floor(Math.random() * 2)]! : wanted;
    const other = opposite(color);
    const theirs = opponent.kind === 'open' ? { kind: 'human' as const } : opponent.kind === 'bot' ? opponent : { kind: 'agent' as const, agent: opponent.agent };
    const seats = { [color]: { kind: 'agent', agent }, [other]: theirs } as unknown as { black: SeatSpec; white: SeatSpec };
    const made = await this.createRoom(agent, { ...room, seats, sit: { color } });
    if (!made.ok) return made;
    if (opponent.kind === 'agent') {
      this.broadcaster.challenge(opponent.agent, { gameId: made.value.gameId, from: agent, game: room.game, options: room.options, timeControl: room.timeControl, color: other });
    }
    return accept({ ...made.value, seat: made.value.seat! });
  }

  async declineChallenge(agent: string, payload: unknown): Promise<ServerResult<Record<string, never>>> {
    const request = parse(AgentSeatActionSchema, payload);
    if (!request.ok) return request;
    const result = await this.service.mutate(request.value.gameId, (game) => G.declineChallenge(game, agent, this.now()));
    if (!result.ok) return result;
    const challenger = COLORS.map((c) => result.value.seats[c]).find((s) => s.kind === 'agent' && s.name !== null && s.name !== agent);
    if (challenger?.name) this.broadcaster.challengeDeclined(challenger.name, { gameId: request.value.gameId, by: agent });
    return accept({});
  }

  /**
   * An agent's connection came: its seats in rooms not yet over are held by this process, and
   * every turn waiting for it is sent again. Returns the number of turns sent.
   */
  async connected(agent: string): Promise<number> {
    let turns = 0;
    for (const game of await this.games(agent)) {
      for (const color of agentColors(game, agent)) {
        const held = await this.service.mutate(game.id, (g) => accept(G.setConnected(g, color, true, this.now(), this.instance)));
        if (held.ok && held.value.status === 'live' && G.toMove(held.value) === color) {
          await this.service.startTurn(held.value);
          turns++;
        }
      }
    }
    return turns;
  }

  /** An agent's last connection went: its seats are away, and lost after the grace like a person's. */
  async disconnected(agent: string): Promise<void> {
    for (const game of await this.games(agent)) {
      for (const color of agentColors(game, agent)) await this.service.mutate(game.id, (g) => accept(G.setConnected(g, color, false, this.now(), null)));
    }
  }

  /** From the agent's index: its few games, however many others there are. An entry left by a game over or gone is dropped. */
  private async games(agent: string): Promise<StoredGame[]> {
    const ids = await this.store.indexed('agent-games', agentKey(agent));
    const games = await Promise.all(ids.map((id) => this.store.get(id)));
    const stale = ids.filter((_, i) => !games[i] || games[i].status === 'finished');
    if (stale.length > 0) await this.store.removeFromIndex(stale.map((member) => ({ index: 'agent-games', owner: agentKey(agent), member })));
    return games.filter((g): g is StoredGame => g !== undefined && g.status !== 'finished');
  }
}
