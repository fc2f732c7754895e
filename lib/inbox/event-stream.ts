import { AppError } from "../core/errors";
import type { InboxEvent } from "../contracts/inbox-events";
import { subscribeInbox } from "../realtime/inbox-signals";
import { recordInboxActivity, sessionIsLive, type StaffSession } from "../staff/sessions";
import { processSingleton } from "../core/process-registry.mjs";
import { recordInboxTab } from "../availability/availability";

// The inbox's live channel: Server-Sent Events. One long response per open inbox tab carries
// every inbox event as it is NOTIFYed (see docs/inbox.md for why SSE rather than long-polling).
// A comment line every 15 s keeps proxies from closing an idle stream and, while the session
// still signs the member in, records that the member has the inbox open (members.inbox_active_at,
// read by staff alerts) and that a tab is open (members.inbox_tab_at: availability, docs/routing.md).
// A stream ends with its session: at once on sign-out or deactivation (a
// signal to every instance), else at the first heartbeat that finds the session gone.

const HEARTBEAT_MS = 15_000;
/** Open streams per session and per member, counted in each process (docs/inbox.md). */
export const MAX_STREAMS_PER_SESSION = 10;
export const MAX_STREAMS_PER_MEMBER = 10;
/** A stream whose browser went away is let go within a heartbeat or so. */
const CAP_RETRY_AFTER_S = 15;
const encoder = new TextEncoder();

// Counted once per process (lib/core/process-registry.mjs), whichever copy of this module opened the stream.
const open = processSingleton("inbox streams", () => ({ sessions: new Map<string, number>(), members: new Map<string, number>() }));

function count(counts: Map<string, number>, key: string, by: number): void {
  const next = (counts.get(key) ?? 0) + by;
  if (next > 0) counts.set(key, next);
  else counts.delete(key);
}

/** Takes a place for one more stream of the session (429 beyond the caps); the function gives it back, once. */
function takePlace({ sessionId, member }: StaffSession): () => void {
  if ((open.sessions.get(sessionId) ?? 0) >= MAX_STREAMS_PER_SESSION || (open.members.get(member.id) ?? 0) >= MAX_STREAMS_PER_MEMBER) {
    throw new AppError("rate_limited", "Too many open inbox event streams: close another inbox tab and try again.", {
      retryAfter: CAP_RETRY_AFTER_S,
    });
  }
  count(open.sessions, sessionId, 1);
  count(open.members, member.id, 1);
  let given = false;
  return () => {
    if (given) return;
    given = true;
    count(open.sessions, sessionId, -1);
    count(open.members, member.id, -1);
  };
}

export function inboxEventStream(staff: StaffSession, signal: AbortSignal): Response {
  const givePlaceBack = takePlace(staff);
  let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  let unsubscribe: (() => void) | null = null;
  let heartbeat: ReturnType<typeof setInterval> | null = null;
  let ended = false;
  // However it ends (the client went away, the body was cancelled, the session ended): once.
  const end = () => {
    if (ended) return;
    ended = true;
    unsubscribe?.();
    unsubscribe = null;
    if (heartbeat) clearInterval(heartbeat);
    heartbeat = null;
    signal.removeEventListener("abort", end);
    givePlaceBack();
    try {
      controller?.close();
    } catch {
      // already closed or cancelled
    }
  };
  const send = (text: string) => {
    if (ended) return;
    try {
      controller!.enqueue(encoder.encode(text));
    } catch {
      end(); // the client went away
    }
  };
  /** Ends the stream if its session no longer signs the member in; true while it does. */
  const checkSession = async () => {
    const live = await sessionIsLive(staff.sessionId).catch(() => true); // a database hiccup ends nothing
    if (!live) end();
    return live && !ended;
  };
  signal.addEventListener("abort", end, { once: true });
  if (signal.aborted) end();

  const stream = new ReadableStream<Uint8Array>({
    async start(streamController) {
      controller = streamController;
      if (ended) return streamController.close(); // aborted before the body started
      const onEvent = (event: InboxEvent) => {
        send(`data: ${JSON.stringify(event)}\n\n`);
        if (event.type === "resync") void checkSession(); // session-ended signals may have been missed too
      };
      const stop = await subscribeInbox(onEvent, { sessionId: staff.sessionId, memberId: staff.member.id, onEnded: end });
      if (ended) return stop();
      unsubscribe = stop;
      // `retry` tells EventSource how soon to reconnect; `ready` lets the page know it is live.
      send(`retry: 2000\ndata: ${JSON.stringify({ type: "ready" })}\n\n`);
      heartbeat = setInterval(() => {
        send(": keep-alive\n\n");
        void checkSession()
          .then((live) => (live ? Promise.all([recordInboxActivity(staff.member.id), recordInboxTab(staff.member.id)]) : undefined))
          .catch(() => {});
      }, HEARTBEAT_MS);
      // A session ended after the route authenticated it and before the subscription signalled nobody here.
      if (await checkSession()) await recordInboxTab(staff.member.id, { opened: true }).catch(() => {});
    },
    cancel: end,
  });
  return new Response(stream, {
    status: 200,
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store, no-transform",
      "X-Accel-Buffering": "no",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
