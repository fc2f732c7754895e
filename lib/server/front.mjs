// @ts-check
import { Readable } from "node:stream";

// The HTTP front of `npm start`. Most requests go to Next's request handler. The hot visitor
// routes — the widget's message polls and sends, and its presence polls, nearly all of a chat
// widget's traffic — skip Next's per-request machinery: their route handlers (the very functions
// Next would call, shared on globalThis by instrumentation.ts) get a Web Request built straight
// from the socket. Deployments without this front (Vercel, `next start`) run the same handlers.

/**
 * @typedef {(request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>} RouteHandler
 * @typedef {Record<string, RouteHandler | number | undefined>} RouteModule  a route file's exports: handlers by method, and segment config such as maxDuration
 * @typedef {Record<string, RouteModule>} HotRoutes  route modules by exact pathname
 * @typedef {(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => unknown} NodeHandler
 */

/**
 * Headers `next.config.mjs` adds to every response, which Next would have added here too.
 * @type {ReadonlyArray<[string, string]>}
 */
export const SITE_WIDE_HEADERS = [
  ["X-Content-Type-Options", "nosniff"],
  ["Referrer-Policy", "strict-origin-when-cross-origin"],
];

const NO_PARAMS = Promise.resolve({});
// Handlers read only the path and query of `request.url`; a same-origin page's origin comes from
// PUBLIC_URL (lib/http/request-origin.ts), never from this.
const INTERNAL_BASE = "http://localhost";

/**
 * @param {{ next: NodeHandler, hotRoutes: () => HotRoutes | undefined }} options
 *   `hotRoutes` is read per request: until instrumentation.ts has shared them, Next serves all.
 * @returns {NodeHandler}
 */
export function createFront({ next, hotRoutes }) {
  return (req, res) => {
    const handler = hotHandler(hotRoutes(), req);
    const request = handler && toWebRequest(req, res);
    if (!handler || !request) return next(req, res);
    return serve(handler, request, res);
  };
}

/**
 * The handler for this exact path and method, if it is a hot one. HEAD and anything unusual
 * (absolute-form targets, unknown methods) is left to Next.
 * @param {HotRoutes | undefined} routes
 * @param {import("node:http").IncomingMessage} req
 */
function hotHandler(routes, req) {
  const target = req.url ?? "";
  if (!routes || !target.startsWith("/")) return undefined;
  const queryAt = target.indexOf("?");
  const route = routes[queryAt === -1 ? target : target.slice(0, queryAt)];
  const handler = route && req.method !== "HEAD" && req.method ? route[req.method] : undefined;
  return typeof handler === "function" ? handler : undefined;
}

/**
 * @param {RouteHandler} handler
 * @param {Request} request
 * @param {import("node:http").ServerResponse} res
 */
async function serve(handler, request, res) {
  try {
    const response = await handler(request, { params: NO_PARAMS });
    const body = Buffer.from(await response.arrayBuffer());
    if (res.destroyed) return;
    res.statusCode = response.status;
    for (const [name, value] of SITE_WIDE_HEADERS) res.setHeader(name, value);
    response.headers.forEach((value, name) => res.setHeader(name, value));
    res.end(body); // with its Content-Length (none on a 204)
  } catch (error) {
    // The pipeline answers every error itself; reaching here is a bug in the front.
    console.error(JSON.stringify({ level: "error", event: "front_unhandled_error", error: String(error) }));
    if (res.headersSent) return void res.destroy();
    res.writeHead(500, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
    res.end(JSON.stringify({ success: false, result: { code: "internal_error" }, message: "An unexpected error occurred." }));
  }
}

/**
 * The request as a route handler takes it, or null when Node accepted something the Fetch API
 * refuses (Next then answers it, as it would have anyway).
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 * @returns {Request | null}
 */
function toWebRequest(req, res) {
  try {
    const headers = new Headers();
    const raw = req.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) headers.append(/** @type {string} */ (raw[i]), /** @type {string} */ (raw[i + 1]));
    const method = /** @type {string} */ (req.method);
    const url = new URL(/** @type {string} */ (req.url), INTERNAL_BASE);
    const hasBody = method !== "GET" && method !== "OPTIONS";
    return new Request(url, {
      method,
      headers,
      ...(url.searchParams.has("wait") ? { signal: abortedOnHangUp(res) } : {}),
      ...(hasBody ? { body: /** @type {ReadableStream} */ (Readable.toWeb(req)), duplex: "half" } : {}),
    });
  } catch {
    return null;
  }
}

/**
 * A signal that aborts when the client goes away before its answer. Only a long-poll (`?wait=`)
 * is held long enough to need one, and only it gets one: undici keeps a Request's signal alive
 * until a finalizer runs, and at ~6,000 short polls a second that kept the live heap growing by
 * about 1 MB/s (flat without the signal).
 * @param {import("node:http").ServerResponse} res
 */
function abortedOnHangUp(res) {
  const gone = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) gone.abort();
  });
  return gone.signal;
}
