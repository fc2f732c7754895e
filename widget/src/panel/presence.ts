import { h } from "../shared/dom";
import { session } from "../shared/session";
import { StateKey } from "../shared/state";
import { fmt, T } from "../shared/strings";
import type { ApiResult, Elements } from "../shared/types";
import { names } from "./messages";

// Staff typing comes with the held long-poll while the panel is open (`presence`: the newest
// expiry seen; the server answers when staff start or stop typing). A server that does not answer
// it there (an older one) has it read every 3 s instead (backing off on failures). The visitor's
// own typing is reported at most every 3 s while they type, and stopped 4 s after.

let els: Elements;
let active = () => false;
let readTimer = 0,
  failures = 0,
  clearTimer = 0,
  stopTimer = 0,
  sentAt = 0,
  typingOn = false,
  /** the newest expires_at (epoch ms) of the entries shown */
  seen = 0,
  /** the long-poll does not carry presence: read it every 3 s */
  old = false;

export function initPresence(elements: Elements, isActive: () => boolean): void {
  els = elements;
  active = isActive;
}

interface Entry {
  actor_id: string;
  author_type: string;
  typing: boolean;
  expires_at: string;
  author_name?: string | null;
}

function render(list: Entry[]): void {
  const who: string[] = [];
  for (const entry of list) {
    seen = Math.max(seen, Date.parse(entry.expires_at) || 0);
    if (entry.author_type !== "staff" || !entry.typing) continue;
    if (entry.author_name) names.set(entry.actor_id, entry.author_name);
    const name = names.get(entry.actor_id) || T.support;
    if (!who.includes(name)) who.push(name);
  }
  showTyping(who);
}

/** What the long-poll adds to its query: typing rides it while the panel is open. */
export const withPoll = () => (active() && !old ? "&presence=" + seen : "");

/** A long-poll's answer; `asked`: its query had presence. */
export function fromPoll(answer: ApiResult, asked: boolean): void {
  if (!asked || !active()) return;
  const list = answer.ok && (answer.result as { presence?: unknown } | null)?.presence;
  if (Array.isArray(list)) render(list as Entry[]);
  else if (answer.ok || answer.status === 400) {
    // An older server: it answers no presence, or refuses the parameter.
    old = true;
    void presence();
  }
}

/** The panel opened (or showed again): everything live is news. */
export function opened(): void {
  seen = 0;
  void presence();
}

/** Who is typing: animated dots and a line naming them (the text is all a screen reader gets). */
export function showTyping(who: string[]): void {
  const line = els.ty!;
  clearTimeout(clearTimer);
  if (!who.length) return line.replaceChildren();
  const dots = h("span", "dt");
  dots.setAttribute("aria-hidden", "true");
  dots.append(h("i"), h("i"), h("i"));
  const list = who.length > 1 ? who.slice(0, -1).join(", ") + T.and + who[who.length - 1] : who[0]!;
  line.replaceChildren(dots, h("span", "", fmt(who.length > 1 ? "typingMany" : "typingOne", { names: list })));
  clearTimer = window.setTimeout(() => line.replaceChildren(), 1e4); // entries live 10 s
}

/** Read others' presence; with a value, also report own typing. */
export async function presence(typing?: boolean): Promise<void> {
  clearTimeout(readTimer);
  if (!session.state[StateKey.Token] || session.boot.off() || (typing == null && !old)) return;
  const answer =
    typing == null && session.holdUntil > Date.now()
      ? null
      : await session.call("GET", "/api/v1/chat/visitor/presence" + (typing == null ? "" : "?typing=" + typing));
  if (answer?.ok && Array.isArray(answer.result)) {
    failures = 0;
    render(answer.result as Entry[]);
  } else failures++;
  if (old && active() && session.state[StateKey.Token]) readTimer = window.setTimeout(presence, failures ? Math.min(3e4, 3e3 * 2 ** failures) : 3e3);
}

export const stopReading = () => clearTimeout(readTimer);

/** After a send, look again in a second: staff may start typing at once (the long-poll needs no help). */
export const soon = () => {
  if (active()) {
    clearTimeout(readTimer);
    readTimer = window.setTimeout(presence, 1e3);
  }
};

export function typingOff(): void {
  clearTimeout(stopTimer);
  if (typingOn) {
    typingOn = false;
    sentAt = 0;
    void presence(false);
  }
}

/** The visitor typed (or cleared) the composer. */
export function typed(empty: boolean): void {
  if (!session.state[StateKey.Token] || session.state[StateKey.Ended]) return;
  if (empty) return typingOff();
  clearTimeout(stopTimer);
  stopTimer = window.setTimeout(typingOff, 4e3);
  if (Date.now() - sentAt > 3e3) {
    sentAt = Date.now();
    typingOn = true;
    void presence(true);
  }
}
