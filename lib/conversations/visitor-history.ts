import { db } from "../db/client";
import type { Conversation, Message } from "../generated/prisma/client";
import type { OuterJoined, SqlRow } from "../core/sql-row";
import { verifyIdentity } from "../identity/identity";
import type { WidgetSite } from "../sites/find-site";
import { issueVisitorTokens, TOKEN_LIFETIME_SECONDS } from "../tokens/visitor-token";

// Returning visitors (decisions.md, round 3): a verified user's conversations on a site, newest
// first, each with a fresh token bound to it and to the asking page's Origin, so the widget of any
// browser the user signs in on can list and continue them. Nothing is listed without a valid pair.

export const HISTORY_LIMIT = 20;
const PREVIEW_LENGTH = 200;

interface ConversationHistoryRequest {
  site: WidgetSite;
  origin: string;
  userId: string;
  userHash: string;
}

type HistoryRow = SqlRow<Conversation, "status" | "created_at", { conversation_id: "id" }> &
  OuterJoined<SqlRow<Message, "body" | "author_type" | "event" | "has_attachments", { message_at: "createdAt" }>> &
  OuterJoined<
    SqlRow<Message, never, { said_body: "body"; said_author_type: "authorType"; said_has_attachments: "hasAttachments"; said_at: "createdAt" }>
  >;

/** The visitor's words for a status: snoozed is staff's business, the visitor sees it open. */
const visitorStatus = (status: string) => (status === "closed" ? "closed" : "open");

/** At most PREVIEW_LENGTH UTF-16 units, never ending on half of a surrogate pair. */
const preview = (body: string) => body.slice(0, PREVIEW_LENGTH).replace(/[\ud800-\udbff]$/, "");

export async function listConversationHistory({ site, origin, userId, userHash }: ConversationHistoryRequest) {
  await verifyIdentity(site, userId, userHash);
  // The last public message sits at (last_sequence, note 0): one index lookup per conversation. The
  // last said one (not a closed/reopened line) is the list's text: a backward walk of the same index,
  // which stops at once unless the conversation ended with such lines.
  const rows = await (await db()).$queryRaw<HistoryRow[]>`
    SELECT c.id AS conversation_id, c.status, c.created_at,
           left(m.body, ${PREVIEW_LENGTH}) AS body, m.author_type, m.event, m.has_attachments, m.created_at AS message_at,
           said.body AS said_body, said.author_type AS said_author_type, said.has_attachments AS said_has_attachments, said.created_at AS said_at
    FROM conversations c
    LEFT JOIN messages m
      ON m.conversation_id = c.id AND m.sequence = c.last_sequence AND m.note_number = 0 AND m.kind = 'message'
    LEFT JOIN LATERAL (
      SELECT left(s.body, ${PREVIEW_LENGTH}) AS body, s.author_type, s.has_attachments, s.created_at
      FROM messages s
      WHERE s.conversation_id = c.id AND s.note_number = 0 AND s.kind = 'message' AND s.event IS NULL
      ORDER BY s.sequence DESC
      LIMIT 1
    ) said ON true
    WHERE c.site_id = ${site.id} AND c.user_id = ${userId} AND c.identity_verified
    ORDER BY COALESCE(m.created_at, c.created_at) DESC, c.id DESC
    LIMIT ${HISTORY_LIMIT}`;
  const tokens = await issueVisitorTokens(rows.map((row) => row.conversation_id), origin);
  return {
    conversations: rows.map((row, index) => ({
      conversation_id: row.conversation_id,
      status: visitorStatus(row.status),
      last_message:
        row.message_at === null
          ? null
          : {
              body: preview(row.body ?? ""),
              author_type: row.author_type,
              event: row.event,
              has_attachments: row.has_attachments ?? false,
              created_at: row.message_at.toISOString(),
            },
      last_said:
        row.said_at === null
          ? null
          : {
              body: preview(row.said_body ?? ""),
              author_type: row.said_author_type,
              event: null,
              has_attachments: row.said_has_attachments ?? false,
              created_at: row.said_at.toISOString(),
            },
      updated_at: (row.message_at ?? row.created_at).toISOString(),
      visitor_token: tokens[index]!.token,
      expires_in_seconds: TOKEN_LIFETIME_SECONDS,
    })),
  };
}
