import type { MessageFacts, OutboxEvent } from "../contracts/notification-events";
import { db } from "../db/client";
import type { JobContext } from "../jobs/context";
import { QUEUES, type JobSpec } from "../jobs/queue";
import type { NotificationTimings } from "../jobs/timings";
import { storeEmails } from "./sending/outbox";
import { siteUnsubscribe } from "./links/unsubscribe-links";
import { ratingLinks } from "./links/rating-links";
import { renderEmail } from "./templates";

// Visitor follow-ups (decisions.md "Email"): staff replies the visitor has not seen
// followUpDelayMs after they were sent, in a conversation with a visitor email → one email with
// those replies. "Seen" is conversations.visitor_seen_sequence; seeing them first cancels it.
// Every staff reply schedules one check; the first one due takes every unseen reply with it.

/**
 * The rule's consumer (lib/notifications/rules.ts): a staff member's public message in a
 * conversation with a visitor email queues a check for followUpDelayMs after it was sent.
 */
export function queueFollowUpCheck(
  event: OutboxEvent,
  batch: { messages: Map<string, MessageFacts>; timings: NotificationTimings },
): { jobs: JobSpec[] } | null {
  const message = batch.messages.get(event.subjectId);
  if (message?.authorType !== "staff" || !message.visitorEmail) return null;
  const startAfter = new Date(message.createdAt.getTime() + batch.timings.followUpDelayMs);
  return { jobs: [{ name: QUEUES.followUp, data: { conversationId: message.conversationId }, startAfter }] };
}

export async function runVisitorFollowUp(context: JobContext, conversationId: string): Promise<void> {
  const prisma = await db();
  const conversation = await prisma.conversation.findUnique({
    where: { id: conversationId },
    select: { siteId: true, status: true, closedAt: true, visitorEmail: true, visitorName: true, visitorSeenSequence: true, origin: true, site: { select: { name: true } } },
  });
  if (!conversation?.visitorEmail) return;
  const state = await prisma.visitorFollowUp.findUnique({ where: { conversationId } });
  if (state?.unsubscribedAt) return;
  const emailed = state?.emailedSequence ?? 0;
  const unseen = await prisma.message.findMany({
    where: {
      conversationId,
      authorType: "staff",
      kind: "message",
      sequence: { gt: Math.max(emailed, conversation.visitorSeenSequence) },
    },
    orderBy: { sequence: "asc" },
    include: { member: { select: { name: true } }, attachments: { select: { name: true, bytes: true }, orderBy: { position: "asc" } } },
  });
  if (unseen.length === 0) return; // seen (or already emailed): nothing to send
  if (unseen[0]!.createdAt.getTime() > Date.now() - context.timings.followUpDelayMs) return; // its own check comes later

  const siteName = conversation.site.name;
  const unsubscribe = await siteUnsubscribe(conversation.visitorEmail);
  const content = renderEmail({
    subject: `New reply from ${siteName}`,
    siteName,
    intro: `${conversation.visitorName ? `Hello ${conversation.visitorName}, you` : "You"} have ${
      unseen.length === 1 ? "a reply" : `${unseen.length} replies`
    } you have not seen yet.`,
    quotes: unseen.map((message) => ({ author: message.member?.name ?? siteName, body: message.body, files: message.attachments })),
    link: { label: `Continue the conversation on ${conversation.origin}`, url: conversation.origin },
    footer: `You wrote to ${siteName} and left this address for replies.`,
    unsubscribeUrl: unsubscribe.url,
    // After a close, the email asks for a rating of that close.
    ...(conversation.status === "closed" && conversation.closedAt ? { ratingLinks: await ratingLinks({ conversationId, closedAt: conversation.closedAt }) } : {}),
  });
  const latest = unseen.at(-1)!.sequence;
  await context.executor.transaction(async (sql) => {
    const { rows } = await sql.executeSql(
      `INSERT INTO "visitor_follow_ups" ("conversation_id", "emailed_sequence") VALUES ($1, $2)
       ON CONFLICT ("conversation_id") DO UPDATE SET "emailed_sequence" = $2
         WHERE "visitor_follow_ups"."emailed_sequence" = $3 AND "visitor_follow_ups"."unsubscribed_at" IS NULL
       RETURNING 1 AS won`,
      [conversationId, latest, emailed],
    );
    if (rows.length === 0) return;
    // Seen in the meantime? Checked again inside the transaction that records the email.
    const { rows: seen } = await sql.executeSql(
      `SELECT "visitor_seen_sequence" FROM "conversations" WHERE "id" = $1`,
      [conversationId],
    );
    if ((seen[0]?.visitor_seen_sequence ?? 0) >= latest) {
      await sql.executeSql(`UPDATE "visitor_follow_ups" SET "emailed_sequence" = $2 WHERE "conversation_id" = $1`, [
        conversationId,
        emailed,
      ]);
      return;
    }
    const jobs = await storeEmails(sql, [
      {
        ...content,
        ...unsubscribe.draft,
        kind: "visitor_follow_up",
        recipient: conversation.visitorEmail!,
        siteId: conversation.siteId,
        conversationId,
      },
    ]);
    await context.addJobs(sql, jobs);
  });
}
