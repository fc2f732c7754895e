import { z } from "zod";
import { createSlaPolicyBody, deletedSlaPolicy, slaPolicy, updateSlaPolicyBody } from "../../../contracts/sla";
import { routes } from "../../operation";

// SLA policies (decisions.md, round 4, "SLA policies"; docs/sla.md). The list's `sort=sla` and
// `sla=` filter are in ./conversations.ts.

const SCOPE = "`sites`, `teams`, `labels`: ids (empty = any); an unknown id is 400 naming its place.";

export const inboxSlaPolicies = routes({
  "v1/inbox/sla-policies": {
    GET: {
      summary: "Every SLA policy, in list order (owners)",
      extension: true,
      answers: { 200: z.array(slaPolicy) },
    },
    POST: {
      summary: "Add an SLA policy at the end of the list (owners)",
      description: `Targets in minutes (1..100,000, or null for none). ${SCOPE} The first policy in list order that matches a conversation applies.`,
      extension: true,
      body: createSlaPolicyBody,
      answers: { 201: slaPolicy },
    },
  },
  "v1/inbox/sla-policies/[id]": {
    PATCH: {
      summary: "Change an SLA policy (owners); `position` moves it in the list",
      description: SCOPE,
      extension: true,
      body: updateSlaPolicyBody,
      answers: { 200: slaPolicy },
      errors: ["not_found"],
    },
    DELETE: {
      summary: "Delete an SLA policy (owners): its conversations take the next policy that matches, or none",
      extension: true,
      answers: { 200: deletedSlaPolicy },
      errors: ["not_found"],
    },
  },
});
