import type { z } from "zod";
import { SLA_KINDS, type conversationSla } from "../contracts/sla";
import type { RecordedBreach } from "./statements";

// A staff read's `sla` (decisions.md, round 4, "SLA policies"), from the columns lib/sla/refresh.ts
// keeps on the conversation: null when no policy applies.

export type WireSla = z.infer<typeof conversationSla>;

export interface SlaColumnsRead {
  policyId: string | null;
  firstResponseDueAt: Date | null;
  nextResponseDueAt: Date | null;
  resolutionDueAt: Date | null;
  breaches: unknown;
}

const isBreach = (value: unknown): value is RecordedBreach =>
  typeof value === "object" && value !== null && SLA_KINDS.includes((value as RecordedBreach).kind as (typeof SLA_KINDS)[number]);

export function toWireSla(row: SlaColumnsRead): WireSla {
  if (!row.policyId) return null;
  const breaches = Array.isArray(row.breaches) ? row.breaches.filter(isBreach) : [];
  return {
    policy_id: row.policyId,
    first_response_due_at: row.firstResponseDueAt?.toISOString() ?? null,
    next_response_due_at: row.nextResponseDueAt?.toISOString() ?? null,
    resolution_due_at: row.resolutionDueAt?.toISOString() ?? null,
    // kind, at and why only: the key is how the sweep knows a breach is recorded
    breaches: breaches.map(({ kind, at, why }) => ({ kind: kind as (typeof SLA_KINDS)[number], at, why })),
  };
}
