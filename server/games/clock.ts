import type { Color } from '../../shared/color.js';
import type { ClockView, TimeControl } from '../../shared/protocol/index.js';
import type { StoredClock } from '../store/store.js';

/**
 * The clock as a game starts: full banks, the first mover's turn running from `now` (without a
 * time control too, so that each move's time is known).
 */
export function startClock(control: TimeControl, now: number): StoredClock {
  switch (control.kind) {
    case 'none':
      return { black: null, white: null, turnStartedAt: now };
    case 'per-move':
      return { black: control.moveMs, white: control.moveMs, turnStartedAt: now };
    case 'bank':
      return { black: control.initialMs, white: control.initialMs, turnStartedAt: now };
  }
}

/** Time the side to move has left at `now`; Infinity without a clock. */
export function timeLeft(control: TimeControl, clock: StoredClock, mover: Color, now: number): number {
  if (control.kind === 'none' || clock.turnStartedAt === null) return Infinity;
  const bank = control.kind === 'per-move' ? control.moveMs : (clock[mover] ?? 0);
  return bank - (now - clock.turnStartedAt);
}

/** Epoch ms at which the side to move's flag falls, or null without a clock. */
export function flagTime(control: TimeControl, clock: StoredClock, mover: Color): number | null {
  if (control.kind === 'none' || clock.turnStartedAt === null) return null;
  const bank = control.kind === 'per-move' ? control.moveMs : (clock[mover] ?? 0);
  return clock.turnStartedAt + bank;
}

/** The ms the side to move has spent on its turn at `now` (what its clock is charged); null when no turn runs. */
export function turnSpent(clock: StoredClock, now: number): number | null {
  return clock.turnStartedAt === null ? null : Math.max(0, now - clock.turnStartedAt);
}

/** The clock after `mover` moved at `now` (call only when the flag has not fallen). */
export function afterMove(control: TimeControl, clock: StoredClock, mover: Color, now: number, gameGoesOn: boolean): StoredClock {
  const turnStartedAt = gameGoesOn ? now : null;
  if (control.kind === 'none') return { ...clock, turnStartedAt };
  if (control.kind === 'per-move') return { ...clock, turnStartedAt, outageMs: 0 };
  const left = timeLeft(control, clock, mover, now) + control.incrementMs;
  return { ...clock, [mover]: left, turnStartedAt, outageMs: 0 };
}

/** The side to move's clock moved on so that it has `leftMs` from `now`; the time given is counted as outage. */
export function giveTime(control: TimeControl, clock: StoredClock, mover: Color, now: number, leftMs: number): StoredClock {
  if (clock.turnStartedAt === null) return clock;
  return creditTurn(clock, leftMs - timeLeft(control, clock, mover, now));
}

/** The running turn given `ms` back (its clock and its move's time), counted as outage. */
export function creditTurn(clock: StoredClock, ms: number): StoredClock {
  if (clock.turnStartedAt === null || ms <= 0) return clock;
  return { ...clock, turnStartedAt: clock.turnStartedAt + ms, outageMs: (clock.outageMs ?? 0) + ms };
}

/** The clock when the game stops (on time, resignation, …): the mover's bank stops where it is. */
export function stopClock(control: TimeControl, clock: StoredClock, mover: Color, now: number): StoredClock {
  if (control.kind !== 'bank' || clock.turnStartedAt === null) return { ...clock, turnStartedAt: null };
  return { ...clock, [mover]: Math.max(0, timeLeft(control, clock, mover, now)), turnStartedAt: null };
}

export function clockView(control: TimeControl, clock: StoredClock, mover: Color, now: number): ClockView {
  if (control.kind === 'none') return { control, black: null, white: null, running: null, at: now };
  const running = clock.turnStartedAt === null ? null : mover;
  const reading = (color: Color): number | null => {
    if (color === running) return Math.max(0, timeLeft(control, clock, color, now));
    return control.kind === 'per-move' ? control.moveMs : clock[color];
  };
  return { control, black: reading('black'), white: reading('white'), running, at: now };
}
