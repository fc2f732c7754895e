import { env } from "../../core/env";
import type { Email } from "../../generated/prisma/client";
import { mailFrom } from "./transport";
import { replyToken, type ReplyBinding } from "../links/reply-token";

// The headers that make an email answerable and threaded, added when it is sent (the same on
// every retry): a stable Message-ID per email; In-Reply-To and References naming its
// conversation's or ticket's root, so mail clients group the thread; and, with MAIL_REPLY_DOMAIN,
// a Reply-To whose token binds the thread and this recipient (reply-token.ts).

type SentEmail = Pick<Email, "id" | "kind" | "conversationId" | "ticketId" | "memberId">;

/** The domain of our Message-IDs: the reply domain, else MAIL_FROM's. */
function messageIdDomain(): string {
  const { MAIL_REPLY_DOMAIN } = env();
  if (MAIL_REPLY_DOMAIN) return MAIL_REPLY_DOMAIN;
  const from = mailFrom().match(/@([^>\s]+)>?\s*$/)?.[1];
  return from?.toLowerCase() ?? "parley.invalid";
}

/** Who may answer an email of this kind, or null when it is not meant to be answered. */
function bindingOf(email: SentEmail): ReplyBinding | null {
  switch (email.kind) {
    case "visitor_follow_up":
    case "visitor_transcript":
      return email.conversationId ? { thread: { kind: "conversation", id: email.conversationId }, recipient: { kind: "visitor" } } : null;
    case "ticket_acknowledgement":
    case "ticket_reply":
      return email.ticketId ? { thread: { kind: "ticket", id: email.ticketId }, recipient: { kind: "visitor" } } : null;
    case "staff_alert":
      return email.conversationId && email.memberId
        ? { thread: { kind: "conversation", id: email.conversationId }, recipient: { kind: "member", id: email.memberId } }
        : null;
    default:
      return null;
  }
}

/** The root Message-ID of a conversation's or a ticket's thread (never sent as an email of its own). */
export function threadRootId(thread: { kind: "conversation" | "ticket"; id: string }): string {
  return `<${thread.kind}.${thread.id}@${messageIdDomain()}>`;
}

export async function replyHeaders(email: SentEmail): Promise<{ messageId: string; headers: Record<string, string>; replyTo?: string }> {
  const domain = messageIdDomain();
  const messageId = `<${email.id}@${domain}>`;
  const thread = email.conversationId
    ? ({ kind: "conversation", id: email.conversationId } as const)
    : email.ticketId
      ? ({ kind: "ticket", id: email.ticketId } as const)
      : null;
  const headers: Record<string, string> = thread ? { "In-Reply-To": threadRootId(thread), References: threadRootId(thread) } : {};
  const replyDomain = env().MAIL_REPLY_DOMAIN;
  const binding = bindingOf(email);
  if (!replyDomain || !binding) return { messageId, headers };
  return { messageId, headers, replyTo: `r+${await replyToken(binding)}@${replyDomain}` };
}
