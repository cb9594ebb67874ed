import './base.css';
import { installDefs } from './boards/defs.js';
import { h, replace } from './dom.js';
import { net } from './net.js';
import { onAccount, sessionEnded, signOut } from './account.js';
import { accountPage } from './pages/account.js';
import { adminPage } from './pages/admin.js';
import { playerPage } from './pages/player.js';
import { ratingsPage } from './pages/ratings.js';
import { gamePage } from './pages/game.js';
import { lobbyPage } from './pages/lobby.js';
import { replayPage } from './pages/replay.js';
import { tournamentPage } from './pages/tournament.js';
import { isAdmin } from './admin-mark.js';
import { link, parseRoute, playerLink, startRouter } from './router.js';

installDefs();

const status = h('span', { class: 'net-status', 'data-testid': 'net-status' });
const nav = h('nav', { class: 'top-nav', 'aria-label': 'Main' }, link('/', 'Lobby', 'nav-link', 'nav-lobby'), link('/ratings', 'Ratings', 'nav-link', 'nav-ratings'));
const adminLink = link('/admin', 'Admin', 'nav-link', 'nav-admin');
const who = h('span', { class: 'account-box', 'data-testid': 'account-box' });
onAccount((account, ended) => {
  if (account) {
    replace(who, playerLink(account.name, 'account-name-link'), h('button', { type: 'button', class: 'btn small', 'data-testid': 'sign-out', onclick: () => void signOut() }, 'Sign out'));
  } else {
    const signIn = link(`/account?next=${encodeURIComponent(location.pathname)}`, 'Sign in', 'btn small', 'sign-in-link');
    replace(who, ended ? h('span', { class: 'session-ended', role: 'status', 'data-testid': 'session-ended' }, ended) : null, signIn);
  }
});
net().on('session:ended', (event) => sessionEnded(event.message));
const main = h('main', { id: 'main', tabindex: -1 });
// A link past the header for keyboards: the router would treat `#main` as a new page, so it focuses by hand.
const skip = h('a', { href: '#main', class: 'skip-link', 'data-testid': 'skip-link' }, 'Skip to the page');
skip.addEventListener('click', (e) => {
  e.preventDefault();
  main.focus();
});
replace(
  document.getElementById('app')!,
  skip,
  h('header', { class: 'app-header' }, h('a', { href: '/', class: 'brand', 'data-route': true, 'aria-label': 'Boardroom' }, h('span', { class: 'brand-mark' }), h('span', { class: 'brand-name' }, 'Boardroom')), nav, who, status),
  main,
);

let dispose: (() => void) | undefined;

function render(): void {
  dispose?.();
  dispose = undefined;
  const route = parseRoute();
  // Admins only: the console's session leaves a mark the page can read (the session itself it cannot).
  if (isAdmin()) nav.append(adminLink);
  else adminLink.remove();
  const section = route.page === 'admin' ? '/admin' : route.page === 'ratings' || route.page === 'player' ? '/ratings' : '/';
  for (const a of nav.querySelectorAll('a')) a.classList.toggle('active', a.getAttribute('href') === section && route.page !== 'missing');
  window.scrollTo(0, 0);
  switch (route.page) {
    case 'lobby':
      dispose = lobbyPage(main);
      break;
    case 'game':
      dispose = gamePage(main, route.id);
      break;
    case 'replay':
      dispose = replayPage(main, route.id);
      break;
    case 'admin':
      dispose = adminPage(main, route.watch);
      break;
    case 'account':
      dispose = accountPage(main, route.next);
      break;
    case 'ratings':
      dispose = ratingsPage(main, route.game);
      break;
    case 'player':
      dispose = playerPage(main, route.name);
      break;
    case 'tournament':
      dispose = tournamentPage(main, route.id);
      break;
    case 'missing':
      replace(main, h('div', { class: 'empty-state' }, h('h1', { class: 'page-title' }, 'Nothing here'), link('/', 'Back to the lobby', 'btn primary')));
  }
}

// The players' connection (the admin console has its own as well).
net().onState((state) => {
  status.dataset.state = state;
  status.textContent = state === 'online' ? 'online' : state === 'connecting' ? 'connecting…' : 'reconnecting…';
});

/** For tests and curious people: the live connection. */
(window as unknown as { boardroom: unknown }).boardroom = { net: net() };

startRouter(render);
