import { erasureCounts, privacyRequestBody } from "../../../contracts/privacy";
import { routes, type RouteOperations } from "../../operation";
import { ownersOnly, type StaffApi } from "./owners";

// Privacy requests (decisions.md, round 3, "Trust"; docs/api.md, "Privacy requests"): the operator
// API (token) and the owners' inbox (session) take the same body and answer the same.

const BODY =
  "Exactly one of `{email}` (every site), `{user_id, site}` (a verified user id) or `{visitor_id, site}` (the browser's or the conversation's visitor id); anything else is 400 `invalid_request` naming the field. " +
  "An unknown `site` is 404 `site_not_found`.";

const ZIP = {
  status: 200,
  contentType: "application/zip",
  description:
    "A zip (not the envelope): `request.json`, one JSON file per kind of row (conversations, messages, message_attachments, ratings, tickets, ticket_replies, " +
    "ticket_attachments, page_views, emails, webhook_deliveries, audit_events — by email, the audit rows about that address; rows as stored) and each uploaded file's bytes under `files/`. `Content-Disposition: attachment`.",
} as const;

const privacy = (api: StaffApi): RouteOperations => ({
  [`v1/${api}/privacy/export`]: {
    POST: {
      summary: `Export everything about one person${ownersOnly(api)}`,
      description: BODY,
      extension: true,
      body: privacyRequestBody,
      answers: {},
      rawAnswer: ZIP,
      errors: ["site_not_found"],
    },
  },
  [`v1/${api}/privacy/erase`]: {
    POST: {
      summary: `Erase everything about one person${ownersOnly(api)}`,
      description: `${BODY} Rows and files (disk or S3) go, and the webhook event \`privacy.erased\` carries the kind and counts. Idempotent: the same request again answers zeros.`,
      extension: true,
      body: privacyRequestBody,
      answers: { 200: erasureCounts },
      errors: ["site_not_found"],
    },
  },
});

export const privacyOperations = routes({ ...privacy("admin"), ...privacy("inbox") });
