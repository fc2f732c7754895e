import { add, type Message } from "./messages";
import { fromPoll, withPoll } from "./presence";
import { boot, holdUntil, st, vcall } from "./session";
import type { Res } from "./types";

// Messages arrive by long-poll while the page is visible (held up to 25 s), by a short poll a
// minute apart while hidden; while the panel is open the long-poll also brings staff typing
// (presence.ts). Failures back off (2 s, 4 s … a minute, with jitter); a 429 or 503
// holds every poll until its Retry-After.

const D = document;
export const poll = {
  /** the sequence shown so far */
  cursor: 0,
  /** the page is hidden away (pagehide) */
  away: false,
  /** one per conversation: a poll of an earlier one is ignored */
  generation: 0,
  /** staff (or system) messages arrived: the caller counts them as unread */
  arrived: (_m: Message) => {},
  /** after each page of messages */
  after: () => {},
};

let timer = 0,
  busy = false,
  again = false,
  fails = 0,
  heldToken = "";
let held: AbortController | null = null;

export const kick = () => {
  clearTimeout(timer);
  timer = window.setTimeout(tick, 0);
};
/** Abort the held poll; tick() then polls anew. */
export const drop = () => held?.abort();
/** Poll anew now, with what the query should carry now (the panel opened). */
export const repoll = () => (held ? drop() : kick());
/** The token changed: a poll held with the old one is re-sent. */
export const tokenMoved = () => {
  if (held && heldToken !== st.t) drop();
};

async function pollMessages(signal: AbortSignal): Promise<Res> {
  const g = poll.generation;
  for (;;) {
    const typing = withPoll();
    const path = "/api/v1/chat/visitor/messages?cursor=" + poll.cursor + "&limit=50" + (D.hidden ? "" : "&wait=25" + typing);
    const r = await vcall("GET", path, undefined, signal, (t) => (heldToken = t));
    if (g !== poll.generation) return r;
    fromPoll(r, !!typing); // before the messages: a staff message ends the typing line
    if (!r.ok) return r;
    const page = (r.result || {}) as { items?: Message[]; next_cursor?: number; has_more?: boolean };
    const items = page.items || [];
    for (const m of items) if (add(m)) poll.arrived(m);
    if ((page.next_cursor || 0) > poll.cursor) poll.cursor = page.next_cursor || 0;
    poll.after();
    if (!page.has_more || !items.length) return r;
  }
}

async function tick(): Promise<void> {
  if (busy) return void (again = true);
  if (!st.t || boot.off() || poll.away) return;
  if (holdUntil > Date.now()) return void (timer = window.setTimeout(tick, holdUntil - Date.now()));
  busy = true;
  const t0 = Date.now(),
    a = (held = new AbortController());
  const r = await pollMessages(a.signal);
  busy = false;
  held = null;
  clearTimeout(timer);
  if (a.signal.aborted) return void (poll.away || kick());
  fails = r.ok ? 0 : fails + 1;
  if (!st.t) return;
  // Visible: again at once, but at most once a second
  const wait = again ? 0 : !r.ok ? (Math.min(6e4, 2e3 * 2 ** fails) * (1 + Math.random())) / 2 : D.hidden ? 6e4 : t0 + 1e3 - Date.now();
  timer = window.setTimeout(tick, wait);
  again = false;
}
