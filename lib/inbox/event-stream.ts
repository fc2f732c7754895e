import { AppError } from "../core/errors";
import type { InboxEvent } from "../contracts/inbox-events";
import { subscribeInbox } from "../realtime/inbox-signals";
import { recordInboxActivity, sessionIsLive, type StaffSession } from "../staff/sessions";
import { processSingleton } from "../core/process-registry.mjs";
import { recordInboxTab } from "../availability/availability";
import { canSee, seesEverything, type Viewer, type VisibilityColumns } from "../teams/visibility";
import { viewerOf, visibilityColumns } from "../teams/access";

// The inbox's live channel: Server-Sent Events. One long response per open inbox tab carries
// every inbox event as it is NOTIFYed (see docs/inbox.md for why SSE rather than long-polling).
// A comment line every 15 s keeps proxies from closing an idle stream and, while the session
// still signs the member in, records that the member has the inbox open (members.inbox_active_at,
// read by staff alerts) and that a tab is open (members.inbox_tab_at: availability, docs/routing.md).
// A stream ends with its session: at once on sign-out or deactivation (a
// signal to every instance), else at the first heartbeat that finds the session gone.
// An agent's stream carries only events about what they may see (docs/teams.md): each event's
// conversation or ticket is read once per process, whatever the number of streams, and each
// stream applies the rule's row form with the member's teams (read again at every heartbeat).

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

// One read per event per process: every stream is handed the same event object.
const columnsOfEvent = new WeakMap<InboxEvent, Promise<VisibilityColumns | null>>();

function eventColumns(event: InboxEvent): Promise<VisibilityColumns | null> | null {
  if (!("conversation_id" in event) && !("ticket_id" in event)) return null; // resync: about nothing in particular
  let columns = columnsOfEvent.get(event);
  if (!columns) {
    columns = "conversation_id" in event ? visibilityColumns("conversation", event.conversation_id) : visibilityColumns("ticket", event.ticket_id);
    columns = columns.catch(() => null); // unreadable now: not sent (a resync follows a lost database)
    columnsOfEvent.set(event, columns);
  }
  return columns;
}

/** Whether the viewer may be told of the event (null viewer: an owner, told everything). */
async function mayBeTold(viewer: Viewer | null, event: InboxEvent): Promise<boolean> {
  if (viewer === null) return true;
  const columns = eventColumns(event);
  if (columns === null) return true;
  const row = await columns;
  return row !== null && canSee(viewer, row);
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

  // Owners are told everything; an agent's teams are read now and at every heartbeat.
  let viewer: Viewer | null = null;
  const readViewer = async () => {
    if (seesEverything(staff.member)) return;
    // Unreadable now (a database hiccup): the teams last read, else none — never everything.
    viewer = await viewerOf(staff.member).catch(() => viewer ?? { id: staff.member.id, role: staff.member.role, teamIds: [] });
  };
  let delivered = Promise.resolve(); // events leave in the order they came, checks or not

  const stream = new ReadableStream<Uint8Array>({
    async start(streamController) {
      controller = streamController;
      if (ended) return streamController.close(); // aborted before the body started
      await readViewer();
      const onEvent = (event: InboxEvent) => {
        const told = mayBeTold(viewer, event);
        delivered = delivered.then(async () => {
          if (await told) send(`data: ${JSON.stringify(event)}\n\n`);
        });
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
          .then((live) => (live ? Promise.all([recordInboxActivity(staff.member.id), recordInboxTab(staff.member.id), readViewer()]) : undefined))
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
