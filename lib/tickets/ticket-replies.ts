import { randomUUID } from "node:crypto";
import { db } from "../db/client";
import { AppError } from "../core/errors";
import type { TicketStatus } from "../contracts/inbox";
import { statusAfterReply } from "./triage-ticket";

// A ticket's thread. A staff reply: saving it is all the caller does, the trigger on
// ticket_replies queues the email to the filer in the same transaction (docs/notifications.md).
// The filer's reply by email (lib/email/inbound/) is kept in the thread and emailed to nobody; it
// reopens a pending or solved ticket (lib/tickets/triage-ticket.ts).

/** `status`: the inbox's "reply and set pending" (or solved), set with the reply. */
export async function replyToTicket(ticketId: string, input: { authorId: string; body: string; status?: TicketStatus }) {
  const prisma = await db();
  const [ticket, member] = await Promise.all([
    prisma.ticket.findUnique({ where: { id: ticketId }, select: { id: true, number: true, email: true } }),
    prisma.member.findUnique({ where: { id: input.authorId }, select: { id: true, name: true } }),
  ]);
  if (!ticket) throw new AppError("not_found", "No ticket has this identifier.");
  if (!member) throw new AppError("member_not_found", "No member has this id.");
  const reply = await prisma.$transaction(async (tx) => {
    const created = await tx.ticketReply.create({ data: { id: `tr_${randomUUID()}`, ticketId, memberId: member.id, body: input.body } });
    await statusAfterReply(tx, ticketId, input.status, member.id);
    return created;
  });
  return {
    id: reply.id,
    ticket_id: ticket.id,
    ticket_number: ticket.number,
    author_id: member.id,
    author_name: member.name,
    body: reply.body,
    emailed_to: ticket.email,
    created_at: reply.createdAt.toISOString(),
  };
}

/** The filer's emailed reply, appended to the ticket's thread (no member; never emailed back). */
export async function appendFilerReply(ticketId: string, body: string): Promise<void> {
  await (await db()).$transaction(async (tx) => {
    await tx.ticketReply.create({ data: { id: `tr_${randomUUID()}`, ticketId, authorType: "filer", body } });
    await statusAfterReply(tx, ticketId, "open", null);
  });
}
