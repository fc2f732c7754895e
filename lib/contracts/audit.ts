import { z } from "zod";
import { keysetCursor, MAX_CURSOR_EPOCH_MS, queryInteger } from "../core/validation/cursors";
import { isoTime, named } from "./wire";

// The audit log's list (GET /api/v1/admin/audit, GET /api/v1/inbox/audit and its .csv;
// docs/api.md "Audit log"): filters, a keyset cursor, and the rows as the API shows them.

export const DEFAULT_AUDIT_LIMIT = 50;
export const MAX_AUDIT_LIMIT = 200;
/** The most rows one CSV export holds (newest first); narrow `from`/`to` for older ones. */
export const MAX_AUDIT_CSV_ROWS = 50_000;

/** `member:<id>`, `operator` or `anonymous`. */
const actorFilter = z
  .string()
  .max(120)
  .regex(/^(operator|anonymous|member:[A-Za-z0-9._-]{1,100})$/, "must be operator, anonymous or member:<id>");
/** An action (`webhook.created`) or every action of a kind (`webhook.*`). */
const actionFilter = z
  .string()
  .max(64)
  .regex(/^[a-z_]+(\.[a-z_]+)*(\.\*)?$/, "must be an action such as webhook.created, or a kind such as webhook.*");
/** A time both databases and the driver hold as given: from 1970 to 9999 (year 0, say, is a 500 in PostgreSQL). */
const queryTime = z.iso
  .datetime({ offset: true })
  .transform((value) => new Date(value))
  .refine((time) => time.getTime() >= 0 && time.getTime() <= MAX_CURSOR_EPOCH_MS, "must be between 1970 and 9999");

const filters = {
  actor: actorFilter.optional(),
  action: actionFilter.optional(),
  /** Inclusive. */
  from: queryTime.optional(),
  /** Exclusive. */
  to: queryTime.optional(),
};

const fromBeforeTo = (query: { from?: Date; to?: Date }, context: z.RefinementCtx) => {
  if (query.from && query.to && query.from >= query.to) {
    context.addIssue({ code: "custom", path: ["to"], message: "must be later than from" });
  }
};

export const auditQuery = z
  .strictObject({ ...filters, cursor: keysetCursor().optional(), limit: queryInteger(1, MAX_AUDIT_LIMIT).default(DEFAULT_AUDIT_LIMIT) })
  .superRefine(fromBeforeTo);
export type AuditQuery = z.output<typeof auditQuery>;

export const auditCsvQuery = z.strictObject(filters).superRefine(fromBeforeTo);
export type AuditFilters = z.output<typeof auditCsvQuery>;

export const auditEvent = named(
  "AuditEvent",
  z.object({
    id: z.string(),
    at: isoTime,
    actor: z.string().describe("`member:<id>`, `operator` (the operator token) or `anonymous` (a failed sign-in, an invite being accepted)"),
    actor_member_id: z.string().nullable(),
    action: z.string().describe("a dotted name: `staff.sign_in`, `staff.sign_in_failed`, `webhook.created`, … (docs/security.md lists them)"),
    target: z.string().nullable().describe("what was acted on, as `<kind>:<id>` (`site:demo`, `member:ada`; `email_hash:<keyed hash>` for a failed sign-in with an address no member has; `redacted` after a privacy erasure)"),
    ip: z.string().nullable().describe("the client address as the rate limits see it (decisions.md, \"Client IP\"); null where unknown"),
    details: z.record(z.string(), z.unknown()).describe("facts about the change (field names changed, a new role); never secrets, passwords or tokens"),
  }),
);
export type AuditEventWire = z.infer<typeof auditEvent>;

export const auditPage = named(
  "AuditPage",
  z.object({
    items: z.array(auditEvent).describe("newest first"),
    next_cursor: z.string().nullable().describe("`<at ms>_<id>`; null on the last page"),
    has_more: z.boolean(),
  }),
);
