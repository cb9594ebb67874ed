import { ADMIN_MARK_COOKIE } from '../../shared/protocol/index.js';

/**
 * Whether this browser holds an admin console session. The session's cookie is HttpOnly; beside
 * it the server sets a mark that says only that one exists, so the header shows Admin to admins.
 */
export function isAdmin(): boolean {
  return document.cookie.split('; ').some((c) => c.startsWith(`${ADMIN_MARK_COOKIE}=`));
}
