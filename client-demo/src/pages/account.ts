import './account.css';
import { authenticate } from '../account.js';
import { h, replace } from '../dom.js';
import { navigate } from '../router.js';

/** Sign in or create an account: a name and a password; the session is a cookie the page never reads. */
export function accountPage(root: HTMLElement, next: string): () => void {
  const name = h('input', { type: 'text', id: 'account-name', maxlength: 24, autocomplete: 'username', required: true, 'data-testid': 'account-name' });
  const password = h('input', { type: 'password', id: 'account-password', maxlength: 200, autocomplete: 'current-password', required: true, 'data-testid': 'account-password' });
  const problem = h('p', { class: 'form-error', role: 'alert', 'data-testid': 'account-error', hidden: true });
  const submit = async (kind: 'signin' | 'signup'): Promise<void> => {
    problem.hidden = true;
    try {
      await authenticate(kind, name.value.trim(), password.value);
      navigate(next, true);
    } catch (error) {
      problem.textContent = error instanceof Error ? error.message : String(error);
      problem.hidden = false;
    }
  };
  const form = h(
    'form',
    { class: 'card account-form', novalidate: true, 'data-testid': 'account-form' },
    h('h1', { class: 'page-title' }, 'Your account'),
    h('p', { class: 'muted' }, 'An account gives you a rating in each game and rated quick pairing. Guests still play casual games.'),
    h('label', { for: 'account-name' }, 'Name'),
    name,
    h('small', { class: 'muted' }, '2 to 24 letters, digits, "-" or "_"'),
    h('label', { for: 'account-password' }, 'Password'),
    password,
    h('small', { class: 'muted' }, 'at least 8 characters'),
    problem,
    h(
      'div',
      { class: 'form-actions' },
      h('button', { type: 'submit', class: 'btn primary', 'data-testid': 'sign-in' }, 'Sign in'),
      h('button', { type: 'button', class: 'btn', 'data-testid': 'sign-up', onclick: () => void submit('signup') }, 'Create account'),
    ),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void submit('signin');
  });
  replace(root, h('div', { class: 'narrow' }, form));
  name.focus();
  return () => undefined;
}
