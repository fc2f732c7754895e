import { toWebhookWireConversation } from "../conversations/conversation-view";
import { toWireRating } from "../conversations/rate-conversation";
import { db } from "../db/client";
import { messageInclude, toWebhookWireMessage } from "../conversations/message-view";
import { ticketWireInclude, toWebhookWireTicket, toWireAttachment } from "../tickets/ticket-view";
import type { WebhookEvent } from "../contracts/webhooks";
import { MESSAGE_CREATED } from "../contracts/events";

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
    message: toWebhookWireMessage(message, message.conversation.visitorName),
  };
}

export async function eventData(
  type: WebhookEvent,
  subjectId: string,
  messages?: Map<string, LoadedMessage>,
): Promise<Record<string, unknown> | null> {
  const prisma = await db();
  switch (type) {
    case MESSAGE_CREATED: {
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
          ...toWebhookWireConversation(conversation),
          status: type === "conversation.closed" ? "closed" : conversation.status,
        },
      };
    }
    case "conversation.rated": {
      const rating = await prisma.conversationRating.findUnique({ where: { id: subjectId }, include: { conversation: { select: { siteId: true } } } });
      if (!rating) return null;
      return { conversation_id: rating.conversationId, site_id: rating.conversation.siteId, rating: toWireRating(rating) };
    }
    case "ticket.created": {
      const ticket = await prisma.ticket.findUnique({ where: { id: subjectId }, include: ticketWireInclude });
      if (!ticket) return null;
      // The ticket as filed, whenever the delivery runs: open, unassigned, no file arrived yet (each
      // file's arrival is an `attachment.uploaded` event of its own, triage is not a webhook event).
      const asFiled = {
        ...ticket,
        status: "open",
        assignee: null,
        updatedAt: ticket.createdAt,
        solvedAt: null,
        attachments: ticket.attachments.map((attachment) => ({ ...attachment, uploadedAt: null })),
      };
      return { site_id: ticket.siteId, ticket: toWebhookWireTicket(asFiled) };
    }
    case "privacy.erased": {
      const erasure = await prisma.privacyErasure.findUnique({ where: { id: subjectId } });
      if (!erasure) return null;
      return { kind: erasure.kind, site_id: erasure.siteId, counts: erasure.counts, erased_at: erasure.createdAt.toISOString() };
    }
    case "sla.breached": {
      // The subject is the breach's staff timeline event (lib/sla/refresh.ts).
      const line = await prisma.message.findUnique({ where: { id: subjectId }, select: { conversationId: true, details: true, conversation: { select: { siteId: true } } } });
      if (!line) return null;
      const facts = (line.details ?? {}) as { kind?: unknown; at?: unknown; why?: unknown; policyId?: unknown };
      return {
        conversation_id: line.conversationId,
        site_id: line.conversation.siteId,
        policy_id: typeof facts.policyId === "string" ? facts.policyId : null,
        breach: { kind: String(facts.kind ?? ""), at: String(facts.at ?? ""), why: String(facts.why ?? "") },
      };
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
        attachment: toWireAttachment(attachment),
      };
    }
  }
}
