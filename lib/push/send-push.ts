import webpush from "web-push";
import { db } from "../db/client";
import { env } from "../core/env";
import { log } from "../core/log";
import { postWebhook } from "../webhooks/post-webhook";
import { allowedTargets, resolveTarget, TargetRefused } from "../webhooks/target-guard";
import { vapidKeys } from "./vapid";

// One notification to each browser of some members. `web-push` (the maintained Node library of
// the Web Push protocol) encrypts the payload (RFC 8291, aes128gcm) and signs the VAPID header; the
// request itself goes out like a webhook attempt, to the address the SSRF guard checked. A push
// service that answers 404 or 410 has forgotten the browser: its subscription is removed.

export interface PushMessage {
  title: string;
  body: string;
  /** The inbox page the notification opens. */
  url: string;
  /** Notifications with the same tag replace each other (one per conversation). */
  tag: string;
}

const PUSH_TIMEOUT_MS = 10_000;
/** How long a push service keeps an undelivered notification (seconds): a chat is stale after that. */
const TTL_SECONDS = 60 * 60;

export interface PushOutcome {
  sent: number;
  removed: number;
  failed: number;
}

export async function pushToMembers(memberIds: readonly string[], message: PushMessage): Promise<PushOutcome> {
  const outcome: PushOutcome = { sent: 0, removed: 0, failed: 0 };
  if (memberIds.length === 0) return outcome;
  const prisma = await db();
  const subscriptions = await prisma.pushSubscription.findMany({ where: { memberId: { in: [...memberIds] } } });
  if (subscriptions.length === 0) return outcome;
  const vapid = await vapidKeys();
  const payload = JSON.stringify({ ...message, body: message.body.slice(0, 300) });
  const { WEBHOOK_ALLOW_PRIVATE_TARGETS, WEBHOOK_ALLOWED_TARGETS } = env();
  const gone: string[] = [];
  const delivered: string[] = [];
  await Promise.all(
    subscriptions.map(async (subscription) => {
      const request = webpush.generateRequestDetails(
        { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
        payload,
        { vapidDetails: vapid, TTL: TTL_SECONDS, urgency: "high", contentEncoding: "aes128gcm" },
      );
      try {
        const target = await resolveTarget(subscription.endpoint, WEBHOOK_ALLOW_PRIVATE_TARGETS === "on", allowedTargets(WEBHOOK_ALLOWED_TARGETS));
        const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
        const answer = await postWebhook(target, headers, request.body ?? Buffer.alloc(0), PUSH_TIMEOUT_MS);
        if (answer.status === 404 || answer.status === 410) gone.push(subscription.id);
        else if (answer.status !== null && answer.status >= 200 && answer.status < 300) delivered.push(subscription.id);
        else {
          outcome.failed++;
          log.warn("push_failed", { subscriptionId: subscription.id, status: answer.status, error: answer.error });
        }
      } catch (error) {
        if (!(error instanceof TargetRefused)) throw error;
        outcome.failed++;
        log.warn("push_refused", { subscriptionId: subscription.id, reason: error.message });
      }
    }),
  );
  if (gone.length) await prisma.pushSubscription.deleteMany({ where: { id: { in: gone } } });
  if (delivered.length) await prisma.pushSubscription.updateMany({ where: { id: { in: delivered } }, data: { lastPushedAt: new Date() } });
  return { ...outcome, sent: delivered.length, removed: gone.length };
}
