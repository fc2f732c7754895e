import type { z } from "zod";
import { db } from "../db/client";
import type { inboxTicketDetail } from "../contracts/inbox-wire";
import { AppError } from "../core/errors";
import { ticketAttachmentsInclude, toInboxWireTicket } from "./ticket-view";

// Tickets as staff read them in the inbox. Their files are downloaded by signed-in staff (or the
// operator token) only, never from a public URL (lib/uploads/stored-files.ts).

export type InboxWireTicketDetail = z.infer<typeof inboxTicketDetail>;

const ticketInclude = { ...ticketAttachmentsInclude, site: { select: { name: true } } } as const;

export async function listInboxTickets(siteId?: string) {
  const tickets = await (await db()).ticket.findMany({
    where: siteId ? { siteId } : {},
    orderBy: [{ createdAt: "desc" }, { number: "desc" }],
    take: 200,
    include: ticketInclude,
  });
  return tickets.map(toInboxWireTicket);
}

const repliesInclude = {
  replies: { orderBy: [{ createdAt: "asc" as const }, { id: "asc" as const }], include: { member: { select: { name: true } } } },
};

/** One ticket with its staff replies, oldest first (each is also emailed to the filer). */
export async function readInboxTicket(id: string): Promise<InboxWireTicketDetail> {
  const ticket = await (await db()).ticket.findUnique({ where: { id }, include: { ...ticketInclude, ...repliesInclude } });
  if (!ticket) throw new AppError("not_found", "No ticket has this identifier.");
  return {
    ...toInboxWireTicket(ticket),
    replies: ticket.replies.map((reply) => ({
      id: reply.id,
      author_type: reply.authorType === "filer" ? ("filer" as const) : ("staff" as const),
      author_id: reply.memberId,
      author_name: reply.member?.name ?? ticket.name ?? ticket.email,
      body: reply.body,
      created_at: reply.createdAt.toISOString(),
    })),
  };
}
