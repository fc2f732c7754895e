import type { Message } from "../shared/message";
import { session } from "../shared/session";
import { StateKey } from "../shared/state";
import type { ApiResult } from "../shared/types";
import { add } from "./messages";
import { fromPoll, withPoll } from "./presence";

// Messages arrive by long-poll while the page is visible (held up to 25 s), by a short poll a
// minute apart while hidden; while the panel is open the long-poll also brings staff typing
// (presence.ts). Failures back off (2 s, 4 s … a minute, with jitter); a 429 or 503
// holds every poll until its Retry-After. Each message of someone else is the session's
// `arrived`; each page shown, `pageShown`.

const doc = document;
export const poll = {
  /** the sequence shown so far */
  cursor: 0,
  /** the page is hidden away (pagehide) */
  away: false,
  /** one per conversation: a poll of an earlier one is ignored */
  generation: 0,
};

let timer = 0,
  busy = false,
  again = false,
  failures = 0,
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
  if (held && heldToken !== session.state[StateKey.Token]) drop();
};

async function pollMessages(signal: AbortSignal): Promise<ApiResult> {
  const generation = poll.generation;
  for (;;) {
    const typing = withPoll();
    const path = "/api/v1/chat/visitor/messages?cursor=" + poll.cursor + "&limit=50" + (doc.hidden ? "" : "&wait=25" + typing);
    const answer = await session.call("GET", path, undefined, signal, (token) => (heldToken = token));
    if (generation !== poll.generation) return answer;
    fromPoll(answer, !!typing); // before the messages: a staff message ends the typing line
    if (!answer.ok) return answer;
    const page = (answer.result || {}) as { items?: Message[]; next_cursor?: number; has_more?: boolean };
    const items = page.items || [];
    for (const message of items) if (add(message)) session.emit("arrived", message);
    if ((page.next_cursor || 0) > poll.cursor) poll.cursor = page.next_cursor || 0;
    session.emit("pageShown");
    if (!page.has_more || !items.length) return answer;
  }
}

async function tick(): Promise<void> {
  if (busy) return void (again = true);
  if (!session.state[StateKey.Token] || session.boot.off() || poll.away) return;
  if (session.holdUntil > Date.now()) return void (timer = window.setTimeout(tick, session.holdUntil - Date.now()));
  busy = true;
  const startedAt = Date.now(),
    aborter = (held = new AbortController());
  const answer = await pollMessages(aborter.signal);
  busy = false;
  held = null;
  clearTimeout(timer);
  if (aborter.signal.aborted) return void (poll.away || kick());
  failures = answer.ok ? 0 : failures + 1;
  if (!session.state[StateKey.Token]) return;
  // Visible: again at once, but at most once a second
  const wait = again ? 0 : !answer.ok ? (Math.min(6e4, 2e3 * 2 ** failures) * (1 + Math.random())) / 2 : doc.hidden ? 6e4 : startedAt + 1e3 - Date.now();
  timer = window.setTimeout(tick, wait);
  again = false;
}
