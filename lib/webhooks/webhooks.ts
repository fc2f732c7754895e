import { randomUUID } from "node:crypto";
import { db } from "../db/client";
import { env } from "../core/env";
import type { Prisma, WebhookDelivery } from "../generated/prisma/client";
import { AppError, invalidRequest } from "../core/errors";
import { WEBHOOK_TEST_EVENT, type CreateWebhookInput, type UpdateWebhookInput } from "../contracts/webhooks";
import { webhookSecretPlace } from "../secrets/places";
import { sealSecret } from "../secrets/seal";
import { newWebhookSecret } from "./signature";
import { allowedTargets, registrationProblem } from "./target-guard";

// Registered webhooks (the operator API). The secret is returned by create only, and kept sealed.

const DELIVERY_PAGE = 100;

const publicColumns = {
  id: true,
  url: true,
  events: true,
  description: true,
  createdAt: true,
  updatedAt: true,
  lastAttemptAt: true,
  lastResult: true,
  lastResponseStatus: true,
  lastError: true,
  lastSuccessAt: true,
  failuresInARow: true,
  urlRefused: true,
} as const;

const toWire = (row: Prisma.WebhookGetPayload<{ select: typeof publicColumns }>) => ({
  id: row.id,
  url: row.url,
  events: row.events,
  description: row.description,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
  health: {
    last_attempt_at: row.lastAttemptAt?.toISOString() ?? null,
    last_result: row.lastResult as "succeeded" | "failed" | null,
    last_response_status: row.lastResponseStatus,
    last_error: row.lastError,
    last_success_at: row.lastSuccessAt?.toISOString() ?? null,
    failures_in_a_row: row.failuresInARow,
    url_refused: row.urlRefused,
  },
});

const webhookNotFound = () => new AppError("not_found", "No webhook has this identifier.");

/** The URL, or a 400 saying why it may not be a target (lib/webhooks/target-guard.ts). */
function allowedTarget(url: string): string {
  const { WEBHOOK_ALLOW_PRIVATE_TARGETS, WEBHOOK_ALLOWED_TARGETS } = env();
  const problem = registrationProblem(url, WEBHOOK_ALLOW_PRIVATE_TARGETS === "on", allowedTargets(WEBHOOK_ALLOWED_TARGETS));
  if (!problem) return url;
  // The problem may quote the URL (up to 2,000 characters): the message keeps the first part.
  const summary = problem.length > 160 ? `${problem.slice(0, 159)}…` : problem;
  throw invalidRequest(`The webhook URL ${summary}.`, [{ path: "url", problem }]);
}

export async function createWebhook(input: CreateWebhookInput) {
  const url = allowedTarget(input.url);
  const secret = newWebhookSecret();
  const id = `wh_${randomUUID()}`;
  const row = await (await db()).webhook.create({
    data: { id, url, events: input.events, description: input.description ?? null, secret: sealSecret(secret, webhookSecretPlace(id)) },
    select: publicColumns,
  });
  return { ...toWire(row), secret };
}

export async function listWebhooks() {
  const rows = await (await db()).webhook.findMany({ orderBy: { createdAt: "asc" }, select: publicColumns });
  return rows.map(toWire);
}

export async function updateWebhook(id: string, input: UpdateWebhookInput) {
  const url = input.url === undefined ? undefined : allowedTarget(input.url);
  const prisma = await db();
  const { count } = await prisma.webhook.updateMany({
    where: { id },
    // A URL given again passed the rules just now: a flag of the last start's no longer holds.
    data: { url, events: input.events, description: input.description, updatedAt: new Date(), ...(url === undefined ? {} : { urlRefused: null }) },
  });
  if (count === 0) throw webhookNotFound();
  return toWire(await prisma.webhook.findUniqueOrThrow({ where: { id }, select: publicColumns }));
}

export async function deleteWebhook(id: string) {
  const { count } = await (await db()).webhook.deleteMany({ where: { id } });
  if (count === 0) throw webhookNotFound();
  return { id, deleted: true };
}

type DeliveryRow = Pick<
  WebhookDelivery,
  "id" | "eventId" | "type" | "attempt" | "status" | "responseStatus" | "lastError" | "nextAttemptAt" | "createdAt" | "updatedAt"
>;

const toWireDelivery = (row: DeliveryRow) => ({
  id: row.id,
  event_id: row.eventId,
  type: row.type,
  attempt: row.attempt,
  status: row.status,
  response_status: row.responseStatus,
  error: row.lastError,
  next_attempt_at: row.status === "pending" ? (row.nextAttemptAt?.toISOString() ?? null) : null,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

export async function listDeliveries(webhookId: string) {
  const prisma = await db();
  if (!(await prisma.webhook.findUnique({ where: { id: webhookId }, select: { id: true } }))) throw webhookNotFound();
  const rows = await prisma.webhookDelivery.findMany({
    where: { webhookId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: DELIVERY_PAGE,
  });
  return rows.map(toWireDelivery);
}

/** Queues one more attempt now, whatever the delivery's state; the event id stays the same. */
export async function retryDelivery(webhookId: string, deliveryId: string) {
  const prisma = await db();
  const row = await prisma.$transaction(async (tx) => {
    const { count } = await tx.webhookDelivery.updateMany({
      where: { id: deliveryId, webhookId },
      data: { status: "pending", nextAttemptAt: new Date(), updatedAt: new Date() },
    });
    if (count === 0) return null;
    // Through the outbox, like every other job: queued in the same transaction, never lost.
    await tx.notificationEvent.create({ data: { type: "delivery.retry", subjectId: deliveryId } });
    return tx.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
  });
  if (!row) throw new AppError("not_found", "This webhook has no delivery with this identifier.");
  return toWireDelivery(row);
}

/**
 * "Send a test event": a `webhook.test` delivery to this webhook only, through the real path (the
 * delivery row, signed like any other, retried on the same schedule; a `delivery.retry` event in
 * the same transaction has it claimed now, by a worker's loop or a serverless round).
 */
export async function sendTestEvent(webhookId: string) {
  const prisma = await db();
  const row = await prisma.$transaction(async (tx) => {
    if (!(await tx.webhook.findUnique({ where: { id: webhookId }, select: { id: true } }))) return null;
    const now = new Date();
    const payload = JSON.stringify({ type: WEBHOOK_TEST_EVENT, timestamp: now.toISOString(), data: { webhook_id: webhookId } });
    const delivery = await tx.webhookDelivery.create({
      data: { id: `whd_${randomUUID()}`, webhookId, eventId: `evt_${randomUUID().replaceAll("-", "")}`, type: WEBHOOK_TEST_EVENT, payload, nextAttemptAt: now },
    });
    await tx.notificationEvent.create({ data: { type: "delivery.retry", subjectId: delivery.id } });
    return delivery;
  });
  if (!row) throw webhookNotFound();
  return toWireDelivery(row);
}
