import { ApiReference } from "@scalar/nextjs-api-reference";

// An interactive reference of /api/v1/openapi.json (Scalar). The page loads Scalar's viewer from
// its CDN (jsDelivr): it is documentation for people with a browser on the internet; the API and
// its document are served by this service alone.
export const GET = ApiReference({ url: "/api/v1/openapi.json", pageTitle: "Parley API reference" });
