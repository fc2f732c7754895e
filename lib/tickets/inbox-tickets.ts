import type { z } from "zod";
import { db } from "../db/client";
import type { inboxTicketDetail } from "../contracts/inbox-wire";
import type { TicketListQuery } from "../contracts/inbox";
import { AppError } from "../core/errors";
import { ticketAttachmentsInclude, toInboxWireTicket } from "./ticket-view";

// Tickets as staff read them in the inbox. Their files are downloaded by signed-in staff (or the
// operator token) only, never from a public URL (lib/uploads/stored-files.ts).

export type InboxWireTicketDetail = z.infer<typeof inboxTicketDetail>;

const ticketInclude = { ...ticketAttachmentsInclude, site: { select: { name: true } }, assignee: { select: { id: true, name: true } } } as const;

export interface TicketFilters extends Partial<TicketListQuery> {
  /** Only these tickets (the inbox page's search results). */
  ids?: string[];
}

/** The newest 200 tickets that pass every filter given; `assignee: "me"` is `memberId`'s. */
export async function listInboxTickets(filters: TicketFilters, memberId: string) {
  const assignee = filters.assignee === undefined ? {} : { assigneeId: filters.assignee === "me" ? memberId : filters.assignee === "none" ? null : filters.assignee };
  const tickets = await (await db()).ticket.findMany({
    where: {
      ...(filters.site ? { siteId: filters.site } : {}),
      ...(filters.status && filters.status !== "all" ? { status: filters.status } : {}),
      ...(filters.priority ? { priority: filters.priority } : {}),
      ...(filters.ids ? { id: { in: filters.ids } } : {}),
      ...assignee,
    },
    orderBy: [{ createdAt: "desc" }, { number: "desc" }],
    take: 200,
    include: ticketInclude,
  });
  return tickets.map(toInboxWireTicket);
}

const repliesInclude = {
  replies: { orderBy: [{ createdAt: "asc" as const }, { id: "asc" as const }], include: { member: { select: { name: true } } } },
  events: { orderBy: [{ createdAt: "asc" as const }, { id: "asc" as const }], include: { member: { select: { name: true } } } },
};

type ReplyEmail = { memberId: string | null; textBody: string; status: string; lastError: string | null };
type EmailStatus = NonNullable<InboxWireTicketDetail["replies"][number]["email_status"]>;

function emailStatus(email: ReplyEmail | undefined): EmailStatus {
  if (!email || (email.status === "pending" && email.lastError === null)) return "queued";
  if (email.status === "pending") return "failed";
  return email.status as EmailStatus;
}

/** One ticket with its thread, oldest first; each staff reply with what became of its email to the filer. */
export async function readInboxTicket(id: string): Promise<InboxWireTicketDetail> {
  const prisma = await db();
  const ticket = await prisma.ticket.findUnique({ where: { id }, include: { ...ticketInclude, ...repliesInclude } });
  if (!ticket) throw new AppError("not_found", "No ticket has this identifier.");
  const emails: ReplyEmail[] = await prisma.email.findMany({
    where: { ticketId: id, kind: "ticket_reply" },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { memberId: true, textBody: true, status: true, lastError: true },
  });
  // An email names no reply: each reply takes the first unclaimed email of its author that quotes it
  // (lib/email/templates.ts quotes each line after "> ")
  // (none yet: the notification rule has not written it).
  const claim = (reply: { memberId: string | null; body: string }) => {
    const quoted = reply.body
      .split("\n")
      .map((line) => `> ${line}`)
      .join("\n");
    const index = emails.findIndex((email) => email.memberId === reply.memberId && email.textBody.includes(quoted));
    return index < 0 ? undefined : emails.splice(index, 1)[0];
  };
  const assigneeIds = ticket.events.flatMap((event) => (event.field === "assignee" ? [event.oldValue, event.newValue] : [])).filter((value) => value !== null);
  const names = new Map(
    (await prisma.member.findMany({ where: { id: { in: assigneeIds } }, select: { id: true, name: true } })).map((member) => [member.id, member.name]),
  );
  const shown = (field: string, value: string | null) => (field === "assignee" && value !== null ? (names.get(value) ?? value) : value);
  return {
    ...toInboxWireTicket(ticket),
    events: ticket.events.map((event) => ({
      id: event.id,
      field: event.field as InboxWireTicketDetail["events"][number]["field"], // written only by lib/tickets/triage-ticket.ts
      from: shown(event.field, event.oldValue),
      to: shown(event.field, event.newValue),
      actor_id: event.memberId,
      actor_name: event.member?.name ?? null,
      created_at: event.createdAt.toISOString(),
    })),
    replies: ticket.replies.map((reply) => ({
      id: reply.id,
      author_type: reply.authorType === "filer" ? ("filer" as const) : ("staff" as const),
      author_id: reply.memberId,
      author_name: reply.member?.name ?? ticket.name ?? ticket.email,
      body: reply.body,
      created_at: reply.createdAt.toISOString(),
      email_status: reply.authorType === "filer" ? null : emailStatus(claim(reply)),
    })),
  };
}
