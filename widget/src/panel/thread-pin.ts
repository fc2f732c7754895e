// Keeps the thread pinned to its newest message while the visitor is at its end, whenever the
// panel's layout changes the thread's size (the close card appearing and its rating growing it,
// the composer growing, a phone's keyboard): otherwise the last reply slides below the fold.
// (A row added to the thread is placed at the end by messages.ts while the visitor is there.)
//
// Whether the visitor is at the end is read from their own scrolling only: the browser dispatches
// the scroll event of a change of size before the ResizeObserver's callback, measured against the
// new layout, which would otherwise count as the visitor leaving the end.

/** Within this many pixels of the end counts as at the end. */
const NEAR_END = 80;

export const atEnd = (list: HTMLElement) => list.scrollHeight - list.scrollTop - list.clientHeight < NEAR_END;

/**
 * Pins `list` to its end through changes of its size: the panel's height is fixed, so whatever
 * grows around the list (the close card, the rating, the composer) shrinks it.
 */
export function pinToEnd(list: HTMLElement): void {
  let pinned = true;
  /** The list's height when last followed: a scroll at another height is the layout's, not the visitor's. */
  let height = 0;
  const follow = () => {
    if (pinned) list.scrollTop = list.scrollHeight;
    height = list.clientHeight;
  };
  list.addEventListener("scroll", () => (list.clientHeight === height ? (pinned = atEnd(list)) : follow()), { passive: true });
  new ResizeObserver(follow).observe(list);
}
