import { randomUUID } from "node:crypto";
import { allowanceExhausted } from "../allowance/daily-allowance";
import { AppError, invalidRequest } from "../core/errors";
import type { WidgetSite } from "../sites/find-site";
import { siteAvailability } from "../sites/site-hours";
import { verifyIdentity } from "../identity/identity";
import { newVisitorToken, TOKEN_LIFETIME_SECONDS } from "../tokens/visitor-token";
import { startInBatch } from "./start-batches";
import { routeNewConversation } from "./routing";
import { log } from "../core/log";
import type { StartConversationInput } from "../contracts/conversations";
import { readPrechat } from "../attributes/prechat";

export interface StartConversation extends StartConversationInput {
  site: WidgetSite;
  origin: string;
  /** The browser's User-Agent header, for the staff's view of the visitor. */
  userAgent?: string | null;
}

/** Longer User-Agents are cut: enough for any real browser, and no room for a payload. */
const USER_AGENT_LENGTH = 512;

/**
 * Opens a conversation bound to `origin`, stores the optional first message, issues the visitor
 * token and draws a unit of the inbox's daily allowance, in one statement with the other starts in
 * the inbox that arrive meanwhile (lib/conversations/start-batches.ts): no interactive
 * transaction, and the inbox's counter for the day locked once per batch.
 */
export async function startConversation(start: StartConversation) {
  const { site, origin, body, clientId, userId, userHash, teamId } = start;
  const now = new Date();
  // The pre-chat form (docs/attributes.md): read only when the site has one or the start sends answers.
  const prechat = site.prechat !== null || start.fields !== undefined ? await readPrechat(site.prechat, start.fields, start.consent, now) : null;
  const name = prechat?.name ?? start.name;
  const email = prechat?.email ?? start.email;
  if (teamId !== undefined && !(site.departments as { team_id: string }[]).some((department) => department.team_id === teamId)) {
    throw invalidRequest("team_id must be one of the site's departments.", [{ path: "team_id", problem: "not one of the site's departments" }]);
  }
  const identity = await verifyIdentity(site, userId, userHash);
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
    browserVisitorId: start.browserVisitorId ?? null,
    timezone: start.timezone ?? null,
    locale: start.locale ?? null,
    userAgent: start.userAgent?.slice(0, USER_AGENT_LENGTH) || null,
    startPageUrl: start.pageUrl ?? null,
    startPageTitle: start.pageTitle ?? null,
    tokenId: randomUUID(),
    tokenHash: token.hash,
    tokenExpiresAt: token.expiresAt,
    message: body ? { id: randomUUID(), clientId: clientId ?? randomUUID(), body } : null,
    teamId: teamId ?? null,
    attributes: prechat && Object.keys(prechat.attributes).length > 0 ? JSON.stringify(prechat.attributes) : null,
    consent: prechat?.consent ? JSON.stringify(prechat.consent) : null,
  });
  if (!started) throw allowanceExhausted(now);
  // The conversation exists whatever happens here: a failed assignment leaves it unassigned.
  if (site.assignment === "round_robin" || site.defaultTeamId !== null || teamId !== undefined) await routeNewConversation(conversationId).catch((error: unknown) => log.error("round_robin_failed", { error }));
  return {
    conversation_id: conversationId,
    visitor_token: token.token,
    expires_in_seconds: TOKEN_LIFETIME_SECONDS,
    offline,
  };
}
