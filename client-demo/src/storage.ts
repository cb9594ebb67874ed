import type { Color } from '../../shared/color.js';

/** Seat tokens live in localStorage by game id, so a reload (or a new tab) resumes the seat. */
export interface StoredSeat {
  readonly token: string;
  readonly color: Color;
}

const SEAT_PREFIX = 'boardroom:seat:';
const NAME_KEY = 'boardroom:name';

function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback; // storage disabled (private mode, sandboxed frame): the client still works
  }
}

export function seatFor(gameId: string): StoredSeat | undefined {
  return safe(() => {
    const raw = localStorage.getItem(SEAT_PREFIX + gameId);
    if (!raw) return undefined;
    const parsed = JSON.parse(raw) as Partial<StoredSeat>;
    return typeof parsed.token === 'string' && (parsed.color === 'black' || parsed.color === 'white') ? { token: parsed.token, color: parsed.color } : undefined;
  }, undefined);
}

export function keepSeat(gameId: string, seat: StoredSeat): void {
  safe(() => localStorage.setItem(SEAT_PREFIX + gameId, JSON.stringify({ ...seat, at: Date.now() })), undefined);
  pruneSeats();
}

export function forgetSeat(gameId: string): void {
  safe(() => localStorage.removeItem(SEAT_PREFIX + gameId), undefined);
}

/** Keeps the 50 newest seats so the storage does not grow without end. */
function pruneSeats(): void {
  safe(() => {
    const seats: { key: string; at: number }[] = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key?.startsWith(SEAT_PREFIX)) continue;
      const at = Number((JSON.parse(localStorage.getItem(key) ?? '{}') as { at?: number }).at ?? 0);
      seats.push({ key, at });
    }
    seats.sort((a, b) => b.at - a.at);
    for (const old of seats.slice(50)) localStorage.removeItem(old.key);
  }, undefined);
}

/** A small JSON value kept under `boardroom:<key>`; undefined when absent, unreadable or storage is off. */
export function loadJson(key: string): unknown {
  return safe(() => {
    const raw = localStorage.getItem(`boardroom:${key}`);
    return raw === null ? undefined : (JSON.parse(raw) as unknown);
  }, undefined);
}

export function saveJson(key: string, value: unknown): void {
  safe(() => localStorage.setItem(`boardroom:${key}`, JSON.stringify(value)), undefined);
}

/** The name this browser used last, or null when it never chose one (nor was given a guest's). */
export function knownName(): string | null {
  return safe(() => localStorage.getItem(NAME_KEY), null);
}

export function playerName(): string {
  const stored = knownName();
  if (stored) return stored;
  const name = `Guest ${Math.floor(1000 + Math.random() * 9000)}`;
  setPlayerName(name);
  return name;
}

export function setPlayerName(name: string): void {
  const trimmed = name.trim().slice(0, 40);
  if (trimmed) safe(() => localStorage.setItem(NAME_KEY, trimmed), undefined);
}
