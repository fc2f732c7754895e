import { z } from "zod";
import { clientId, displayName } from "../core/validation/strings";
import { isoTime, named } from "./wire";

// SLA policies (decisions.md, round 4, "SLA policies"; docs/sla.md): owners read and write them;
// staff reads of conversations carry each one's clock as `sla`.

export const MAX_SLA_POLICY_NAME = 80;
export const MAX_SLA_POLICIES = 100;
/** A target: whole minutes, 1..100,000, or null for none. */
const targetMinutes = z.int().min(1).max(100_000).nullable();
/** At most this many ids in one of a policy's lists. */
const MAX_SCOPE_IDS = 200;
const scopeIds = z
  .array(clientId(100))
  .max(MAX_SCOPE_IDS)
  .refine((ids) => new Set(ids).size === ids.length, "must not repeat an id");

const policyFields = {
  name: displayName(MAX_SLA_POLICY_NAME),
  first_response_minutes: targetMinutes,
  next_response_minutes: targetMinutes,
  resolution_minutes: targetMinutes,
  business_hours: z.boolean(),
  sites: scopeIds,
  teams: scopeIds,
  labels: scopeIds,
};

/** POST /inbox/sla-policies: a policy goes to the end of the list. */
export const createSlaPolicyBody = z.strictObject({
  name: policyFields.name,
  first_response_minutes: targetMinutes.default(null),
  next_response_minutes: targetMinutes.default(null),
  resolution_minutes: targetMinutes.default(null),
  business_hours: z.boolean().default(false),
  sites: scopeIds.default([]),
  teams: scopeIds.default([]),
  labels: scopeIds.default([]),
});
export type CreateSlaPolicyInput = z.output<typeof createSlaPolicyBody>;

/** PATCH /inbox/sla-policies/{id}: the fields given; `position` (0-based) moves it in the list. */
export const updateSlaPolicyBody = z
  .strictObject({
    name: policyFields.name.optional(),
    first_response_minutes: targetMinutes.optional(),
    next_response_minutes: targetMinutes.optional(),
    resolution_minutes: targetMinutes.optional(),
    business_hours: z.boolean().optional(),
    sites: scopeIds.optional(),
    teams: scopeIds.optional(),
    labels: scopeIds.optional(),
    position: z.int().min(0).max(MAX_SLA_POLICIES).optional(),
  })
  .refine((body) => Object.keys(body).length > 0, "must change at least one field");
export type UpdateSlaPolicyInput = z.output<typeof updateSlaPolicyBody>;

export const slaPolicy = named(
  "SlaPolicy",
  z.object({
    id: z.string(),
    name: z.string().max(MAX_SLA_POLICY_NAME),
    position: z.int().min(0).describe("list order, 0 first: the first policy that matches a conversation applies"),
    first_response_minutes: targetMinutes.describe("from the cycle's first visitor message to the first public reply by a person"),
    next_response_minutes: targetMinutes.describe("from a visitor message after a person's reply to the next public reply by a person"),
    resolution_minutes: targetMinutes.describe("from the cycle's start to its close"),
    business_hours: z.boolean().describe("count only the site's service hours (the reports' clock)"),
    sites: z.array(z.string()).describe("empty: any site"),
    teams: z.array(z.string()).describe("empty: any team, or none"),
    labels: z.array(z.string()).describe("empty: any; else the conversation carries at least one of them"),
    created_at: isoTime,
    updated_at: isoTime,
  }),
);

export const deletedSlaPolicy = named("DeletedSlaPolicy", z.object({ id: z.string(), deleted: z.literal(true) }));

export const SLA_KINDS = ["first_response", "next_response", "resolution"] as const;
export type SlaKind = (typeof SLA_KINDS)[number];

export const slaBreach = named(
  "SlaBreach",
  z.object({
    kind: z.enum(SLA_KINDS),
    at: isoTime.describe("when the target was due"),
    why: z.string().describe('in words: "waited 42 min inside service hours; 15 h outside them not counted"'),
  }),
);

/** A staff read's `sla`: null when no policy applies. */
export const conversationSla = named(
  "ConversationSla",
  z
    .object({
      policy_id: z.string(),
      first_response_due_at: isoTime.nullable().describe("null: no such target, or it stopped (a person replied)"),
      next_response_due_at: isoTime.nullable().describe("null: no such target, or nobody waits for a reply"),
      resolution_due_at: isoTime.nullable().describe("null: no such target, or closed"),
      breaches: z.array(slaBreach),
    })
    .nullable(),
);

/** The list's `?sla=`. */
export const SLA_FILTERS = ["breached", "due_soon"] as const;
/** `due_soon`: due within this many minutes. */
export const DUE_SOON_MINUTES = 15;
