import { db, type PrismaClient } from "../db/client";
import { log } from "../core/log";
import type { Prisma } from "../generated/prisma/client";

// Appending to the audit log (docs/security.md, "Audit log"). Rows are only ever inserted: the
// table's trigger refuses UPDATE and DELETE (migration 20261128030000), and nothing in Parley
// offers either. Callers pass facts; `details` never holds a secret, a password or a token, and as
// a second line of defence any key that names one is dropped here before the row is written.

/** Who acted: a signed-in member, the operator token, or nobody known (a failed sign-in). */
export type AuditActor = `member:${string}` | "operator" | "anonymous";

export interface AuditEntry {
  actor: AuditActor;
  /** A dotted name: `staff.sign_in`, `webhook.created`, `privacy.erase`, … */
  action: string;
  /** What was acted on, as `<kind>:<id>` (`site:demo`, `member:ada`); null when nothing is named. */
  target?: string | null;
  /** The client address (lib/rate-limits `clientAddress`); null where it is not known. */
  ip?: string | null;
  details?: Record<string, unknown>;
}

type Writer = Pick<PrismaClient, "auditEvent"> | Prisma.TransactionClient;

const SECRET_KEY = /secret|password|token|code|hash|signature|cookie|url/i;

/** `details` without any key that names a secret, at any depth. */
function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !SECRET_KEY.test(key))
      .map(([key, inner]) => [key, withoutSecrets(inner)]),
  );
}

export const actorMemberId = (actor: string): string | null => (actor.startsWith("member:") ? actor.slice("member:".length) : null);

/**
 * Appends one row. Pass the transaction of the change (`tx`) to record it with the change, so one
 * is never stored without the other; without it the row is written on its own.
 */
export async function recordAudit(entry: AuditEntry, tx?: Writer): Promise<void> {
  const writer = tx ?? (await db());
  await writer.auditEvent.create({
    data: {
      actor: entry.actor,
      actorMemberId: actorMemberId(entry.actor),
      action: entry.action,
      target: entry.target ?? null,
      ip: entry.ip ?? null,
      details: withoutSecrets(entry.details ?? {}) as Prisma.InputJsonObject,
    },
    select: { id: true },
  });
}

/**
 * Appends one row after a change that has already happened (or a refusal: a failed sign-in): a
 * failed write is logged at error level (`audit_write_failed`), never turned into the request's
 * failure, since the answer must still say what happened.
 */
export async function recordAuditAfter(entry: AuditEntry): Promise<void> {
  try {
    await recordAudit(entry);
  } catch (error) {
    log.error("audit_write_failed", { action: entry.action, error });
  }
}
