import { h } from '../dom.js';

/** What the figures of a rating mean (Glicko-2, as on Lichess): said under every table of ratings. */
export const RD_MEANING = 'rating deviation: how unsure the rating still is; it shrinks as games are played';

export function ratingLegend(): HTMLElement {
  return h(
    'p',
    { class: 'muted small rating-legend', 'data-testid': 'rating-legend' },
    h('b', null, '?'),
    ' after a rating: provisional, too few games yet to be sure of it. ',
    h('b', null, 'RD'),
    `: the ${RD_MEANING}. A player's true strength lies within about two RD of the rating.`,
  );
}

/** A table's "RD" heading, explained on hover and to screen readers. */
export const rdHeading = (): HTMLElement => h('abbr', { title: RD_MEANING }, 'RD');
