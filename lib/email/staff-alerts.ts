import type { MessageFacts, OutboxEvent } from "../contracts/notification-events";
import type { Conversation, Member, Message, Site, StaffAlert } from "../generated/prisma/client";
import type { JobContext } from "../jobs/context";
import { QUEUES, type JobSpec } from "../jobs/queue";
import type { OuterJoined, SqlRow } from "../core/sql-row";
import { inboxConversationUrl } from "./links/inbox-link";
import { storeEmails, type EmailDraft } from "./sending/outbox";
import { renderEmail } from "./templates";
import { canSignInSql } from "../members/can-sign-in";
import { visibleConversationSql } from "../teams/visibility";
import { visibleToVisitorSql } from "../contracts/events";

// Staff alerts (decisions.md "Email"): a visitor wrote while nobody has had the inbox open for
// staffIdleMs → one email to each member with an email and notify on (a deactivated member gets
// none: visitors' words do not follow someone who left the team); at most one per
// conversation and member per staffAlertIntervalMs, later messages folded into the next one.
//
// The checks come in batches (one pg-boss fetch), and a batch costs the same few statements
// whatever its size: nearly every visitor message on a busy site runs one (docs/performance.md,
// step 26).

/**
 * The rule's consumer (lib/notifications/rules.ts): a visitor's public message, while some member
 * takes alerts, queues a check of its conversation at once. While one waits (the staff-alert
 * queue keeps one per conversation), it covers this message too and none is added.
 */
export function queueStaffAlertCheck(
  event: OutboxEvent,
  batch: { alertable: boolean; messages: Map<string, MessageFacts> },
): { jobs: JobSpec[] } | null {
  const message = batch.messages.get(event.subjectId);
  if (message?.authorType !== "visitor" || !batch.alertable) return null;
  const conversationId = message.conversationId;
  return { jobs: [{ name: QUEUES.staffAlert, data: { conversationId }, singletonKey: conversationId }] };
}

const MAX_QUOTED = 10;

type RecipientRow = OuterJoined<SqlRow<Member, "id" | "email"> & SqlRow<StaffAlert, "alerted_sequence" | "last_sent_at">> &
  SqlRow<Conversation, "visitor_name" | "site_id"> &
  SqlRow<Conversation, never, { conversation_id: "id" }> &
  SqlRow<Site, never, { site_name: "name" }>;

// One row per conversation and member who takes alerts and may see it (docs/teams.md), or one
// with a null member when none does, with what the conversation has sent them so far; none while
// anyone who can still sign in and may see it watches the inbox (a deactivated member's last
// activity holds nothing back, nor does another team's agent's).
const ALERT_RECIPIENTS = `
  SELECT c."id" AS conversation_id, m."id", m."email", a."alerted_sequence", a."last_sent_at", c."visitor_name", c."site_id", s."name" AS site_name
    FROM "conversations" c
    JOIN "sites" s ON s."id" = c."site_id"
    LEFT JOIN "members" m ON m."email" IS NOT NULL AND m."notify" AND m."deactivated_at" IS NULL
                         AND ${visibleConversationSql({ row: "c", member: 'm."id"', role: 'm."role"' })}
    LEFT JOIN "staff_alerts" a ON a."conversation_id" = c."id" AND a."member_id" = m."id"
   WHERE c."id" = ANY($1::text[])
     AND NOT EXISTS (
       SELECT 1 FROM "members" w
        WHERE w."inbox_active_at" >= $2::timestamptz
          AND ${canSignInSql("w")}
          AND ${visibleConversationSql({ row: "c", member: 'w."id"', role: 'w."role"' })})
   ORDER BY c."id", m."id"`;

const VISITOR_MESSAGES_AFTER = `
  SELECT m."conversation_id", m."sequence", m."body",
         CASE WHEN m."has_attachments" THEN (
           SELECT json_agg(json_build_object('name', a."name", 'bytes', a."bytes") ORDER BY a."position")
             FROM "message_attachments" a WHERE a."message_id" = m."id"
         ) END AS files
    FROM unnest($1::text[], $2::int[]) AS w(conversation_id, after)
    JOIN "messages" m ON m."conversation_id" = w.conversation_id AND m."sequence" > w.after
   WHERE m."author_type" = 'visitor' AND ${visibleToVisitorSql("m")}
   ORDER BY m."conversation_id", m."sequence"`;

// Compare and set, for the whole batch: a member's alert is recorded only if nobody recorded one
// since it was read (another instance running the same check sends nothing twice). `alerted` is
// null where no row was read. Answers the pairs that were recorded.
const RECORD_ALERTS = `
  WITH wanted AS (
    SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[]) AS w(conversation_id, member_id, latest, alerted)
  ), updated AS (
    UPDATE "staff_alerts" a SET "last_sent_at" = $6::timestamptz, "alerted_sequence" = w.latest
      FROM wanted w
     WHERE a."conversation_id" = w.conversation_id AND a."member_id" = w.member_id
       AND a."alerted_sequence" = w.alerted AND a."last_sent_at" <= $5::timestamptz
    RETURNING a."conversation_id", a."member_id"
  ), inserted AS (
    INSERT INTO "staff_alerts" ("conversation_id", "member_id", "last_sent_at", "alerted_sequence")
    SELECT w.conversation_id, w.member_id, $6::timestamptz, w.latest FROM wanted w WHERE w.alerted IS NULL
    ON CONFLICT ("conversation_id", "member_id") DO NOTHING
    RETURNING "conversation_id", "member_id"
  )
  SELECT * FROM updated UNION ALL SELECT * FROM inserted`;

interface Recipient {
  id: string;
  email: string;
  /** The last sequence alerted, null before the first alert. */
  alerted: number | null;
  lastSentAt: Date | null;
}

interface Alert {
  conversationId: string;
  member: Recipient;
  latest: number;
  draft: EmailDraft;
}

type VisitorMessage = SqlRow<Message, "conversation_id" | "sequence" | "body"> & { files: { name: string; bytes: number }[] | null };

export async function runStaffAlerts(context: JobContext, conversationIds: string[]): Promise<void> {
  const { executor, timings } = context;
  const now = Date.now();
  const { rows } = await executor.executeSql(ALERT_RECIPIENTS, [[...new Set(conversationIds)], new Date(now - timings.staffIdleMs).toISOString()]);
  const conversations = groupBy(rows as RecipientRow[], (row) => row.conversation_id);
  const recipients = new Map<string, Recipient[]>();
  for (const [conversationId, conversationRows] of conversations) {
    const members = conversationRows.flatMap((row) =>
      row.id !== null && row.email !== null
        ? [{ id: row.id, email: row.email, alerted: row.alerted_sequence, lastSentAt: row.last_sent_at && new Date(row.last_sent_at) }]
        : [],
    );
    if (members.length > 0) recipients.set(conversationId, members);
  }
  if (recipients.size === 0) return; // gone, nobody takes alerts, or someone has the inbox open

  const oldestAlerted = [...recipients.values()].map((members) => Math.min(...members.map((member) => member.alerted ?? 0)));
  const { rows: messageRows } = await executor.executeSql(VISITOR_MESSAGES_AFTER, [[...recipients.keys()], oldestAlerted]);
  const visitorMessages = groupBy(messageRows as VisitorMessage[], (row) => row.conversation_id);

  const alerts: Alert[] = [];
  const checks: JobSpec[] = [];
  for (const [conversationId, members] of recipients) {
    const messages = visitorMessages.get(conversationId) ?? [];
    const conversation = conversations.get(conversationId)![0]!;
    let nextCheck: number | null = null;
    for (const member of members) {
      const unalerted = messages.filter((message) => message.sequence > (member.alerted ?? 0));
      if (unalerted.length === 0) continue;
      if (member.lastSentAt && member.lastSentAt.getTime() > now - timings.staffAlertIntervalMs) {
        const due = member.lastSentAt.getTime() + timings.staffAlertIntervalMs;
        nextCheck = nextCheck === null ? due : Math.min(nextCheck, due);
        continue;
      }
      alerts.push({ conversationId, member, latest: unalerted.at(-1)!.sequence, draft: alertEmail(conversationId, conversation, member, unalerted) });
    }
    if (nextCheck !== null) checks.push({ name: QUEUES.staffAlert, data: { conversationId }, startAfter: new Date(nextCheck), singletonKey: conversationId });
  }
  if (alerts.length === 0 && checks.length === 0) return;

  await executor.transaction(async (sql) => {
    const jobs = [...checks];
    if (alerts.length > 0) {
      const { rows: recorded } = await sql.executeSql(RECORD_ALERTS, [
        alerts.map((alert) => alert.conversationId),
        alerts.map((alert) => alert.member.id),
        alerts.map((alert) => alert.latest),
        alerts.map((alert) => alert.member.alerted),
        new Date(now - timings.staffAlertIntervalMs).toISOString(),
        new Date(now).toISOString(),
      ]);
      const won = new Set((recorded as SqlRow<StaffAlert, "conversation_id" | "member_id">[]).map((row) => `${row.conversation_id} ${row.member_id}`));
      const drafts = alerts.filter((alert) => won.has(`${alert.conversationId} ${alert.member.id}`)).map((alert) => alert.draft);
      jobs.push(...(await storeEmails(sql, drafts)));
    }
    await context.addJobs(sql, jobs);
  });
}

function alertEmail(conversationId: string, conversation: RecipientRow, member: Recipient, unalerted: VisitorMessage[]): EmailDraft {
  const visitor = conversation.visitor_name ?? "A visitor";
  const siteName = conversation.site_name;
  const content = renderEmail({
    subject: `${visitor} wrote on ${siteName}`,
    siteName,
    intro:
      unalerted.length === 1
        ? `${visitor} sent a message and nobody is in the inbox.`
        : `${visitor} sent ${unalerted.length} messages and nobody is in the inbox.`,
    quotes: unalerted.slice(-MAX_QUOTED).map((message) => ({ author: visitor, body: message.body, files: message.files ?? [] })),
    link: { label: "Open the conversation", url: inboxConversationUrl(conversationId) },
    footer: "You get these because notifications are on for you in Parley.",
  });
  return { ...content, kind: "staff_alert", recipient: member.email, siteId: conversation.site_id, conversationId, memberId: member.id };
}

function groupBy<Row>(rows: Row[], key: (row: Row) => string): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}
