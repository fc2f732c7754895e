import type { z } from "zod";
import type { Ticket, TicketAttachment } from "../generated/prisma/client";
import type { inboxTicket } from "../contracts/inbox-wire";
import type { ticket, ticketAttachment } from "../contracts/wire";

// The wire shapes of a ticket and its files (lib/contracts/wire.ts), built only here: the operator
// API's, and from it the inbox's and the webhooks'.

export type WireTicket = z.infer<typeof ticket>;
export type WireAttachment = z.infer<typeof ticketAttachment>;
export type InboxWireTicket = z.infer<typeof inboxTicket>;
/** `ticket.created`'s ticket: without `inbox_id` and `origin`. */
export type WebhookWireTicket = Omit<WireTicket, "inbox_id" | "origin">;

export type AttachmentRow = Pick<TicketAttachment, "id" | "name" | "contentType" | "bytes" | "uploadedAt">;
export type TicketRow = Pick<
  Ticket,
  "id" | "number" | "siteId" | "inboxId" | "origin" | "name" | "email" | "subject" | "body" | "priority" | "status" | "createdAt" | "updatedAt" | "solvedAt"
> & { attachments: AttachmentRow[]; assignee: { id: string; name: string } | null; team: { id: string; name: string } | null };

/** What `include` loads for a ticket's wire shape: its files, in the order they were described, its assignee and its team. */
export const ticketWireInclude = {
  attachments: { orderBy: { position: "asc" } },
  assignee: { select: { id: true, name: true } },
  team: { select: { id: true, name: true } },
} as const;

export const toWireAttachment = (attachment: AttachmentRow): WireAttachment => ({
  id: attachment.id,
  name: attachment.name,
  content_type: attachment.contentType,
  bytes: attachment.bytes,
  uploaded: attachment.uploadedAt !== null,
  uploaded_at: attachment.uploadedAt?.toISOString() ?? null,
});

export function toWireTicket(ticket: TicketRow): WireTicket {
  return {
    id: ticket.id,
    number: ticket.number,
    site_id: ticket.siteId,
    inbox_id: ticket.inboxId,
    origin: ticket.origin,
    name: ticket.name,
    email: ticket.email,
    subject: ticket.subject,
    body: ticket.body,
    priority: ticket.priority as WireTicket["priority"], // stored only from ticketBody's PRIORITIES
    status: ticket.status as WireTicket["status"], // stored only from TICKET_STATUSES
    assignee: ticket.assignee,
    team: ticket.team,
    created_at: ticket.createdAt.toISOString(),
    updated_at: ticket.updatedAt.toISOString(),
    solved_at: ticket.solvedAt?.toISOString() ?? null,
    attachments: ticket.attachments.map(toWireAttachment),
  };
}

export type InboxTicketRow = TicketRow & { site: { name: string } };

/** The inbox's: the site's name instead of the inbox id, and each file's download link (staff only). */
export function toInboxWireTicket(row: InboxTicketRow): InboxWireTicket {
  const { id, number, site_id, inbox_id, attachments, ...rest } = toWireTicket(row);
  return {
    id,
    number,
    site_id,
    site_name: row.site.name,
    ...rest,
    attachments: attachments.map(({ uploaded_at, ...attachment }) => ({
      ...attachment,
      download_url: `/api/v1/inbox/attachments/${encodeURIComponent(attachment.id)}`,
    })),
  };
}

export function toWebhookWireTicket(row: TicketRow): WebhookWireTicket {
  const { inbox_id, origin, ...rest } = toWireTicket(row);
  return rest;
}
