import { randomUUID } from "node:crypto";
import { allowanceExhausted } from "../allowance/daily-allowance";
import { AppError } from "../core/errors";
import type { WidgetSite } from "../sites/find-site";
import { siteAvailability } from "../sites/site-hours";
import { verifyIdentity } from "../identity/identity";
import { newVisitorToken, TOKEN_LIFETIME_SECONDS } from "../tokens/visitor-token";
import { startInBatch } from "./start-batches";
import type { StartConversationInput } from "../contracts/conversations";

export interface StartConversation extends StartConversationInput {
  site: WidgetSite;
  origin: string;
}

/**
 * Opens a conversation bound to `origin`, stores the optional first message, issues the visitor
 * token and draws a unit of the inbox's daily allowance, in one statement with the other starts in
 * the inbox that arrive meanwhile (lib/conversations/start-batches.ts): no interactive
 * transaction, and the inbox's counter for the day locked once per batch.
 */
export async function startConversation({ site, origin, name, email, body, clientId, userId, userHash }: StartConversation) {
  const identity = await verifyIdentity(site, userId, userHash);
  const now = new Date();
  // Outside the site's service hours it is offline as if switched off (docs/service-hours.md).
  const { offline } = siteAvailability(site, now);
  if (offline && !email) {
    throw new AppError("email_required", "Nobody is online right now: leave an email and we will reply there.");
  }
  const conversationId = randomUUID();
  const visitorId = `visitor_${randomUUID()}`;
  const token = newVisitorToken(now);
  const started = await startInBatch(site.inboxId, {
    id: conversationId,
    siteId: site.id,
    origin,
    visitorId,
    visitorName: name ?? null,
    visitorEmail: email ?? null,
    offline,
    userId: identity?.userId ?? null,
    identityVerified: identity !== null,
    tokenId: randomUUID(),
    tokenHash: token.hash,
    tokenExpiresAt: token.expiresAt,
    message: body ? { id: randomUUID(), clientId: clientId ?? randomUUID(), body } : null,
  });
  if (!started) throw allowanceExhausted(now);
  return {
    conversation_id: conversationId,
    visitor_token: token.token,
    expires_in_seconds: TOKEN_LIFETIME_SECONDS,
    offline,
  };
}
