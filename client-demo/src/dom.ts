/** A few helpers to build DOM and SVG trees without a framework. */

type Child = Node | string | number | null | undefined | false | readonly Child[];
type Handler = (event: Event) => void;
export type Attrs = Record<string, string | number | boolean | null | undefined | Handler>;

function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else if (child instanceof Node) parent.appendChild(child);
    else parent.appendChild(document.createTextNode(String(child)));
  }
}

function setAttrs(el: Element, attrs: Attrs | undefined): void {
  if (!attrs) return;
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(key.replace(/^on/, '').toLowerCase(), value);
    else if (key === 'class') el.setAttribute('class', String(value));
    else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
}

/** An HTML element: `h('button', { class: 'primary', onclick: go }, 'Play')`. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  setAttrs(el, attrs ?? undefined);
  append(el, children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element. */
export function s<K extends keyof SVGElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: Child[]): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs ?? undefined);
  append(el, children);
  return el;
}

export function clear(el: Element): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}

export function replace(el: Element, ...children: Child[]): void {
  clear(el);
  append(el, children);
}

/** A set of listeners and timers a page removes at once when it goes away. */
export class Disposer {
  private readonly undo: (() => void)[] = [];
  disposed = false;
  add(fn: () => void): void {
    this.undo.push(fn);
  }
  listen<E extends Event = Event>(target: EventTarget, type: string, fn: (event: E) => void, options?: AddEventListenerOptions): void {
    target.addEventListener(type, fn as EventListener, options);
    this.undo.push(() => target.removeEventListener(type, fn as EventListener, options));
  }
  interval(fn: () => void, ms: number): void {
    const id = window.setInterval(fn, ms);
    this.undo.push(() => window.clearInterval(id));
  }
  dispose(): void {
    this.disposed = true;
    while (this.undo.length > 0) this.undo.pop()!();
  }
}

/** A short message at the bottom of the screen. */
export function toast(message: string, kind: 'info' | 'error' = 'info'): void {
  let host = document.getElementById('toasts');
  if (!host) {
    host = h('div', { id: 'toasts', role: 'status', 'aria-live': 'polite' });
    document.body.appendChild(host);
  }
  const item = h('div', { class: `toast toast-${kind}` }, message);
  host.appendChild(item);
  window.setTimeout(() => item.classList.add('leaving'), 3200);
  window.setTimeout(() => item.remove(), 3600);
}

/** True when a key press belongs to a text field, not to the board. */
export function typingInField(event: KeyboardEvent): boolean {
  const target = event.target as HTMLElement | null;
  if (!target) return false;
  const tag = target.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || target.isContentEditable;
}
