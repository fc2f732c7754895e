// The Origin a request speaks for. Browsers omit the Origin header on same-origin GET and HEAD
// requests, so a widget on the service's own pages (the demo) would otherwise look origin-less.
// `Sec-Fetch-Site` is set by the browser and cannot be written by page scripts: when it says
// `same-origin`, the request's own origin is the page's. Anything else keeps the header as sent.

export function requestOrigin(request: Request): string | null {
  const origin = request.headers.get("origin");
  if (origin !== null) return origin;
  if (request.headers.get("sec-fetch-site") !== "same-origin") return null;
  return new URL(request.url).origin;
}
