import { GAME_IDS } from '../../../shared/rules.js';
import { s } from '../dom.js';
import { CLIENT_GAMES } from '../games/index.js';

function radial(id: string, stops: [string, string][], cx = '35%', cy = '30%'): SVGRadialGradientElement {
  return s('radialGradient', { id, cx, cy, r: '75%' }, ...stops.map(([offset, color]) => s('stop', { offset, 'stop-color': color })));
}

/**
 * One hidden <svg> of shared definitions (gradients, each game's own, such as MiniChess's pieces)
 * placed once in the page, so every board, large or small, refers to them by id.
 */
export function installDefs(): void {
  if (document.getElementById('board-defs')) return;
  const defs = s(
    'defs',
    null,
    radial('disc-black', [
      ['0%', '#5b6068'],
      ['45%', '#24272c'],
      ['100%', '#0b0c0e'],
    ]),
    radial('disc-white', [
      ['0%', '#ffffff'],
      ['60%', '#f1f1ee'],
      ['100%', '#c9cac6'],
    ]),
    radial('stone-black', [
      ['0%', '#6a6f78'],
      ['35%', '#2a2d33'],
      ['100%', '#08090a'],
    ]),
    radial('stone-white', [
      ['0%', '#ffffff'],
      ['70%', '#eeeeea'],
      ['100%', '#bdbdb7'],
    ]),
    s('marker', { id: 'arrow-head', viewBox: '0 0 10 10', refX: 5, refY: 5, markerWidth: 3.2, markerHeight: 3.2, orient: 'auto-start-reverse' }, s('path', { d: 'M0 0 L10 5 L0 10 Z', fill: '#3b82f6' })),
    ...GAME_IDS.flatMap((game) => CLIENT_GAMES[game].defs?.() ?? []),
  );
  const svg = s('svg', { id: 'board-defs', width: 0, height: 0, 'aria-hidden': 'true', style: 'position:absolute;width:0;height:0;overflow:hidden' }, defs);
  document.body.prepend(svg);
}
