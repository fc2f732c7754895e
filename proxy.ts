import { NextResponse, type NextRequest } from "next/server";
import { env } from "./lib/core/env";
import { runtimePageHeaders } from "./lib/http/page-headers.mjs";
import { isNextInternalHeader, screenRequest, type Refusal } from "./lib/http/request-screen.mjs";
import { errorBody, errorHeaders } from "./lib/http/wire.mjs";

// Next.js runs this, wherever Next is the server (`npm start` behind its front, `next start`,
// `next dev`, Vercel), for two kinds of request (the matcher below):
// - /api requests Next would act on before the route: screened as under `npm start` the front
//   (lib/runtime/front.mjs) has already done, and more, before Next saw the request. See docs/api.md,
//   "Requests the API never honours";
// - pages whose headers depend on the configuration (lib/http/page-headers.mjs), set here from
//   the environment the server runs with.

export function proxy(request: NextRequest): Response {
  const url = new URL(request.url);
  const pageHeaders = runtimePageHeaders(url.pathname, env());
  if (pageHeaders) {
    const response = NextResponse.next();
    for (const [name, value] of pageHeaders) response.headers.set(name, value);
    return response;
  }
  const refusal = screenRequest(request.method, url.pathname) ?? flightRequest(request.headers);
  if (refusal) return refuse(refusal);
  const headers = new Headers(request.headers);
  let changed = false;
  for (const name of [...headers.keys()]) {
    if (isNextInternalHeader(name)) {
      headers.delete(name);
      changed = true;
    }
  }
  return changed ? NextResponse.next({ request: { headers } }) : NextResponse.next();
}

/**
 * `RSC: 1` cannot be removed here: Next has already marked the request as a React Server
 * Components request before running the proxy (and would redirect it), so it is refused.
 */
function flightRequest(headers: Headers): Refusal | null {
  return headers.get("rsc") === "1"
    ? { status: 400, code: "invalid_request", message: "Next.js internal request headers are not accepted by the API." }
    : null;
}

function refuse({ status, code, message }: Refusal): Response {
  return new Response(errorBody(code, message), { status, headers: errorHeaders() });
}

// The proxy runs only for the requests it has something to do with, so the API's usual traffic
// (above all the widget's polls) pays nothing for it: /api requests carrying one of Next's
// internal headers (lib/http/request-screen.mjs; `x-invoke-*` is not read by Next 16), and
// /api paths with percent-encoding (the API's ids never need it). Statically analysed by Next:
// literal values only (tests/integration/proxy-config.test.ts checks it against the lists).
export const config = {
  matcher: [
    { source: "/demo" },
    { source: "/demo/" },
    { source: "/api/:path*", has: [{ type: "header", key: "rsc" }] },
    { source: "/api/:path*", has: [{ type: "header", key: "next-router-state-tree" }] },
    { source: "/api/:path*", has: [{ type: "header", key: "next-router-prefetch" }] },
    { source: "/api/:path*", has: [{ type: "header", key: "next-router-segment-prefetch" }] },
    { source: "/api/:path*", has: [{ type: "header", key: "next-hmr-refresh" }] },
    { source: "/api/:path*", has: [{ type: "header", key: "next-action" }] },
    { source: "/api/:path*", has: [{ type: "header", key: "next-url" }] },
    { source: "/api/:path*", has: [{ type: "header", key: "x-middleware-prefetch" }] },
    { source: "/api/:path*", has: [{ type: "header", key: "x-middleware-subrequest" }] },
    { source: "/api/:path*", has: [{ type: "header", key: "x-nextjs-data" }] },
    { source: "/api/(.*%.*)" },
  ],
};
