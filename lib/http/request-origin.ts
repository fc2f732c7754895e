import { serviceOrigin } from "../core/env";

// The Origin a request speaks for. Browsers omit the Origin header on same-origin GET and HEAD
// requests, so a widget on the service's own pages (the demo) would otherwise look origin-less.
// `Sec-Fetch-Site` is set by the browser and cannot be written by page scripts: when it says
// `same-origin`, the page is one of the service's own, at its public origin. (Not the request
// URL's origin: behind a proxy, or through `npm start`'s front, that is an internal address.)

export function requestOrigin(request: Request): string | null {
  const origin = request.headers.get("origin");
  if (origin !== null) return origin;
  if (request.headers.get("sec-fetch-site") !== "same-origin") return null;
  return serviceOrigin();
}
