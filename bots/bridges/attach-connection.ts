import { LOBBY_PAGE_MAX, type RoomSummary } from '../../shared/protocol/index.js';
import type { GameId } from '../../shared/rules.js';
import { connectAgent, type Agent } from '../agent/index.js';
import { catalogEntry } from '../registry.js';
import type { AttachConnection } from './attach.js';

/** The agent SDK seen as what `attach` needs of it. */
export async function connectForAttach(url: string, token: string): Promise<AttachConnection & { close(): Promise<void> }> {
  const agent: Agent = await connectAgent({ url, token });
  return {
    name: agent.name,
    onTurn: (handler) => agent.onTurn(handler),
    onEnded: (handler) => void agent.on('ended', handler),
    onRoomsChanged: (handler) => void agent.on('roomsChanged', handler),
    onChallenge: (handler) => void agent.on('challenge', handler),
    listOpenRooms: async (game) => {
      const rooms: RoomSummary[] = [];
      let cursor: string | undefined;
      do {
        const found = await agent.rooms({ status: 'open', open: 'agent', game, limit: LOBBY_PAGE_MAX, cursor });
        rooms.push(...found.rooms);
        cursor = found.next ?? undefined;
      } while (cursor);
      return rooms;
    },
    join: async (gameId) => (await agent.join(gameId)).view,
    watch: (gameId) => agent.watch(gameId),
    challenge: async (opponent, game, moveMs, color) => (await agent.challenge({ game, color, opponent: challengeOpponent(opponent, game), timeControl: { kind: 'per-move', moveMs } })).view,
    declineChallenge: (gameId) => agent.declineChallenge(gameId),
    joinLadder: (game, games) => agent.joinLadder(game, games),
    leaveLadder: (game) => agent.leaveLadder(game),
    joinTournament: async (tournamentId) => void (await agent.joinTournament(tournamentId)),
    tournamentStatus: async (tournamentId) => (await agent.tournament(tournamentId)).status,
    onTournamentChanged: (handler) => void agent.on('tournamentDelta', handler),
    onTournamentPaired: (handler) => void agent.on('tournamentPaired', handler),
    close: async () => agent.close(),
  };
}

/** `--vs NAME`: one of the server's built-in bots of the game (engine-3, seed-001, random), or else an agent. */
function challengeOpponent(name: string, game: GameId): { kind: 'bot'; bot: string } | { kind: 'agent'; agent: string } {
  return catalogEntry(game, name) ? { kind: 'bot', bot: name } : { kind: 'agent', agent: name };
}
