import { randomUUID } from "node:crypto";
import { drawDailyAllowance } from "../allowance/daily-allowance";
import { db } from "../db";
import { AppError } from "../http/errors";
import { appendInTransaction } from "../messages/append-message";
import type { SiteRecord } from "../sites/find-site";
import { issueVisitorToken, TOKEN_LIFETIME_SECONDS } from "../tokens/visitor-token";
import type { StartConversationInput } from "./schemas";

export interface StartConversation extends StartConversationInput {
  site: SiteRecord;
  origin: string;
}

/**
 * Draws a unit of the inbox's daily allowance, opens a conversation bound to `origin`, stores the
 * optional first message and issues the visitor token, all in one transaction.
 */
export async function startConversation({ site, origin, name, email, body, clientId }: StartConversation) {
  if (site.offline && !email) {
    throw new AppError("email_required", "Nobody is online right now: leave an email and we will reply there.");
  }
  const conversationId = randomUUID();
  const visitorId = `visitor_${randomUUID()}`;
  const token = await (await db()).$transaction(async (tx) => {
    await drawDailyAllowance(tx, site.inboxId);
    await tx.conversation.create({
      data: {
        id: conversationId,
        siteId: site.id,
        inboxId: site.inboxId,
        origin,
        visitorId,
        visitorName: name ?? null,
        visitorEmail: email ?? null,
        offline: site.offline,
      },
    });
    if (body) {
      await appendInTransaction(tx, {
        conversationId,
        authorType: "visitor",
        authorId: visitorId,
        kind: "message",
        body,
        clientId: clientId ?? randomUUID(),
      });
    }
    return issueVisitorToken(tx, conversationId, origin);
  });
  return {
    conversation_id: conversationId,
    visitor_token: token.token,
    expires_in_seconds: TOKEN_LIFETIME_SECONDS,
    offline: site.offline,
  };
}
