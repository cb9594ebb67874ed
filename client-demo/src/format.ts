import { opposite, type Color } from '../../shared/color.js';
import { firstMover } from '../../shared/games.js';
import { STEP_LIMIT } from '../../shared/minichess/index.js';
import type { GameResult, RatingChangeView, RatingView, SeatView, TimeControl } from '../../shared/protocol/index.js';
import type { GameId } from '../../shared/rules.js';

export function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** `4:05`, or `9.4` under ten seconds. */
export function clockText(ms: number): string {
  const clamped = Math.max(0, ms);
  if (clamped < 10_000) return (Math.floor(clamped / 100) / 10).toFixed(1);
  const total = Math.ceil(clamped / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

export function timeControlText(control: TimeControl): string {
  switch (control.kind) {
    case 'none':
      return 'no clock';
    case 'per-move':
      return `${secondsText(control.moveMs)} a move`;
    case 'bank':
      return `${minutesText(control.initialMs)} + ${secondsText(control.incrementMs)}`;
  }
}

function secondsText(ms: number): string {
  return ms % 60_000 === 0 && ms >= 60_000 ? `${ms / 60_000} min` : `${Math.round(ms / 100) / 10} s`;
}

function minutesText(ms: number): string {
  return ms >= 60_000 ? `${Math.round(ms / 6000) / 10} min` : `${ms / 1000} s`;
}

const REASONS: Record<GameResult['reason'], string> = {
  'no-moves': 'neither side can move',
  'board-full': 'the board is full',
  five: 'five in a row',
  'king-capture': 'the king falls',
  'step-limit': `material after ${STEP_LIMIT} plies`,
  resignation: 'resignation',
  timeout: 'out of time',
  abandonment: 'abandoned',
  agreement: 'agreed draw',
  adjudication: 'adjudicated',
  declined: 'challenge declined',
  expired: 'closed unplayed',
  aborted: 'aborted: no first move',
};

/** Why the game ended, as a short phrase ("five in a row", "adjudicated: tested"). */
export function reasonText(result: GameResult): string {
  const base = REASONS[result.reason] ?? result.reason;
  return result.reason === 'adjudication' && result.note && result.note !== 'adjudicated' ? `${base}: ${result.note}` : base;
}

/** "Black wins", "Draw" — and "You win" / "You lose" for a seated player. */
export function resultHeadline(result: GameResult, mine: Color | null): string {
  if (result.reason === 'declined') return 'Declined';
  if (result.reason === 'aborted') return 'No result';
  if (result.winner === null) return 'Draw';
  if (mine) return result.winner === mine ? 'You win' : 'You lose';
  return `${capital(result.winner)} wins`;
}

/** A finished room's result in a list: "black won", "draw", "aborted: no first move". */
export function outcomeText(result: GameResult): string {
  if (result.reason === 'aborted') return reasonText(result);
  return result.winner ? `${result.winner} won` : 'draw';
}

export function seatName(seat: SeatView): string {
  if (seat.name) return seat.name;
  return seat.kind === 'agent' ? 'any agent' : seat.kind === 'bot' ? 'bot' : 'open seat';
}

/** The seats in their order of play: "Ann vs bot", the first mover first. */
export function matchup(seats: { black: SeatView; white: SeatView }, game: GameId): string {
  const first = firstMover(game);
  return `${seatName(seats[first])} vs ${seatName(seats[opposite(first)])}`;
}

export function ago(epochMs: number, now = Date.now()): string {
  const s = Math.max(0, Math.round((now - epochMs) / 1000));
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86_400)} d ago`;
}

/** A bot's score from its own side, as a signed number. */
export function scoreText(score: number): string {
  const WIN = 1_000_000; // the engine's score of a won game, less the plies to reach it
  if (Math.abs(score) >= WIN - 10_000) return `${score > 0 ? 'wins' : 'loses'} in ${WIN - Math.abs(score)}`;
  return score > 0 ? `+${score}` : String(score);
}

export function compact(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(n >= 1e7 ? 0 : 1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(n >= 1e4 ? 0 : 1)}k`;
  return String(n);
}

/** A rating as players read it: "1662?" while it is provisional. */
export function ratingText(row: Pick<RatingView, 'rating' | 'provisional'>): string {
  return `${row.rating}${row.provisional ? '?' : ''}`;
}

/** A rated game's effect: "1662 (+162)". */
export function changeText(change: RatingChangeView): string {
  const delta = Math.round(change.after) - Math.round(change.before);
  return `${Math.round(change.after)} (${delta >= 0 ? '+' : '−'}${Math.abs(delta)})`;
}
