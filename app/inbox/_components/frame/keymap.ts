// The inbox's keyboard shortcuts: which key does what, in one place (docs/inbox.md lists them).
// Single keys never fire while the member types in a field or holds Ctrl, Cmd or Alt; the
// command palette's Ctrl-K / Cmd-K works everywhere.

export type ShortcutAction = "next" | "previous" | "reply" | "note" | "close" | "assign-me" | "snooze" | "label" | "search" | "palette" | "help";

export interface Shortcut {
  action: ShortcutAction;
  /** `KeyboardEvent.key` values that trigger it without a modifier. */
  keys: string[];
  /** How the help dialog writes them. */
  shown: string[];
  description: string;
}

export const SHORTCUTS: Shortcut[] = [
  { action: "next", keys: ["j", "ArrowDown"], shown: ["j", "↓"], description: "Next conversation in the list" },
  { action: "previous", keys: ["k", "ArrowUp"], shown: ["k", "↑"], description: "Previous conversation in the list" },
  { action: "reply", keys: ["r"], shown: ["r"], description: "Reply (focus the composer)" },
  { action: "note", keys: ["n"], shown: ["n"], description: "Write a private note" },
  { action: "close", keys: ["e"], shown: ["e"], description: "Close the conversation" },
  { action: "assign-me", keys: ["a"], shown: ["a"], description: "Assign the conversation to me" },
  { action: "snooze", keys: ["s"], shown: ["s"], description: "Snooze the conversation" },
  { action: "label", keys: ["l"], shown: ["l"], description: "Labels of the conversation" },
  { action: "search", keys: ["/"], shown: ["/"], description: "Search conversations and tickets" },
  { action: "palette", keys: [], shown: ["Ctrl K", "⌘ K"], description: "Command palette" },
  { action: "help", keys: ["?"], shown: ["?"], description: "This list of shortcuts" },
];

/** Enter opens the focused conversation: a link's own behaviour, listed for the help dialog. */
export const ENTER_OPENS = { shown: ["Enter"], description: "Open the chosen conversation" };

const SINGLE_KEYS: Record<string, ShortcutAction> = Object.fromEntries(SHORTCUTS.flatMap((shortcut) => shortcut.keys.map((key) => [key, shortcut.action])));

/** Whether a key press belongs to a field the member is typing in. */
export function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

type KeyPress = Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "altKey" | "target">;

/** The shortcut a key press means here, or null (typing, a modifier, or no shortcut). */
export function shortcutFor(event: KeyPress): ShortcutAction | null {
  if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === "k") return "palette";
  if (event.ctrlKey || event.metaKey || event.altKey || typingIn(event.target)) return null;
  return SINGLE_KEYS[event.key] ?? null;
}
