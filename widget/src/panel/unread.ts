import { session } from "../shared/session";
import { StateKey } from "../shared/state";
import { loadChunk } from "./chunks";
import { fmt, T } from "../shared/strings";
import { panel } from "./panel-state";
import { poll } from "./poll";

// What arrived unread: the launcher's badge and accessible name, the tab's title while the page is
// hidden, and a chime (data-sound="on": the sound chunk) for what arrives while the visitor is not looking.

const doc = document;
/** Sequences of others' messages, for the unread count. */
let incoming: number[] = [];
/** The page's own title while ours is shown instead. */
let pageTitle: string | null = null;

export const forgetIncoming = () => void (incoming = []);

/** Someone else's message arrived: counted, and chimed when the visitor is not looking. */
export function countIncoming(sequence: number): void {
  incoming.push(sequence);
  if (session.boot.sound && !panel.active() && sequence > (session.state[StateKey.SeenSequence] || 0)) void loadChunk("sound").then((sound) => sound?.chime());
}

/** Unread badge, the launcher's name, the tab title while hidden. */
export function showUnread(): void {
  const boot = session.boot;
  if (panel.active() && poll.cursor > (session.state[StateKey.SeenSequence] || 0)) {
    session.state[StateKey.SeenSequence] = poll.cursor;
    session.save();
  }
  const unread = incoming.filter((sequence) => sequence > (session.state[StateKey.SeenSequence] || 0)).length;
  boot.badge.hidden = !unread;
  boot.badge.textContent = unread > 9 ? "9+" : String(unread);
  // The launcher's visible words (site config) start its name (WCAG 2.5.3, label in name)
  const words = boot.launcher.dataset.label;
  boot.label((words ? words + ": " : "") + (panel.isOpen ? T.closeChat : T.openChat) + (unread ? ", " + fmt("unread", { n: unread }) : ""));
  if (doc.hidden && unread > 0) {
    pageTitle ??= doc.title;
    doc.title = fmt("newMessage", { n: unread });
  } else if (pageTitle !== null) {
    doc.title = pageTitle;
    pageTitle = null;
  }
}
