import { referencePageHtml } from "../../lib/http/reference-page.mjs";

// An interactive reference of /api/v1/openapi.json (Scalar), every part of it served by this
// service (lib/http/reference-page.mjs): it works without internet access.
export const GET = (): Response => new Response(referencePageHtml(), { headers: { "Content-Type": "text/html; charset=utf-8" } });
