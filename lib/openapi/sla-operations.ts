import { z } from "zod";
import { createSlaPolicyBody, deletedSlaPolicy, slaPolicy, updateSlaPolicyBody } from "../contracts/sla";
import type { Operation } from "./operation";

// SLA policies in the inbox's API (decisions.md, round 4, "SLA policies"; docs/sla.md). The list's
// `sort=sla` and `sla=` filter are on GET /inbox/conversations (inbox-operations.ts).

const INBOX = "/api/v1/inbox";
const SCOPE = "`sites`, `teams`, `labels`: ids (empty = any); an unknown id is 400 naming its place.";

export const slaOperations: Operation[] = [
  {
    method: "GET",
    path: `${INBOX}/sla-policies`,
    family: "inbox",
    summary: "Every SLA policy, in list order (owners)",
    extension: true,
    answers: { 200: z.array(slaPolicy) },
  },
  {
    method: "POST",
    path: `${INBOX}/sla-policies`,
    family: "inbox",
    summary: "Add an SLA policy at the end of the list (owners)",
    description: `Targets in minutes (1..100,000, or null for none). ${SCOPE} The first policy in list order that matches a conversation applies.`,
    extension: true,
    body: createSlaPolicyBody,
    answers: { 201: slaPolicy },
  },
  {
    method: "PATCH",
    path: `${INBOX}/sla-policies/{id}`,
    family: "inbox",
    summary: "Change an SLA policy (owners); `position` moves it in the list",
    description: SCOPE,
    extension: true,
    body: updateSlaPolicyBody,
    answers: { 200: slaPolicy },
    errors: ["not_found"],
  },
  {
    method: "DELETE",
    path: `${INBOX}/sla-policies/{id}`,
    family: "inbox",
    summary: "Delete an SLA policy (owners): its conversations take the next policy that matches, or none",
    extension: true,
    answers: { 200: deletedSlaPolicy },
    errors: ["not_found"],
  },
];
