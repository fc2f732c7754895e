import { z } from "zod";

// Availability and routing (decisions.md, round 3; docs/routing.md).

export const AVAILABILITIES = ["online", "away", "offline"] as const;
export type Availability = (typeof AVAILABILITIES)[number];

export const ASSIGNMENT_MODES = ["manual", "round_robin"] as const;

/** PUT /api/v1/inbox/session/availability: what the member chooses; `offline` is no tab, not a choice. */
export const availabilityBody = z.strictObject({ availability: z.enum(["online", "away"]) });

export const availability = z.enum(AVAILABILITIES).describe("online: an inbox tab open and not away; away: by choice or idle; offline: no inbox tab");

/** A member's cap of open assigned conversations under round robin; owners set it. */
export const maxOpen = z.number().int().min(1).max(1000);

/** Site fields: how new conversations are assigned, and when a waiting one moves on. */
export const routingFields = {
  assignment: z.enum(ASSIGNMENT_MODES).optional(),
  reassign_after_minutes: z.number().int().min(1).max(1440).nullable().optional(),
};
