import type { Prisma } from "../generated/prisma/client";
import { emailTargets } from "./email-target";

// The audit rows about one email address, for privacy requests (docs/security.md, "Privacy
// requests"): failed sign-ins that name its keyed hash, and rows whose details name the address
// (an invite's). Audit rows are append-only, so an erasure does not delete them: it redacts them,
// the one UPDATE the table's trigger allows (migration 20261129060000) — inside a transaction that
// set `parley.audit_redact`, only `target` and `details` change, and the row then says
// `"redacted": true`. Who acted, what, when and from where stay.

type Tx = Prisma.TransactionClient;

/** The rows, oldest first, as the database holds them. */
export async function auditRowsAboutEmail(tx: Tx, email: string): Promise<unknown[]> {
  const [row] = await tx.$queryRaw<{ rows: unknown[] }[]>`
    SELECT coalesce(json_agg(a ORDER BY a."at", a."id"), '[]'::json) AS rows FROM "audit_events" a
     WHERE a."target" = ANY(${emailTargets(email)}::text[]) OR lower(a."details" ->> 'email') = ${email}`;
  return row?.rows ?? [];
}

/** Redacts the rows (the address's hash and any `email` in details go); answers how many. */
export async function redactAuditAboutEmail(tx: Tx, email: string): Promise<number> {
  const targets = emailTargets(email);
  await tx.$queryRaw`SELECT set_config('parley.audit_redact', 'on', true)`;
  const redacted = await tx.$executeRaw`
    UPDATE "audit_events"
       SET "target" = CASE WHEN "target" = ANY(${targets}::text[]) THEN 'redacted' ELSE "target" END,
           "details" = ("details" - 'email') || '{"redacted": true}'::jsonb
     WHERE "target" = ANY(${targets}::text[]) OR lower("details" ->> 'email') = ${email}`;
  await tx.$queryRaw`SELECT set_config('parley.audit_redact', 'off', true)`;
  return redacted;
}
