import { db } from "../db";
import type { JobContext } from "../jobs/context";
import { QUEUES } from "../jobs/queue";
import { inboxConversationUrl } from "./links";
import { storeEmail } from "./outbox";
import { renderEmail } from "./templates";

// Staff alerts (decisions.md "Email"): a visitor wrote while nobody has had the inbox open for
// staffIdleMs → one email to each member with an email and notify on; at most one per
// conversation and member per staffAlertIntervalMs, later messages folded into the next one.

const MAX_QUOTED = 10;

export async function runStaffAlert(context: JobContext, conversationId: string): Promise<void> {
  const { timings } = context;
  const prisma = await db();
  const now = Date.now();
  const watched = await prisma.member.count({ where: { inboxActiveAt: { gte: new Date(now - timings.staffIdleMs) } } });
  if (watched > 0) return; // someone has the inbox open and sees it there

  const conversation = await prisma.conversation.findUnique({
    where: { id: conversationId },
    select: { id: true, visitorName: true, site: { select: { name: true } } },
  });
  if (!conversation) return;
  const members = await prisma.member.findMany({ where: { email: { not: null }, notify: true }, select: { id: true, email: true } });
  if (members.length === 0) return;
  const states = new Map(
    (await prisma.staffAlert.findMany({ where: { conversationId } })).map((state) => [state.memberId, state]),
  );
  const visitorMessages = await prisma.message.findMany({
    where: { conversationId, authorType: "visitor", kind: "message" },
    orderBy: { sequence: "asc" },
    select: { sequence: true, body: true },
  });

  let nextCheck: number | null = null;
  for (const member of members) {
    const state = states.get(member.id);
    const alerted = state?.alertedSequence ?? 0;
    const unalerted = visitorMessages.filter((message) => message.sequence > alerted);
    if (unalerted.length === 0) continue;
    if (state && state.lastSentAt.getTime() > now - timings.staffAlertIntervalMs) {
      const due = state.lastSentAt.getTime() + timings.staffAlertIntervalMs;
      nextCheck = nextCheck === null ? due : Math.min(nextCheck, due);
      continue;
    }
    const visitor = conversation.visitorName ?? "A visitor";
    const content = renderEmail({
      subject: `${visitor} wrote on ${conversation.site.name}`,
      siteName: conversation.site.name,
      intro:
        unalerted.length === 1
          ? `${visitor} sent a message and nobody is in the inbox.`
          : `${visitor} sent ${unalerted.length} messages and nobody is in the inbox.`,
      quotes: unalerted.slice(-MAX_QUOTED).map((message) => ({ author: visitor, body: message.body })),
      link: { label: "Open the conversation", url: inboxConversationUrl(conversationId) },
      footer: "You get these because notifications are on for you in Parley.",
    });
    const latest = unalerted.at(-1)!.sequence;
    await context.executor.transaction(async (sql) => {
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
        recipient: member.email!,
        conversationId,
        memberId: member.id,
      });
      await context.addJobs(sql, jobs);
    });
  }
  if (nextCheck !== null) {
    await context.executor.transaction((sql) =>
      context.addJobs(sql, [{ name: QUEUES.staffAlert, data: { conversationId }, startAfter: new Date(nextCheck!), singletonKey: conversationId }]),
    );
  }
}
