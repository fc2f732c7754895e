// The inbox's live events: what GET /api/v1/inbox/events sends, one JSON object per `data:` line
// (lib/inbox/event-stream.ts), and what lib/realtime hands each open stream. Types only, so the
// inbox page (app/inbox/_components/live-updates.tsx) imports them with `import type` and no
// server code comes with them.

/** Something stored or changed, as the database's triggers NOTIFY it; or `resync`. */
export type InboxEvent =
  | { type: "message"; conversation_id: string; author_type: string; kind: string }
  | { type: "conversation"; conversation_id: string }
  | { type: "typing"; conversation_id: string; typing: boolean }
  /** A ticket was filed, or its status, assignee or priority changed, or it got a reply. */
  | { type: "ticket"; ticket_id: string; change: "created" | "updated" }
  /** The listener reconnected: events may have been missed, so read everything again. */
  | { type: "resync" };

/** What the stream sends: the events, after `ready` (it is subscribed: the page is live). */
export type InboxStreamEvent = InboxEvent | { type: "ready" };
