import type { EntrantKind, PairingView, TournamentFormat, TournamentStatus, TournamentSummary } from '../../shared/protocol/index.js';
import type { TimeControl } from '../../shared/protocol/index.js';
import type { GameId } from '../../shared/rules.js';

export interface Entrant {
  /** `person:<name>`, `bot:<name>` or `agent:<name>`, the name in lower case. */
  readonly id: string;
  readonly kind: EntrantKind;
  readonly name: string;
  /** The rating at entry: pairing order and performance. */
  readonly rating: number;
  readonly withdrawn: boolean;
  readonly joinedAt: number;
  /** The server process holding an agent's connection when it joined. */
  readonly instance: string | null;
}

export type Pairing = PairingView;

/** A tournament as stored: one document, written whole with a version check. */
export interface Tournament {
  readonly id: string;
  readonly name: string;
  readonly game: GameId;
  readonly format: TournamentFormat;
  /** Swiss rounds; round-robin cycles (1 or 2); unused by an arena. */
  readonly rounds: number;
  readonly minutes: number;
  readonly timeControl: TimeControl;
  readonly rated: boolean;
  readonly startsAt: number | null;
  readonly maxEntrants: number;
  readonly minRating: number | null;
  /** `account:<name>` or `admin`: who may start it and enter bots. */
  readonly createdBy: string;
  readonly status: TournamentStatus;
  /** The round being played (an arena counts its pairing waves); 0 before the start. */
  readonly round: number;
  readonly startedAt: number | null;
  readonly endsAt: number | null;
  readonly finishedAt: number | null;
  readonly entrants: readonly Entrant[];
  readonly pairings: readonly Pairing[];
  readonly version: number;
  readonly createdAt: number;
}

/** What a tournament holds before its start, beside what its creator chose. */
export const NOT_STARTED = { status: 'upcoming', round: 0, startedAt: null, endsAt: null, finishedAt: null, entrants: [], pairings: [], version: 1 } as const satisfies Partial<Tournament>;

export function entrantId(kind: EntrantKind, name: string): string {
  return `${kind}:${name.toLowerCase()}`;
}

/** The rounds a round robin of `entrants` plays. */
export function roundRobinRounds(entrants: number, cycles: number): number {
  return (entrants % 2 === 0 ? entrants - 1 : entrants) * cycles;
}

export function totalRounds(t: Tournament): number {
  if (t.format === 'swiss') return t.rounds;
  if (t.format === 'round-robin') return roundRobinRounds(t.entrants.length, t.rounds); // entries close at the start
  return t.round;
}

export function summaryOf(t: Tournament): TournamentSummary {
  return {
    id: t.id,
    name: t.name,
    game: t.game,
    format: t.format,
    status: t.status,
    rounds: totalRounds(t),
    round: t.round,
    entrants: t.entrants.filter((e) => !e.withdrawn).length,
    timeControl: t.timeControl,
    rated: t.rated,
    startsAt: t.startsAt,
    endsAt: t.endsAt,
    maxEntrants: t.maxEntrants,
    minRating: t.minRating,
    createdBy: t.createdBy,
  };
}

/** The game id of a table: fixed by the pairing, so whichever process makes the game makes the same one once. */
export function tableGameId(t: Pick<Tournament, 'id'>, round: number, table: number): string {
  return `${t.id}-${round}-${table}`;
}
