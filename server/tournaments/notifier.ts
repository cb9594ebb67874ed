import type { TournamentDelta, TournamentPaired, TournamentSummary } from '../../shared/protocol/index.js';
import type { Entrant } from './model.js';

/** Where tournament news goes: Socket.IO rooms in production, a recorder in tests. */
export interface TournamentNotifier {
  /** The lobby's list: a status or entry count changed. */
  listed(summary: TournamentSummary): void;
  /** A write's changes, to the tournament's followers. */
  changed(delta: TournamentDelta): void;
  /** An entrant (person or agent) has a new game. */
  paired(entrant: Entrant, paired: TournamentPaired): void;
}
