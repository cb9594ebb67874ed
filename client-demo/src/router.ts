import { GAME_IDS, isGameId, type GameId } from '../../shared/rules.js';
import { h } from './dom.js';

/** Paths the client knows: `/`, `/game/<id>`, `/replay/<id>`, `/admin`, `/account`, `/ratings/<game>`, `/players/<name>`. */
export type Route =
  | { page: 'lobby' }
  | { page: 'game'; id: string }
  | { page: 'replay'; id: string }
  | { page: 'admin'; watch: string | null }
  | { page: 'account'; next: string }
  | { page: 'ratings'; game: GameId }
  | { page: 'player'; name: string }
  | { page: 'tournament'; id: string }
  | { page: 'missing' };

export function parseRoute(loc: Location = location): Route {
  const path = loc.pathname.replace(/\/+$/, '') || '/';
  if (path === '/') return { page: 'lobby' };
  if (path === '/admin') return { page: 'admin', watch: new URLSearchParams(loc.search).get('watch') };
  const game = /^\/game\/([^/]+)$/.exec(path);
  if (game) return { page: 'game', id: decodeURIComponent(game[1]!) };
  const replay = /^\/replay\/([^/]+)$/.exec(path);
  if (replay) return { page: 'replay', id: decodeURIComponent(replay[1]!) };
  if (path === '/account') return { page: 'account', next: new URLSearchParams(loc.search).get('next') ?? '/' };
  if (path === '/ratings') return { page: 'ratings', game: GAME_IDS[0] };
  const ratings = /^\/ratings\/([^/]+)$/.exec(path);
  if (ratings && isGameId(ratings[1]!)) return { page: 'ratings', game: ratings[1] };
  const player = /^\/players\/([^/]+)$/.exec(path);
  if (player) return { page: 'player', name: decodeURIComponent(player[1]!) };
  const tournament = /^\/tournaments\/([^/]+)$/.exec(path);
  if (tournament) return { page: 'tournament', id: decodeURIComponent(tournament[1]!) };
  return { page: 'missing' };
}

let onNavigate: (() => void) | undefined;

export function startRouter(render: () => void): void {
  onNavigate = render;
  window.addEventListener('popstate', render);
  document.addEventListener('click', (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = (e.target as Element).closest('a');
    if (!a || a.target || a.hasAttribute('download') || a.origin !== location.origin) return;
    if (!a.hasAttribute('data-route')) return;
    e.preventDefault();
    navigate(a.pathname + a.search);
  });
  render();
}

export function navigate(path: string, replace = false): void {
  if (replace) history.replaceState(null, '', path);
  else if (location.pathname + location.search !== path) history.pushState(null, '', path);
  onNavigate?.();
}

/** An in-app link: followed without reloading the page. */
export function link(path: string, label: string, cls = '', testid?: string): HTMLAnchorElement {
  return h('a', { href: path, class: cls, 'data-route': true, 'data-testid': testid }, label);
}

/** A player's name, leading to its profile. */
export function playerLink(name: string, testid?: string): HTMLAnchorElement {
  return link(`/players/${encodeURIComponent(name)}`, name, 'player-link', testid);
}
