import { subscribeInbox, type InboxEvent } from "../realtime/inbox-signals";
import { recordInboxActivity, type StaffMember } from "../staff/sessions";

// The inbox's live channel: Server-Sent Events. One long response per open inbox tab carries
// every inbox event as it is NOTIFYed (see docs/inbox.md for why SSE rather than long-polling).
// A comment line every 15 s keeps proxies from closing an idle stream and records that the member
// still has the inbox open (members.inbox_active_at, read by staff alerts).

const HEARTBEAT_MS = 15_000;
const encoder = new TextEncoder();

export async function inboxEventStream(member: StaffMember, signal: AbortSignal): Promise<Response> {
  let unsubscribe: (() => void) | null = null;
  let heartbeat: ReturnType<typeof setInterval> | null = null;
  const stop = () => {
    unsubscribe?.();
    unsubscribe = null;
    if (heartbeat) clearInterval(heartbeat);
    heartbeat = null;
  };
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          stop(); // the client went away
        }
      };
      unsubscribe = await subscribeInbox((event: InboxEvent) => send(`data: ${JSON.stringify(event)}\n\n`));
      // `retry` tells EventSource how soon to reconnect; `ready` lets the page know it is live.
      send(`retry: 2000\ndata: ${JSON.stringify({ type: "ready" })}\n\n`);
      heartbeat = setInterval(() => {
        send(": keep-alive\n\n");
        recordInboxActivity(member.id).catch(() => {});
      }, HEARTBEAT_MS);
      signal.addEventListener(
        "abort",
        () => {
          stop();
          try {
            controller.close();
          } catch {
            // already closed
          }
        },
        { once: true },
      );
    },
    cancel: stop,
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
