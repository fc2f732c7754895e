import { randomUUID } from "node:crypto";
import { drawDailyAllowance } from "../allowance/daily-allowance";
import { db } from "../db";
import { AppError } from "../http/errors";
import { appendInTransaction } from "../messages/append-message";
import type { SiteRecord } from "../sites/find-site";
import { verifyIdentity } from "../identity/identity";
import { issueVisitorToken, TOKEN_LIFETIME_SECONDS } from "../tokens/visitor-token";
import type { StartConversationInput } from "./schemas";

export interface StartConversation extends StartConversationInput {
  site: SiteRecord;
  origin: string;
}

/**
 * Opens a conversation bound to `origin`, stores the optional first message, issues the visitor
 * token and draws a unit of the inbox's daily allowance, all in one transaction. The draw comes
 * last because it locks the inbox's counter for the day until commit: every other start in the
 * inbox waits on that lock, so it is held for one statement, not four.
 */
export async function startConversation({ site, origin, name, email, body, clientId, userId, userHash }: StartConversation) {
  const identity = await verifyIdentity(site.id, userId, userHash);
  if (site.offline && !email) {
    throw new AppError("email_required", "Nobody is online right now: leave an email and we will reply there.");
  }
  const conversationId = randomUUID();
  const visitorId = `visitor_${randomUUID()}`;
  const token = await (await db()).$transaction(async (tx) => {
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
        userId: identity?.userId ?? null,
        identityVerified: identity !== null,
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
    const issued = await issueVisitorToken(tx, conversationId, origin);
    await drawDailyAllowance(tx, site.inboxId);
    return issued;
  });
  return {
    conversation_id: conversationId,
    visitor_token: token.token,
    expires_in_seconds: TOKEN_LIFETIME_SECONDS,
    offline: site.offline,
  };
}
