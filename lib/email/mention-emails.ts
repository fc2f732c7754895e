import type { OutboxEvent } from "../contracts/notification-events";
import { db } from "../db/client";
import type { NotificationTimings } from "../jobs/timings";
import { inboxConversationUrl } from "./links/inbox-link";
import type { EmailDraft } from "./sending/outbox";
import { renderEmail } from "./templates";

// A member @mentioned in a note (decisions.md round 3): the inbox shows it at once; an email
// follows only when the member is away — no inbox open for staffIdleMs, as staff alerts judge
// it — and has an email, notifications on, and can still sign in.

/** The rule's consumer (lib/notifications/rules.ts) for `mention.created`: the email, or nothing. */
export async function emailMentionedMember(event: OutboxEvent, batch: { timings: NotificationTimings }): Promise<{ emails: EmailDraft[] } | null> {
  const mention = await (await db()).messageMention.findUnique({
    where: { id: event.subjectId },
    include: {
      member: { select: { id: true, email: true, notify: true, inboxActiveAt: true, deactivatedAt: true, passwordHash: true } },
      message: {
        select: {
          body: true,
          conversationId: true,
          member: { select: { name: true } },
          conversation: { select: { siteId: true, visitorName: true, site: { select: { name: true } } } },
        },
      },
    },
  });
  const member = mention?.member;
  if (!mention || !member?.email || !member.notify || member.deactivatedAt || !member.passwordHash) return null;
  if (member.inboxActiveAt && member.inboxActiveAt.getTime() >= Date.now() - batch.timings.staffIdleMs) return null;
  const { message } = mention;
  const author = message.member?.name ?? "A teammate";
  const siteName = message.conversation.site.name;
  const content = renderEmail({
    subject: `${author} mentioned you on ${siteName}`,
    siteName,
    intro: `${author} mentioned you in a note on a conversation${message.conversation.visitorName ? ` with ${message.conversation.visitorName}` : ""}.`,
    quotes: [{ author, body: message.body, files: [] }],
    link: { label: "Open the conversation", url: inboxConversationUrl(message.conversationId) },
    footer: "You get these because notifications are on for you in Parley.",
  });
  return {
    emails: [{ ...content, kind: "staff_mention", recipient: member.email, siteId: message.conversation.siteId, conversationId: message.conversationId, memberId: member.id }],
  };
}
