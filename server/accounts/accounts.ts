import { createHash, randomBytes } from 'node:crypto';
import { CredentialsSchema } from '../../shared/protocol/index.js';
import { accept, parse, refuse, type ServerResult } from '../refuse.js';
import type { PlatformStore } from '../store/platform.js';
import { cookieValue } from './cookies.js';
import { hashPassword, passwordMatches } from './passwords.js';

export const SESSION_MS = 30 * 24 * 3600_000;
const ATTEMPT_WINDOW_MS = 15 * 60_000;

export interface AccountLimits {
  /** Sign-in attempts per account name per 15 minutes. */
  readonly perName: number;
  /** Sign-in and sign-up attempts per client address per 15 minutes. */
  readonly perAddress: number;
}

const sessionKey = (id: string): string => createHash('sha256').update(id).digest('hex');

/**
 * Player accounts: sign-up, sign-in and sign-out. A session is a random id in an HttpOnly cookie,
 * kept in the store only as its hash; passwords only as scrypt hashes. Attempts are counted in the
 * store per name and per address, so the limit holds across server processes.
 */
export class Accounts {
  constructor(
    private readonly store: PlatformStore,
    private readonly limits: AccountLimits,
    /** Whether a name already belongs to an agent or a roster bot. */
    private readonly nameTaken: (name: string) => Promise<boolean>,
  ) {}

  async signUp(payload: unknown, address: string): Promise<ServerResult<{ name: string; session: string }>> {
    const limited = await this.limited([`address:${address}`, this.limits.perAddress]);
    if (limited) return limited;
    const request = parse(CredentialsSchema, payload);
    if (!request.ok) return request;
    const { name, password } = request.value;
    if (await this.nameTaken(name)) return refuse('account/name_taken', `The name "${name}" is taken; choose another.`);
    const created = await this.store.createAccount({ name, passwordHash: await hashPassword(password), createdAt: Date.now() });
    if (!created) return refuse('account/name_taken', `The name "${name}" is taken; choose another.`);
    return accept({ name, session: await this.openSession(name) });
  }

  async signIn(payload: unknown, address: string): Promise<ServerResult<{ name: string; session: string }>> {
    const request = parse(CredentialsSchema, payload);
    if (!request.ok) return request;
    const limited = await this.limited([`address:${address}`, this.limits.perAddress], [`name:${request.value.name.toLowerCase()}`, this.limits.perName]);
    if (limited) return limited;
    const account = await this.store.account(request.value.name);
    // The same answer for an unknown name and a wrong password: which names exist is not told.
    if (!account || !(await passwordMatches(request.value.password, account.passwordHash))) {
      return refuse('auth/bad_credentials', 'That name and password do not match an account.');
    }
    return accept({ name: account.name, session: await this.openSession(account.name) });
  }

  /** Ends the session; answers its key, by which its open connections are found (`sessionRoom`). */
  async signOut(session: string | undefined): Promise<string | undefined> {
    if (!session) return undefined;
    await this.store.deleteSession(sessionKey(session));
    return sessionKey(session);
  }

  /** The account a session cookie belongs to, if it is a live session. */
  async whoIs(session: string | undefined): Promise<string | undefined> {
    return session ? this.store.sessionAccount(sessionKey(session)) : undefined;
  }

  /** A live session's account and key (the hash of its id: the store's, and its connections' room). */
  async session(session: string | undefined): Promise<{ account: string; key: string } | undefined> {
    const account = await this.whoIs(session);
    return account && session ? { account, key: sessionKey(session) } : undefined;
  }

  /** Whether the session of that key is still live and still the account's: not signed out, not run out. */
  async holds(key: string, account: string): Promise<boolean> {
    return (await this.store.sessionAccount(key)) === account;
  }

  private async openSession(name: string): Promise<string> {
    const session = randomBytes(32).toString('base64url');
    await this.store.putSession(sessionKey(session), name, SESSION_MS);
    return session;
  }

  private async limited(...counters: [string, number][]): Promise<ServerResult<never> | undefined> {
    for (const [key, limit] of counters) {
      const { count, resetInMs } = await this.store.hit(`signin:${key}`, ATTEMPT_WINDOW_MS);
      if (count > limit) {
        return { ok: false, error: { code: 'auth/rate_limited', message: `Too many attempts: at most ${limit} in 15 minutes. Try again in ${Math.ceil(resetInMs / 60_000)} min.`, retryAfterMs: resetInMs } };
      }
    }
    return undefined;
  }
}

/** The session id in a Cookie header, if any. */
export function sessionFromCookie(header: string | undefined): string | undefined {
  return cookieValue(header, 'boardroom_session');
}
