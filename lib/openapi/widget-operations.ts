import type { Operation } from "./operation";
import * as wire from "../contracts/widget-wire";

// Widget 2's routes: the site config and identity verification's secret (docs/api.md, "The
// widget's site config" and "Identity verification"). Neither has a body or a query.
export const widgetOperations: Operation[] = [
  {
    method: "GET",
    path: "/api/v1/chat/widget/{siteID}/config",
    family: "widget",
    summary: "The widget's site config (title, greeting, brand colour, locale, team faces)",
    description:
      "Rate-limited as page views. Answers `Cache-Control: private, max-age=60`, the only API answer a browser may reuse (for a minute), " +
      "or fewer seconds when the site's service hours open or close sooner (round 3: `open`, `next_open_at`, `away_message`).",
    extension: true,
    answers: { 200: wire.widgetConfig },
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
