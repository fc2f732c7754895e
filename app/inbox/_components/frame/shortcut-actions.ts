import type { ShortcutAction } from "./keymap";

// What a shortcut (or the command palette) does on the page as it is: each control it reaches
// carries `data-shortcut-target="<action>"`, so the key does exactly what a click on it does and
// does nothing on a page without one (a snooze control appears only where snoozing exists).

const LIST_LINKS = 'li[data-conversation] a[href^="/inbox/conversations/"]';

export const targetOf = (name: string): HTMLElement | null => document.querySelector<HTMLElement>(`[data-shortcut-target="${name}"]`);

/** Moves the focus to the next (1) or previous (-1) conversation in the list; Enter then opens it. */
function moveInList(step: 1 | -1): boolean {
  const links = Array.from(document.querySelectorAll<HTMLAnchorElement>(LIST_LINKS)).filter((link) => link.offsetParent !== null);
  if (links.length === 0) return false;
  const from = links.findIndex((link) => link === document.activeElement);
  const start = from >= 0 ? from : links.findIndex((link) => link.getAttribute("aria-current") === "page");
  const next = start < 0 ? (step === 1 ? 0 : links.length - 1) : Math.min(links.length - 1, Math.max(0, start + step));
  links[next]!.focus();
  links[next]!.scrollIntoView({ block: "nearest" });
  return true;
}

/** Arrows move in the list only from the list or from nowhere: elsewhere they scroll as usual. */
export function arrowsBelongToList(target: EventTarget | null): boolean {
  return target === document.body || (target instanceof HTMLElement && target.matches(LIST_LINKS));
}

function compose(mode: "message" | "note"): boolean {
  const radio = document.querySelector<HTMLInputElement>(`input[name="mode"][value="${mode}"]`);
  const field = document.getElementById("composer-text");
  if (!radio || !field) return false;
  radio.click();
  // After React has applied the mode (a closed conversation's reply box is enabled for a note).
  requestAnimationFrame(() => field.focus());
  return true;
}

function focusSearch(): boolean {
  const box = document.getElementById("inbox-search");
  if (!(box instanceof HTMLInputElement)) return false;
  box.focus();
  box.select();
  return true;
}

function clickTarget(action: string): boolean {
  const target = targetOf(action);
  if (!target || (target instanceof HTMLButtonElement && target.disabled)) return false;
  target.click();
  // The labels' list opens; its first checkbox takes the focus.
  if (action === "label") requestAnimationFrame(() => target.parentElement?.querySelector<HTMLInputElement>("input[type=checkbox]")?.focus());
  return true;
}

/** What the page itself does: every shortcut but the two dialogs, and reopening (the palette's). */
export type PageAction = Exclude<ShortcutAction, "palette" | "help"> | "reopen";

/** Runs a page action; false when this page has nothing for it. */
export function runPageAction(action: PageAction): boolean {
  switch (action) {
    case "next":
      return moveInList(1);
    case "previous":
      return moveInList(-1);
    case "reply":
      return compose("message");
    case "note":
      return compose("note");
    case "search":
      return focusSearch();
    default:
      return clickTarget(action);
  }
}
