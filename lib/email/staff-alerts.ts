import type { Conversation, Member, Message, Site, StaffAlert } from "../generated/prisma/client";
import type { JobContext } from "../jobs/context";
import { QUEUES } from "../jobs/queue";
import type { OuterJoined, SqlRow } from "../sql-row";
import { inboxConversationUrl } from "./links";
import { storeEmail } from "./outbox";
import { renderEmail } from "./templates";

// Staff alerts (decisions.md "Email"): a visitor wrote while nobody has had the inbox open for
// staffIdleMs → one email to each member with an email and notify on; at most one per
// conversation and member per staffAlertIntervalMs, later messages folded into the next one.

const MAX_QUOTED = 10;

type RecipientRow = OuterJoined<SqlRow<Member, "id" | "email"> & SqlRow<StaffAlert, "alerted_sequence" | "last_sent_at">> &
  SqlRow<Conversation, "visitor_name"> &
  SqlRow<Site, never, { site_name: "name" }> & { watched: boolean };

// One row per member who takes alerts (or one with a null member when none does), with what the
// conversation has sent them so far, the conversation's names, and whether anyone watches the inbox.
const ALERT_RECIPIENTS = `
  SELECT m."id", m."email", a."alerted_sequence", a."last_sent_at", c."visitor_name", s."name" AS site_name,
         EXISTS (SELECT 1 FROM "members" WHERE "inbox_active_at" >= $2::timestamptz) AS watched
    FROM "conversations" c
    JOIN "sites" s ON s."id" = c."site_id"
    LEFT JOIN "members" m ON m."email" IS NOT NULL AND m."notify"
    LEFT JOIN "staff_alerts" a ON a."conversation_id" = c."id" AND a."member_id" = m."id"
   WHERE c."id" = $1
   ORDER BY m."id"`;

const VISITOR_MESSAGES_AFTER = `
  SELECT "sequence", "body" FROM "messages"
   WHERE "conversation_id" = $1 AND "author_type" = 'visitor' AND "kind" = 'message' AND "sequence" > $2
   ORDER BY "sequence"`;

export async function runStaffAlert(context: JobContext, conversationId: string): Promise<void> {
  const { executor, timings } = context;
  const now = Date.now();
  // Raw statements, not the ORM: this runs for nearly every visitor message on a busy site.
  const { rows } = await executor.executeSql(ALERT_RECIPIENTS, [conversationId, new Date(now - timings.staffIdleMs).toISOString()]);
  const recipients = rows as RecipientRow[];
  const conversation = recipients[0];
  if (!conversation || conversation.watched) return; // gone, or someone has the inbox open and sees it there
  const members = recipients.flatMap((row) =>
    row.id !== null && row.email !== null
      ? [{ id: row.id, email: row.email, alerted: row.alerted_sequence ?? 0, lastSentAt: row.last_sent_at && new Date(row.last_sent_at) }]
      : [],
  );
  if (members.length === 0) return;
  const oldestAlerted = Math.min(...members.map((member) => member.alerted));
  const { rows: visitorMessages } = (await executor.executeSql(VISITOR_MESSAGES_AFTER, [conversationId, oldestAlerted])) as {
    rows: SqlRow<Message, "sequence" | "body">[];
  };

  let nextCheck: number | null = null;
  for (const member of members) {
    const { alerted, lastSentAt } = member;
    const unalerted = visitorMessages.filter((message) => message.sequence > alerted);
    if (unalerted.length === 0) continue;
    if (lastSentAt && lastSentAt.getTime() > now - timings.staffAlertIntervalMs) {
      const due = lastSentAt.getTime() + timings.staffAlertIntervalMs;
      nextCheck = nextCheck === null ? due : Math.min(nextCheck, due);
      continue;
    }
    const visitor = conversation.visitor_name ?? "A visitor";
    const content = renderEmail({
      subject: `${visitor} wrote on ${conversation.site_name}`,
      siteName: conversation.site_name,
      intro:
        unalerted.length === 1
          ? `${visitor} sent a message and nobody is in the inbox.`
          : `${visitor} sent ${unalerted.length} messages and nobody is in the inbox.`,
      quotes: unalerted.slice(-MAX_QUOTED).map((message) => ({ author: visitor, body: message.body })),
      link: { label: "Open the conversation", url: inboxConversationUrl(conversationId) },
      footer: "You get these because notifications are on for you in Parley.",
    });
    const latest = unalerted.at(-1)!.sequence;
    await executor.transaction(async (sql) => {
      // Compare and set: another instance running the same check sends nothing twice.
      const { rows } = await sql.executeSql(
        `INSERT INTO "staff_alerts" ("conversation_id", "member_id", "last_sent_at", "alerted_sequence")
         VALUES ($1, $2, $6::timestamptz, $3)
         ON CONFLICT ("conversation_id", "member_id") DO UPDATE SET "last_sent_at" = $6::timestamptz, "alerted_sequence" = $3
           WHERE "staff_alerts"."alerted_sequence" = $4 AND "staff_alerts"."last_sent_at" <= $5::timestamptz
         RETURNING 1 AS won`,
        [conversationId, member.id, latest, alerted, new Date(now - timings.staffAlertIntervalMs).toISOString(), new Date(now).toISOString()],
      );
      if (rows.length === 0) return;
      const jobs = await storeEmail(sql, {
        ...content,
        kind: "staff_alert",
        recipient: member.email,
        conversationId,
        memberId: member.id,
      });
      await context.addJobs(sql, jobs);
    });
  }
  if (nextCheck !== null) {
    await executor.transaction((sql) =>
      context.addJobs(sql, [{ name: QUEUES.staffAlert, data: { conversationId }, startAfter: new Date(nextCheck!), singletonKey: conversationId }]),
    );
  }
}
