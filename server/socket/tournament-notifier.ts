import type { TournamentDelta, TournamentPaired, TournamentSummary } from '../../shared/protocol/index.js';
import { agentRoom } from './broadcaster.js';
import { agentNamespace, playerNamespace, type BoardroomServer } from './namespaces.js';
import type { Entrant } from '../tournaments/model.js';
import type { TournamentNotifier } from '../tournaments/notifier.js';

/** Connections that listed tournaments. */
export const TOURNAMENT_LOBBY = 'tournaments';
export const tournamentRoom = (id: string): string => `tournament:${id}`;
/** A signed-in account's connections that follow any tournament: where its pairings are told. */
export const entrantRoom = (account: string): string => `tournament-player:${account.toLowerCase()}`;

/** Through the adapter's rooms, so every web process's connections hear it. */
export class SocketTournamentNotifier implements TournamentNotifier {
  constructor(private readonly io: BoardroomServer) {}

  listed(summary: TournamentSummary): void {
    playerNamespace(this.io).to(TOURNAMENT_LOBBY).emit('tournaments:changed', summary);
  }

  changed(delta: TournamentDelta): void {
    playerNamespace(this.io).to(tournamentRoom(delta.id)).emit('tournament:delta', delta);
    agentNamespace(this.io).to(tournamentRoom(delta.id)).emit('tournament:delta', delta);
  }

  paired(entrant: Entrant, paired: TournamentPaired): void {
    if (entrant.kind === 'agent') agentNamespace(this.io).to(agentRoom(entrant.name)).emit('tournament:paired', paired);
    else playerNamespace(this.io).to(entrantRoom(entrant.name)).emit('tournament:paired', paired);
  }
}
