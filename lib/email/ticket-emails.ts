import type { OutboxEvent } from "../contracts/notification-events";
import { db } from "../db/client";
import { siteUnsubscribe } from "./links/unsubscribe-links";
import type { EmailDraft } from "./sending/outbox";
import { renderEmail } from "./templates";

// Emails to the person who filed a ticket: the acknowledgement (ticket number in the subject)
// and each staff reply (the subject keeps the number, so mail clients thread them).

const ticketTag = (number: number) => `[#${number}]`;

/** The rule's consumer (lib/notifications/rules.ts) of ticket.created: the acknowledgement to the filer. */
export async function acknowledgeTicket(event: OutboxEvent): Promise<{ emails: EmailDraft[] } | null> {
  const email = await ticketAcknowledgement(event.subjectId);
  return email && { emails: [email] };
}

/** The rule's consumer of ticket.replied: the staff member's reply to the filer. */
export async function emailTicketReply(event: OutboxEvent): Promise<{ emails: EmailDraft[] } | null> {
  const email = await ticketReplyEmail(event.subjectId);
  return email && { emails: [email] };
}

async function ticketAcknowledgement(ticketId: string): Promise<EmailDraft | null> {
  const ticket = await (await db()).ticket.findUnique({
    where: { id: ticketId },
    select: { id: true, siteId: true, number: true, email: true, name: true, subject: true, body: true, site: { select: { name: true } } },
  });
  if (!ticket) return null;
  const siteName = ticket.site.name;
  const unsubscribe = await siteUnsubscribe(ticket.email);
  return {
    ...renderEmail({
      subject: `${ticketTag(ticket.number)} ${ticket.subject}`,
      siteName,
      intro: `${ticket.name ? `Hello ${ticket.name}, we` : "We"} received your request; its number is #${ticket.number}. We will reply to this address.`,
      quotes: [{ author: ticket.subject, body: ticket.body }],
      footer: `Sent by ${siteName} because this address was given in a support request.`,
      unsubscribeUrl: unsubscribe.url,
    }),
    ...unsubscribe.draft,
    kind: "ticket_acknowledgement",
    recipient: ticket.email,
    siteId: ticket.siteId,
    ticketId: ticket.id,
  };
}

async function ticketReplyEmail(replyId: string): Promise<EmailDraft | null> {
  const reply = await (await db()).ticketReply.findUnique({ where: { id: replyId } });
  if (!reply?.memberId) return null; // the filer's own emailed reply is not sent back to them
  const prisma = await db();
  const [ticket, member] = await Promise.all([
    prisma.ticket.findUnique({
      where: { id: reply.ticketId },
      select: { id: true, siteId: true, number: true, email: true, subject: true, site: { select: { name: true } } },
    }),
    prisma.member.findUnique({ where: { id: reply.memberId }, select: { name: true } }),
  ]);
  if (!ticket) return null;
  const siteName = ticket.site.name;
  return {
    ...renderEmail({
      subject: `Re: ${ticketTag(ticket.number)} ${ticket.subject}`,
      siteName,
      intro: `A reply to your request #${ticket.number}:`,
      quotes: [{ author: member?.name ?? siteName, body: reply.body }],
      footer: `Sent by ${siteName} about your support request #${ticket.number}.`,
    }),
    kind: "ticket_reply",
    recipient: ticket.email,
    siteId: ticket.siteId,
    ticketId: ticket.id,
    memberId: reply.memberId,
  };
}
