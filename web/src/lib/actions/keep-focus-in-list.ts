// A Svelte action for a list of cards that leave it (a decided approval): when the card holding the focus leaves, the
// focus moves to the card that took its place (the next one), else the one before it, else `fallback()`: never to
// <body>, where a keyboard user would have to start again from the top of the page.

export interface KeepFocusOptions {
  /** Which children are the cards (they get tabindex=-1 when focused this way). */
  item: string;
  /** Where the focus goes when the last card leaves (the page's main region, say). */
  fallback?: () => HTMLElement | null | undefined;
}

const lost = () => document.activeElement === null || document.activeElement === document.body;

export function keepFocusInList(list: HTMLElement, options: KeepFocusOptions) {
  let current = options;
  /** The card the focus was last in, and the card after it then (its place in the list). */
  let focused: { card: Element; next: Element | null; previous: Element | null } | undefined;

  const cards = () => [...list.querySelectorAll(current.item)];
  const remember = (event: FocusEvent) => {
    const card = event.target instanceof Element ? event.target.closest(current.item) : null;
    if (!card || !list.contains(card)) return;
    const all = cards();
    const index = all.indexOf(card);
    focused = { card, next: all[index + 1] ?? null, previous: all[index - 1] ?? null };
  };
  const focus = (target: HTMLElement) => {
    if (target.tabIndex < 0 && !target.hasAttribute('tabindex')) target.tabIndex = -1;
    target.focus();
  };
  const follow = () => {
    if (!focused || focused.card.isConnected || !lost()) return;
    const { next, previous } = focused;
    focused = undefined;
    const all = cards();
    // The card now where the left one was: the next one if it is still here, else whichever took the place.
    const target =
      (next?.isConnected ? next : undefined) ?? (previous?.isConnected ? (all[all.indexOf(previous) + 1] ?? previous) : all[0]);
    if (target instanceof HTMLElement) focus(target);
    else {
      const fallback = current.fallback?.();
      if (fallback) focus(fallback);
    }
  };

  const observer = new MutationObserver(follow);
  observer.observe(list, { childList: true, subtree: true });
  list.addEventListener('focusin', remember);
  return {
    update(next: KeepFocusOptions) {
      current = next;
    },
    destroy() {
      observer.disconnect();
      list.removeEventListener('focusin', remember);
      // The list itself went (its last card left, an empty state took its place): once that is done, the fallback.
      if (focused) setTimeout(follow, 0);
    },
  };
}
