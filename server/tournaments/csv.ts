import type { StandingRow } from '../../shared/protocol/index.js';

const COLUMNS = ['rank', 'name', 'kind', 'rating', 'points', 'games', 'wins', 'draws', 'losses', 'buchholz', 'sonnebornBerger', 'performance', 'withdrawn'] as const;

/** A field as RFC 4180 writes it: quoted when it holds a comma, a quote or a line break. */
function field(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The standings as CSV, a header line first. */
export function standingsCsv(rows: readonly StandingRow[]): string {
  return [COLUMNS.join(','), ...rows.map((row) => COLUMNS.map((c) => field(row[c])).join(','))].join('\r\n') + '\r\n';
}
