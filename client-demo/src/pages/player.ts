import './ratings.css';
import type { GameResult, RatingChangeView, RatingView } from '../../../shared/protocol/index.js';
import type { GameId } from '../../../shared/rules.js';
import { h, replace } from '../dom.js';
import { ago, changeText, ratingText, reasonText } from '../format.js';
import { CLIENT_GAMES } from '../games/index.js';
import { getJson } from '../net.js';
import { link } from '../router.js';
import { ratingLegend, rdHeading } from '../components/rating-legend.js';

interface Profile {
  readonly name: string;
  readonly kind: 'person' | 'agent' | 'bot';
  readonly ratings: Partial<Record<GameId, RatingView>>;
  readonly recent: readonly {
    readonly id: string;
    readonly game: GameId;
    readonly players: { readonly black: { name: string | null }; readonly white: { name: string | null } };
    readonly result: GameResult | null;
    readonly rated: boolean;
    readonly ratingChange: { readonly black: RatingChangeView; readonly white: RatingChangeView } | null;
    readonly updatedAt: number;
  }[];
}

/** A player's page: its rating in each game and its latest games. */
export function playerPage(root: HTMLElement, name: string): () => void {
  let alive = true;
  replace(root, h('div', { class: 'page' }, h('p', { class: 'muted' }, 'Loading…')));
  void getJson<Profile>(`/api/players/${encodeURIComponent(name)}`).then(
    (p) => {
      if (!alive) return;
      const games = Object.entries(p.ratings) as [GameId, RatingView][];
      const ratings =
        games.length === 0
          ? h('p', { class: 'muted' }, 'No rated game yet.')
          : h(
              'table',
              { class: 'table', 'data-testid': 'profile-ratings' },
              h('thead', null, h('tr', null, ...['Game', 'Rating', rdHeading(), 'Games', 'W', 'D', 'L'].map((t, i) => h('th', { class: i >= 1 ? 'figure' : '' }, t)))),
              h(
                'tbody',
                null,
                ...games.map(([game, r]) =>
                  h('tr', { 'data-game': game }, h('td', null, link(`/ratings/${game}`, CLIENT_GAMES[game].title)), ...[ratingText(r), r.rd, r.games, r.wins, r.draws, r.losses].map((v) => h('td', { class: 'figure' }, String(v)))),
                ),
              ),
            );
      const recent =
        p.recent.length === 0
          ? h('p', { class: 'muted' }, 'No finished game yet.')
          : h(
              'ul',
              { class: 'recent-games', 'data-testid': 'profile-games' },
              ...p.recent.map((g) => {
                const color = g.players.black.name === p.name ? 'black' : 'white';
                const opponent = g.players[color === 'black' ? 'white' : 'black'].name ?? 'open seat';
                const outcome = !g.result ? '' : g.result.winner === null ? 'draw' : g.result.winner === color ? 'won' : 'lost';
                const change = g.ratingChange?.[color];
                return h(
                  'li',
                  null,
                  link(`/replay/${g.id}`, `${CLIENT_GAMES[g.game].title} vs ${opponent}`),
                  h('span', { class: `outcome ${outcome}` }, outcome),
                  g.result ? h('span', { class: 'muted' }, reasonText(g.result)) : null,
                  change ? h('span', { class: 'rating-change' }, changeText(change)) : g.rated ? null : h('span', { class: 'muted' }, 'casual'),
                  h('span', { class: 'muted' }, ago(g.updatedAt)),
                );
              }),
            );
      replace(
        root,
        h(
          'div',
          { class: 'page profile', 'data-testid': 'profile' },
          h('h1', { class: 'page-title' }, p.name, ' ', h('span', { class: `badge badge-${p.kind === 'person' ? 'you' : p.kind}` }, p.kind)),
          h('div', { class: 'card' }, h('div', { class: 'card-title' }, 'Ratings'), h('div', { class: 'table-scroll' }, ratings), games.length > 0 ? ratingLegend() : null),
          h('div', { class: 'card' }, h('div', { class: 'card-title' }, 'Recent games'), recent),
        ),
      );
    },
    (error: Error) => alive && replace(root, h('div', { class: 'empty-state' }, h('h1', { class: 'page-title' }, 'No such player'), h('p', null, error.message), link('/', 'Back to the lobby', 'btn primary'))),
  );
  return () => void (alive = false);
}

