import { createHash, randomBytes } from 'node:crypto';
import { Recent, RECENT_GAMES_KEPT } from './recent.js';

/** A new secret for a seat or an agent: 32 random bytes, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The hashes of the tokens seen last: a seat's token comes with each of its moves. */
const recentHashes = new Recent<string>(RECENT_GAMES_KEPT * 2);

/** Tokens are kept only as hashes, so a copy of the store gives no one a seat. */
export function hashToken(token: string): string {
  let hash = recentHashes.get(token);
  if (hash === undefined) recentHashes.set(token, (hash = createHash('sha256').update(token).digest('hex')));
  return hash;
}

/**
 * Whether a token's hash (`hashToken`) is the stored one, every character compared whatever the
 * first difference (no early exit to time); a move asks it, so it makes no buffers.
 */
export function hashesMatch(hash: string, stored: string | null): boolean {
  if (stored === null || hash.length !== stored.length) return false;
  let difference = 0;
  for (let i = 0; i < hash.length; i++) difference |= hash.charCodeAt(i) ^ stored.charCodeAt(i);
  return difference === 0;
}

export function newGameId(): string {
  return randomBytes(6).toString('base64url');
}
