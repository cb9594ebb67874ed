import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

// Globals of the page, used inside page.evaluate callbacks (the project's tsconfig has no DOM lib).
declare const document: any, window: any, axe: any; // eslint-disable-line @typescript-eslint/no-explicit-any

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export interface AxeViolation {
  readonly id: string;
  readonly impact: string;
  readonly help: string;
  readonly nodes: string[];
}

/** axe-core's violations on the page as it stands, of any impact. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => typeof window.axe !== 'undefined'))) await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v: any) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n: any) => `${n.target.join(' ')} — ${n.failureSummary}`) })); // eslint-disable-line @typescript-eslint/no-explicit-any
  });
}

/**
 * How far the page reaches past the screen's right edge (0 when nothing scrolls sideways), and what
 * sticks out most. A phone widens its layout to content that does not fit, so `innerWidth` alone
 * would hide it: the screen's width is the bound.
 */
export async function sideways(page: Page): Promise<{ overflow: number; widest: string | null }> {
  return page.evaluate(() => {
    const width = Math.min(window.innerWidth, window.screen.width);
    const overflow = document.documentElement.scrollWidth - width;
    let widest: string | null = null;
    let right = width;
    for (const el of document.querySelectorAll('body *')) {
      const box = el.getBoundingClientRect();
      if (box.width > 0 && box.right > right + 0.5) {
        right = box.right;
        widest = `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}[${el.getAttribute('data-testid') ?? ''}] → ${Math.round(box.right)}px`;
      }
    }
    return { overflow: Math.max(0, overflow), widest };
  });
}
