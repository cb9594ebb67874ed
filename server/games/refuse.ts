import type { ErrorCode, ServerError } from '../../shared/protocol/index.js';

export type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ServerError };

export function refuse(code: ErrorCode, message: string): { readonly ok: false; readonly error: ServerError } {
  return { ok: false, error: { code, message } };
}

export function accept<T>(value: T): { readonly ok: true; readonly value: T } {
  return { ok: true, value };
}

/** A payload checked against its shared schema: the value, or `payload/invalid` naming the first problem and where it is. */
export function parse<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } }, payload: unknown): Outcome<T> {
  const parsed = schema.safeParse(payload);
  if (parsed.success) return accept(parsed.data);
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
  return refuse('payload/invalid', `The request is not valid: ${where}${issue?.message ?? 'unreadable'}.`);
}
