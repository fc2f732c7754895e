import { z } from "zod";
import { clientId, singleLineValue } from "../core/validation/strings";
import { keysetCursor, queryInteger } from "../core/validation/cursors";
import { isoTime, named } from "./wire";

// The owners' view of the suppression list (GET/DELETE /api/v1/inbox/email-suppressions,
// docs/api.md "Suppression list") and the inbound emails counted by outcome (GET
// /api/v1/inbox/inbound-counts).

export const SUPPRESSION_REASONS = ["unsubscribe", "hard_bounce", "complaint"] as const;
export const DEFAULT_SUPPRESSION_LIMIT = 50;
const MAX_SUPPRESSION_LIMIT = 200;

export const suppressionQuery = z.strictObject({
  reason: z.enum(SUPPRESSION_REASONS).optional(),
  /** Entries of this site (unsubscribes); hard bounces and complaints belong to no site. */
  site: clientId(100).optional(),
  /** Part of the address, without case. */
  q: singleLineValue(254).trim().min(1).optional(),
  cursor: keysetCursor().optional(),
  limit: queryInteger(1, MAX_SUPPRESSION_LIMIT).default(DEFAULT_SUPPRESSION_LIMIT),
});
export type SuppressionQuery = z.output<typeof suppressionQuery>;

export const emailSuppression = named(
  "EmailSuppression",
  z.object({
    id: z.string(),
    address: z
      .string()
      .nullable()
      .describe("trimmed and lower-cased, as the list compares it; null for an unsubscribe by the link of an email already pruned, which lists only a keyed hash of the address"),
    reason: z.enum(SUPPRESSION_REASONS),
    site: z.string().nullable().describe("the site an unsubscribe came from; null for hard bounces and complaints, which hold for every site"),
    created_at: isoTime,
  }),
);
export type EmailSuppressionWire = z.infer<typeof emailSuppression>;

export const emailSuppressionPage = named(
  "EmailSuppressionPage",
  z.object({
    suppressions: z.array(emailSuppression).describe("newest first"),
    next_cursor: z.string().nullable().describe("`<created ms>_<id>`; null on the last page"),
  }),
);

export const removedSuppression = named(
  "RemovedSuppression",
  z.object({ id: z.string(), deleted: z.literal(true), reason: z.enum(SUPPRESSION_REASONS) }),
);

export const INBOUND_COUNT_DAYS = 30;

export const inboundCounts = named(
  "InboundCounts",
  z.object({
    since: isoTime.describe(`${INBOUND_COUNT_DAYS} days before now`),
    total: z.int().min(0),
    counts: z
      .array(
        z.object({
          outcome: z.enum(["accepted", "unverified", "ignored", "refused"]),
          reason: z.string().nullable().describe("null for replies accepted; `hard_bounce` or `complaint` for reports taken; else why (InboundEmailOutcome)"),
          count: z.int().min(1),
        }),
      )
      .describe("by outcome, then the most frequent reason first"),
  }),
);
export type InboundCountsWire = z.infer<typeof inboundCounts>;
