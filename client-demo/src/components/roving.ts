/**
 * One Tab stop for a group of buttons, as the ARIA radio group and toolbar patterns ask: the chosen
 * (or first) button is in the tab order and the arrow keys, Home and End move among the rest. In a
 * radio group (`choose`) moving also chooses, as native radio buttons do.
 */
export function roving<T extends HTMLElement>(group: T, choose: boolean): T {
  const enabled = () => [...group.querySelectorAll<HTMLButtonElement>('button:not([disabled])')];
  const stop = enabled().find((b) => b.getAttribute('aria-checked') === 'true') ?? enabled()[0];
  for (const b of group.querySelectorAll<HTMLButtonElement>('button')) b.tabIndex = b === stop ? 0 : -1;
  group.addEventListener('keydown', (e) => {
    const list = enabled();
    const at = list.indexOf(document.activeElement as HTMLButtonElement);
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
    const to = e.key === 'Home' ? 0 : e.key === 'End' ? list.length - 1 : step !== undefined ? (at + step + list.length) % list.length : -1;
    if (at < 0 || to < 0) return;
    e.preventDefault();
    for (const b of list) b.tabIndex = b === list[to] ? 0 : -1;
    list[to]!.focus();
    if (choose) list[to]!.click();
  });
  return group;
}

/** Where the focus is inside `root`, as a selector that finds the same control after `root` is drawn again. */
export function focusedControl(root: HTMLElement): string | null {
  const el = document.activeElement;
  if (!(el instanceof HTMLElement) || !root.contains(el)) return null;
  const named = el.closest<HTMLElement>('[data-testid]');
  if (!named || !root.contains(named)) return null;
  const group = `[data-testid="${named.dataset.testid}"]`;
  return named === el || !el.dataset.value ? group : `${group} [data-value="${el.dataset.value}"]`;
}
