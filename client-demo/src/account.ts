import { net } from './net.js';

export interface Account {
  readonly name: string;
}

/** `ended`: the server's sentence when it ended this page's session (signed out elsewhere, run out, lost). */
type Listener = (account: Account | null, ended?: string) => void;
const listeners = new Set<Listener>();
let current: Promise<Account | null> | undefined;

/** The signed-in account (the session is an HttpOnly cookie the page never sees), or null for a guest. */
export function account(): Promise<Account | null> {
  current ??= fetch('/api/account', { headers: { accept: 'application/json' } })
    .then((res) => res.json() as Promise<{ account: Account | null }>)
    .then((body) => body.account)
    .catch(() => null);
  return current;
}

export function onAccount(fn: Listener): () => void {
  listeners.add(fn);
  void account().then(fn);
  return () => listeners.delete(fn);
}

function changed(next: Account | null): void {
  current = Promise.resolve(next);
  net().renew(); // the connection's handshake carries the new cookie
  for (const fn of listeners) fn(next);
}

/** Signs in or up; resolves with the account, or rejects with the server's sentence. */
export async function authenticate(kind: 'signin' | 'signup', name: string, password: string): Promise<Account> {
  const res = await fetch(`/api/account/${kind}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name, password }) });
  const body = (await res.json()) as { ok: boolean; account?: Account; error?: { message: string } };
  if (!body.ok || !body.account) throw new Error(body.error?.message ?? `HTTP ${res.status}`);
  changed(body.account);
  return body.account;
}

/** The server ended the session this page's connection was signed in with: the page is a guest's. */
export function sessionEnded(message: string): void {
  current = Promise.resolve(null);
  for (const fn of listeners) fn(null, message);
}

export async function signOut(): Promise<void> {
  await fetch('/api/account/signout', { method: 'POST' });
  changed(null);
}
