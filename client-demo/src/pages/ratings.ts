import './ratings.css';
import type { RatingView } from '../../../shared/protocol/index.js';
import { GAME_IDS, type GameId } from '../../../shared/rules.js';
import { h, replace } from '../dom.js';
import { CLIENT_GAMES } from '../games/index.js';
import { getJson } from '../net.js';
import { ratingText } from '../format.js';
import { link, playerLink } from '../router.js';
import { ratingLegend, rdHeading } from '../components/rating-legend.js';


/** The leaderboard of one game: people, agents and bots in one pool. */
export function ratingsPage(root: HTMLElement, game: GameId): () => void {
  let alive = true;
  const tabs = h('nav', { class: 'tabs' }, ...GAME_IDS.map((g) => link(`/ratings/${g}`, CLIENT_GAMES[g].title, g === game ? 'tab on' : 'tab', `ratings-tab-${g}`)));
  const body = h('div', { class: 'card' }, h('p', { class: 'muted' }, 'Loading…'));
  replace(root, h('div', { class: 'page ratings' }, h('h1', { class: 'page-title' }, 'Leaderboard'), tabs, body));
  void getJson<{ ratings: RatingView[] }>(`/api/ratings/${game}`).then(
    ({ ratings }) => {
      if (!alive) return;
      if (ratings.length === 0) return replace(body, h('p', { class: 'muted' }, `No rated ${CLIENT_GAMES[game].title} game has been played yet.`));
      replace(
        body,
        h(
          'div',
          { class: 'table-scroll' },
          h(
            'table',
            { class: 'table leaderboard', 'data-testid': 'leaderboard' },
            h('thead', null, h('tr', null, ...['#', 'Name', 'Kind', 'Rating', rdHeading(), 'Games', 'W', 'D', 'L'].map((t, i) => h('th', { class: i >= 3 ? 'figure' : '' }, t)))),
            h(
              'tbody',
              null,
              ...ratings.map((r) =>
                h(
                  'tr',
                  { 'data-testid': 'leaderboard-row', 'data-name': r.name, 'data-kind': r.kind },
                  h('td', null, String(r.rank)),
                  h('td', null, playerLink(r.name)),
                  h('td', null, h('span', { class: `badge badge-${r.kind === 'person' ? 'you' : r.kind}` }, r.kind)),
                  h('td', { class: 'figure', title: r.provisional ? 'provisional: the rating is still settling' : '' }, ratingText(r)),
                  h('td', { class: 'figure' }, String(r.rd)),
                  h('td', { class: 'figure' }, String(r.games)),
                  h('td', { class: 'figure' }, String(r.wins)),
                  h('td', { class: 'figure' }, String(r.draws)),
                  h('td', { class: 'figure' }, String(r.losses)),
                ),
              ),
            ),
          ),
        ),
        ratingLegend(),
      );
    },
    (error: Error) => alive && replace(body, h('p', { class: 'form-error' }, error.message)),
  );
  return () => void (alive = false);
}
