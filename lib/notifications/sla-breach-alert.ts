import type { OutboxEvent } from "../contracts/notification-events";
import { db } from "../db/client";
import { inboxConversationUrl } from "../email/links/inbox-link";
import type { EmailDraft } from "../email/sending/outbox";
import { renderEmail } from "../email/templates";
import type { JobSpec } from "../jobs/queue";
import { canSignInWhere } from "../members/can-sign-in";
import { pushJob } from "../push/conversation-pushes";

// A breach alerts the conversation's assignee (decisions.md, round 4, "SLA policies"): a Web Push
// when they have a subscription, else an email (when they have an address and notifications on).
// Nobody assigned: no alert (the list's badge and the `sla=breached` filter show it to everyone).

const KIND_WORDS: Record<string, string> = { first_response: "first response", next_response: "next response", resolution: "resolution" };

/** The rule's consumer (lib/notifications/rules.ts) for `sla.breached`; its subject is the timeline event. */
export async function alertSlaBreach(event: OutboxEvent): Promise<{ jobs?: JobSpec[]; emails?: EmailDraft[] } | null> {
  const prisma = await db();
  const line = await prisma.message.findUnique({
    where: { id: event.subjectId },
    select: {
      conversationId: true,
      details: true,
      conversation: { select: { siteId: true, visitorName: true, assignedMemberId: true, site: { select: { name: true } } } },
    },
  });
  const assigneeId = line?.conversation.assignedMemberId;
  if (!line || !assigneeId) return null;
  const details = (line.details ?? {}) as { kind?: unknown; why?: unknown };
  const kind = KIND_WORDS[String(details.kind)] ?? "SLA";
  const why = typeof details.why === "string" ? details.why : "";
  const member = await prisma.member.findFirst({
    where: { id: assigneeId, ...canSignInWhere },
    select: { id: true, email: true, notify: true, _count: { select: { pushSubscriptions: true } } },
  });
  if (!member) return null;
  if (member._count.pushSubscriptions > 0) {
    const job = pushJob("sla_breached", line.conversationId, member.id);
    return { jobs: [{ ...job, data: { ...job.data, detail: `${kind} SLA breached: ${why}` } }] };
  }
  if (!member.email || !member.notify) return null;
  const siteName = line.conversation.site.name;
  const who = line.conversation.visitorName ?? "a visitor";
  const content = renderEmail({
    subject: `SLA breached on ${siteName}: ${kind} for ${who}`,
    siteName,
    intro: `The ${kind} target of a conversation assigned to you was missed: ${why}.`,
    quotes: [],
    link: { label: "Open the conversation", url: inboxConversationUrl(line.conversationId) },
    footer: "You get these because notifications are on for you in Parley.",
  });
  return {
    emails: [{ ...content, kind: "staff_sla_breach", recipient: member.email, siteId: line.conversation.siteId, conversationId: line.conversationId, memberId: member.id }],
  };
}
