import type { Operation } from "./operation";
import { conversationHistoryBody } from "../contracts/conversations";
import * as wire from "../contracts/widget-wire";

// Widget 2's routes: the site config and identity verification's secret (docs/api.md, "The
// widget's site config" and "Identity verification"), and returning visitors' history.
export const widgetOperations: Operation[] = [
  {
    method: "GET",
    path: "/api/v1/chat/widget/{siteID}/config",
    family: "widget",
    summary: "The widget's site config (title, greeting, brand colour, locale, team faces, team_available)",
    description:
      "Rate-limited as page views. Answers `Cache-Control: private, max-age=60`, the only API answer a browser may reuse (for a minute), " +
      "or fewer seconds when the site's service hours open or close sooner (round 3: `open`, `next_open_at`, `away_message`).",
    extension: true,
    answers: { 200: wire.widgetConfig },
  },
  {
    method: "POST",
    path: "/api/v1/chat/widget/{siteID}/history",
    family: "widget",
    summary: "A verified user's conversations on the site, each with a fresh visitor token",
    description:
      "Returning visitors (round 3). `user_id` and `user_hash` as on a start; a wrong pair, or a site without an identity secret, is 403 " +
      "`identity_invalid`. At most 20, newest first; each `visitor_token` is bound to its conversation and to this request's Origin (24 h). " +
      "`last_message` is the newest public message (never a note); `last_said` the newest one somebody wrote (not a closed or reopened line), " +
      "the entry's text in the widget's list. Rate-limited as starts, in the same per-IP bucket.",
    extension: true,
    body: conversationHistoryBody,
    answers: { 200: wire.conversationHistory },
    errors: ["identity_invalid"],
  },
  {
    method: "POST",
    path: "/api/v1/admin/sites/{siteID}/identity-secret",
    family: "admin",
    summary: "Create (or replace) the site's identity-verification secret",
    description: "The secret is shown only in this answer; calling again replaces it, and hashes made with the old one stop verifying.",
    extension: true,
    answers: { 201: wire.identitySecret },
    errors: ["site_not_found"],
  },
];
