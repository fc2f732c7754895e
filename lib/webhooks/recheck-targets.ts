import { env } from "../core/env";
import { log } from "../core/log";
import { db } from "../db/client";
import { allowedTargets, registrationProblem } from "./target-guard";

// The target rules (WEBHOOK_ALLOW_PRIVATE_TARGETS, WEBHOOK_ALLOWED_TARGETS) can change between
// starts, and a URL registered under looser rules would otherwise keep being tried (and failing)
// at every delivery. Each start checks every stored URL with the registration's own check
// (target-guard.ts, no DNS) and records why one no longer passes in `url_refused`, or clears it.
// Nothing is deleted: the owner sees the flag (the API's `health.url_refused`, the inbox's
// Settings) and fixes the URL or the rules. Meanwhile its deliveries wait and new events are not
// queued for it (delivery-loop.ts, lib/notifications/batch-facts.ts).

/** Flags the stored URLs that no longer pass (and unflags those that do again); answers the flagged ids. */
export async function recheckWebhookTargets(): Promise<string[]> {
  const { WEBHOOK_ALLOW_PRIVATE_TARGETS, WEBHOOK_ALLOWED_TARGETS } = env();
  const allowed = allowedTargets(WEBHOOK_ALLOWED_TARGETS);
  const prisma = await db();
  const webhooks = await prisma.webhook.findMany({ select: { id: true, url: true, urlRefused: true } });
  const flagged: string[] = [];
  for (const webhook of webhooks) {
    const problem = registrationProblem(webhook.url, WEBHOOK_ALLOW_PRIVATE_TARGETS === "on", allowed);
    const refused = problem ? `The webhook URL ${problem}.` : null;
    if (refused) flagged.push(webhook.id);
    // Only where it changed, and only if the URL is still the one checked (a PATCH meanwhile wins).
    if (refused !== webhook.urlRefused) await prisma.webhook.updateMany({ where: { id: webhook.id, url: webhook.url }, data: { urlRefused: refused } });
  }
  if (flagged.length > 0) {
    log.notice(
      "warn",
      "webhook_targets_refused",
      `${flagged.length} stored webhook URL(s) no longer pass the target rules; nothing is delivered to them until the URL or the rules change (docs/notifications.md, "Targets").`,
      { webhooks: flagged },
    );
  }
  return flagged;
}
