import { createHash, randomBytes } from 'node:crypto';
import type { PlatformStore } from '../store/platform.js';
import { cookieValue } from './cookies.js';

export const ADMIN_SESSION_MS = 8 * 3600_000;
/** What an admin session holds in the session store: no account name can be it (names have no '@'). */
const ADMIN = '@admin';
const key = (id: string): string => createHash('sha256').update(`admin:${id}`).digest('hex');

/**
 * The admin console's sessions: the admin token is given once (`POST /admin/api/session`) and
 * exchanged for a random session id in an HttpOnly cookie, kept in the store as a hash for
 * eight hours, valid in every process, and revoked by signing out. The token never sits in a
 * cookie or in the page's storage.
 */
export class AdminSessions {
  constructor(private readonly platform: PlatformStore) {}

  async open(): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    await this.platform.putSession(key(id), ADMIN, ADMIN_SESSION_MS);
    return id;
  }

  async valid(id: string | undefined): Promise<boolean> {
    return id !== undefined && (await this.platform.sessionAccount(key(id))) === ADMIN;
  }

  async revoke(id: string | undefined): Promise<void> {
    if (id) await this.platform.deleteSession(key(id));
  }
}

/** The admin session id in a Cookie header, if any. */
export function adminSessionFromCookie(header: string | undefined): string | undefined {
  return cookieValue(header, 'boardroom_admin');
}
