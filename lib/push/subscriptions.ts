import { randomUUID } from "node:crypto";
import { db } from "../db/client";
import { env } from "../core/env";
import { AppError } from "../core/errors";
import type { PushSubscriptionInput } from "../contracts/push";
import { allowedTargets, registrationProblem } from "../webhooks/target-guard";

// The browsers a member subscribed. The endpoint is a URL the browser chose, and the service will
// POST to it: the webhooks' SSRF guard (public https only, unless WEBHOOK_ALLOW_PRIVATE_TARGETS or
// WEBHOOK_ALLOWED_TARGETS say otherwise) checks it here and again at every push.

/** Subscribes (or moves to this member) the browser's endpoint. */
export async function subscribe(memberId: string, input: PushSubscriptionInput): Promise<{ id: string }> {
  const { WEBHOOK_ALLOW_PRIVATE_TARGETS, WEBHOOK_ALLOWED_TARGETS } = env();
  const problem = registrationProblem(input.endpoint, WEBHOOK_ALLOW_PRIVATE_TARGETS === "on", allowedTargets(WEBHOOK_ALLOWED_TARGETS));
  if (problem) {
    throw new AppError("invalid_request", `The push endpoint ${problem}.`, { fields: [{ path: "endpoint", problem: problem }] });
  }
  const keys = { memberId, p256dh: input.keys.p256dh, auth: input.keys.auth };
  const row = await (await db()).pushSubscription.upsert({
    where: { endpoint: input.endpoint },
    create: { id: randomUUID(), endpoint: input.endpoint, ...keys },
    update: keys,
    select: { id: true },
  });
  return row;
}

/** Unsubscribes the member's endpoint; 404 when the member has none by that URL. */
export async function unsubscribe(memberId: string, endpoint: string): Promise<void> {
  const { count } = await (await db()).pushSubscription.deleteMany({ where: { memberId, endpoint } });
  if (count === 0) throw new AppError("not_found", "No push subscription of yours has this endpoint.");
}
