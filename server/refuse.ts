import type { ErrorCode, ServerError } from '../shared/protocol/index.js';
import { fail, ok, type Result } from '../shared/result.js';

/**
 * What a request comes to on the server: a value, or the `ServerError` answered to the client.
 * It is the shared `Result` (a value or a coded problem) with the server's error; "outcome"
 * means only a game's end (`shared/rules.ts`).
 */
export type ServerResult<T> = Result<T, ServerError>;

/** A request refused with a stable code and a sentence. */
export const refuse: (code: ErrorCode, message: string) => { readonly ok: false; readonly error: ServerError } = fail;

export const accept = ok;

/** A payload checked against its shared schema: the value, or `payload/invalid` naming the first problem and where it is. */
export function parse<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } }, payload: unknown): ServerResult<T> {
  const parsed = schema.safeParse(payload);
  if (parsed.success) return accept(parsed.data);
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
  return refuse('payload/invalid', `The request is not valid: ${where}${issue?.message ?? 'unreadable'}.`);
}
