import { db } from "../db";
import { messageInclude, toWireMessage } from "../messages/message-view";
import type { WebhookEvent } from "./schemas";

// The `data` of each webhook event, in the wire shapes of the spec, built from the row the event
// is about when it is dispatched. null: the row is gone, so there is nothing to tell.

const messageWithConversation = {
  ...messageInclude,
  conversation: { select: { siteId: true, visitorName: true, visitorEmail: true } },
} as const;

/** The messages of many message.created events in one query (a burst of sends is dispatched in batches). */
export async function loadMessages(ids: string[]) {
  if (ids.length === 0) return new Map<string, LoadedMessage>();
  const rows = await (await db()).message.findMany({ where: { id: { in: ids } }, include: messageWithConversation });
  return new Map(rows.map((row) => [row.id, row]));
}
export type LoadedMessage = Awaited<ReturnType<typeof loadOne>> & {};
const loadOne = async (id: string) =>
  (await db()).message.findUnique({ where: { id }, include: messageWithConversation });

export function messageEventData(message: LoadedMessage) {
  return {
    conversation_id: message.conversationId,
    site_id: message.conversation.siteId,
    message: toWireMessage(message, message.conversation.visitorName),
  };
}

export async function eventData(
  type: WebhookEvent,
  subjectId: string,
  messages?: Map<string, LoadedMessage>,
): Promise<Record<string, unknown> | null> {
  const prisma = await db();
  switch (type) {
    case "message.created": {
      const message = messages ? messages.get(subjectId) : await loadOne(subjectId);
      return message ? messageEventData(message) : null;
    }
    case "conversation.started":
    case "conversation.closed": {
      const conversation = await prisma.conversation.findUnique({ where: { id: subjectId } });
      if (!conversation) return null;
      return {
        conversation_id: conversation.id,
        site_id: conversation.siteId,
        conversation: {
          id: conversation.id,
          site_id: conversation.siteId,
          status: type === "conversation.closed" ? "closed" : conversation.status,
          origin: conversation.origin,
          visitor_id: conversation.visitorId,
          visitor_name: conversation.visitorName,
          visitor_email: conversation.visitorEmail,
          offline: conversation.offline,
          created_at: conversation.createdAt.toISOString(),
          closed_at: conversation.closedAt?.toISOString() ?? null,
        },
      };
    }
    case "ticket.created": {
      const ticket = await prisma.ticket.findUnique({
        where: { id: subjectId },
        include: { attachments: { orderBy: { position: "asc" } } },
      });
      if (!ticket) return null;
      // The ticket as filed, whenever the delivery runs: no file can have arrived before the ticket
      // existed, and each file's arrival is an `attachment.uploaded` event of its own.
      const asFiled = { ...ticket, attachments: ticket.attachments.map((attachment) => ({ ...attachment, uploadedAt: null })) };
      return { site_id: ticket.siteId, ticket: wireTicket(asFiled) };
    }
    case "attachment.uploaded": {
      const attachment = await prisma.ticketAttachment.findUnique({
        where: { id: subjectId },
        include: { ticket: { select: { id: true, number: true, siteId: true } } },
      });
      if (!attachment) return null;
      return {
        site_id: attachment.ticket.siteId,
        ticket_id: attachment.ticket.id,
        ticket_number: attachment.ticket.number,
        attachment: wireAttachment(attachment),
      };
    }
  }
}

interface AttachmentRow {
  id: string;
  name: string;
  contentType: string;
  bytes: number;
  uploadedAt: Date | null;
}

const wireAttachment = (attachment: AttachmentRow) => ({
  id: attachment.id,
  name: attachment.name,
  content_type: attachment.contentType,
  bytes: attachment.bytes,
  uploaded: attachment.uploadedAt !== null,
  uploaded_at: attachment.uploadedAt?.toISOString() ?? null,
});

function wireTicket(ticket: {
  id: string;
  number: number;
  siteId: string;
  name: string | null;
  email: string;
  subject: string;
  body: string;
  priority: string;
  createdAt: Date;
  attachments: AttachmentRow[];
}) {
  return {
    id: ticket.id,
    number: ticket.number,
    site_id: ticket.siteId,
    name: ticket.name,
    email: ticket.email,
    subject: ticket.subject,
    body: ticket.body,
    priority: ticket.priority,
    created_at: ticket.createdAt.toISOString(),
    attachments: ticket.attachments.map(wireAttachment),
  };
}
