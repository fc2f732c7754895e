import { defineRoute } from "@/lib/api/route";
import { rateByLink, ratingPage } from "@/lib/email/links/rating-page";

// One-click rating links in emails after a close (docs/reports.md, "Rating links"). HTML pages for
// people, not the JSON envelope: GET only shows the confirmation (link scanners follow GETs), POST
// (the page's form) records the rating under the same rules as POST /api/v1/chat/visitor/rating.

export const GET = (request: Request) => ratingPage(new URL(request.url));
export const POST = (request: Request) => rateByLink(request);

// Every other method: the API's usual 404 envelope, never Next's bare 405.
export const { PUT, PATCH, DELETE, OPTIONS } = defineRoute("admin", {});
