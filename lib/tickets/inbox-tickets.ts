import type { z } from "zod";
import { db } from "../db/client";
import type { inboxTicketDetail } from "../contracts/inbox-wire";
import type { TicketListQuery } from "../contracts/inbox";
import { AppError } from "../core/errors";
import { encodeKeysetCursor } from "../core/validation/cursors";
import { ticketWireInclude, toInboxWireTicket } from "./ticket-view";
import { visibleTicketWhere, type Viewer } from "../teams/visibility";
import { assertMaySee, type Looker } from "../teams/access";

// Tickets as staff read them in the inbox. Their files are downloaded by signed-in staff (or the
// operator token) only, never from a public URL (lib/uploads/stored-files.ts).

export type InboxWireTicketDetail = z.infer<typeof inboxTicketDetail>;

const ticketInclude = { ...ticketWireInclude, site: { select: { name: true } } } as const;

export interface TicketFilters extends Omit<TicketListQuery, "status" | "limit"> {
  status?: TicketListQuery["status"];
  limit?: number;
  /** Only these tickets (the inbox page's search results). */
  ids?: string[];
}

const DEFAULT_PAGE = 50;

/**
 * One page of the tickets that pass every filter given, newest first (ties by id, so the order is
 * total and a cursor resumes it exactly); `assignee: "me"` is the viewer's. Only those the viewer
 * may see (docs/teams.md).
 */
export async function listInboxTickets(filters: TicketFilters, viewer: Viewer) {
  const memberId = viewer.id;
  const limit = filters.limit ?? DEFAULT_PAGE;
  const assignee = filters.assignee === undefined ? {} : { assigneeId: filters.assignee === "me" ? memberId : filters.assignee === "none" ? null : filters.assignee };
  const after = filters.cursor ? { OR: [{ createdAt: { lt: filters.cursor.at } }, { createdAt: filters.cursor.at, id: { lt: filters.cursor.id } }] } : {};
  const rows = await (await db()).ticket.findMany({
    where: {
      ...(filters.site ? { siteId: filters.site } : {}),
      ...(filters.status && filters.status !== "all" ? { status: filters.status } : {}),
      ...(filters.priority ? { priority: filters.priority } : {}),
      ...(filters.ids ? { id: { in: filters.ids } } : {}),
      ...(filters.team ? { teamId: filters.team === "none" ? null : filters.team } : {}),
      ...assignee,
      AND: [after, visibleTicketWhere(viewer)],
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    include: ticketInclude,
  });
  const items = rows.slice(0, limit).map(toInboxWireTicket);
  const last = rows.length > limit ? rows[limit - 1]! : undefined;
  return { items, next_cursor: last ? encodeKeysetCursor({ at: last.createdAt, id: last.id }) : null };
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
export async function readInboxTicket(looker: Looker, id: string): Promise<InboxWireTicketDetail> {
  await assertMaySee(looker, "ticket", id); // the inbox's page reads it without the route
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
