// @ts-check
import { createServer, STATUS_CODES } from "node:http";
import { FrontRequest } from "./front-request.mjs";
import { heapPolicy } from "./heap-policy.mjs";
import { InFlight } from "./in-flight.mjs";
import { isApiPath, isNextInternalHeader, screenRequest } from "../http/request-screen.mjs";
import { errorBody, errorHeaders, INTERNAL_ERROR, SITE_WIDE_HEADERS } from "../http/wire.mjs";
import { isDraining, startDraining } from "../core/lifecycle.mjs";
import { replyHandlerOf } from "../core/reply-handlers.mjs";
import { installFrontSecret, PEER_HEADER, peerHeaderValue } from "../core/peer.mjs";

// The HTTP front of `npm start` (lib/runtime/README.md). Most requests go to Next's request
// handler. The hot routes — the widget's message polls and sends, its presence polls and
// conversation starts, nearly all of a chat widget's traffic — skip Next's per-request machinery:
// the pipeline behind their route handlers (the route files instrumentation.ts hands over through
// lib/core/lifecycle.mjs; lib/core/reply-handlers.mjs) gets a request built straight from the
// socket (lib/runtime/front-request.mjs), and its reply is written here in one writeHead.
// Deployments without this front (Vercel, `next start`) run the same pipeline through Next.

/**
 * @typedef {import("../core/reply-handlers.mjs").ReplyHandler} ReplyHandler
 * @typedef {import("../core/reply-handlers.mjs").WireReply} WireReply
 * @typedef {import("../core/reply-handlers.mjs").RouteModule} RouteModule
 * @typedef {import("../core/reply-handlers.mjs").HotRoutes} HotRoutes
 * @typedef {(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => unknown} NodeHandler
 */

// Before any of that, every request is screened here (lib/http/request-screen.mjs): a method
// outside the API's set, a malformed path, or a request Node's parser refuses (headers too large,
// not HTTP) gets the envelope, never Next's plain-text or empty answers; Next.js's internal
// headers are removed from /api requests; and the TCP peer is passed to the handlers for per-IP
// rate limits (lib/core/peer.mjs). Requests whose headers or body do not arrive within
// REQUEST_TIMEOUT_MS are cut off (held long-polls are unaffected: their request has arrived).
//
// On shutdown (`drain`, docs/deploy.md) it stops accepting connections, answers every request
// still arriving on an open connection with `Connection: close`, has held long-polls answer at
// once, ends event streams (EventSource reconnects, to another instance), and resolves when the
// last request in flight has finished.

export { SITE_WIDE_HEADERS };
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/** @type {Readonly<Record<string, string>>} */
const NO_PARAMS = Object.freeze({});
// Handlers read only the path and query of `request.url`; a same-origin page's origin comes from
// PUBLIC_URL (lib/http/request-origin.ts), never from this.
const INTERNAL_BASE = "http://localhost";

/**
 * @param {{ next: NodeHandler, hotRoutes: HotRoutes, inFlight: InFlight<import("node:http").ServerResponse> }} options
 * @returns {NodeHandler}
 */
function createFront({ next, hotRoutes, inFlight }) {
  const secret = installFrontSecret();
  const updateHeapPolicy = heapPolicy();
  return (req, res) => {
    const slot = inFlight.add(res);
    updateHeapPolicy(inFlight.size);
    res.once("close", () => {
      inFlight.delete(slot);
      updateHeapPolicy(inFlight.size);
    });
    if (isDraining()) res.shouldKeepAlive = false;
    const refusal = screenRequest(req.method, req.url);
    if (refusal) return refuse(res, refusal);
    const screened = screenHeaders(req, secret);
    if (screened.hasBody) closeIfBodyUnread(req, res);
    const hot = hotHandler(hotRoutes, req);
    if (!hot) return next(toNext(req, screened), res);
    return serve(hot.handler, hot.params, toWebRequest(req, res, screened.raw), res);
  };
}

/**
 * @typedef {import("node:http").Server & { drain: () => Promise<void> }} FrontServer
 *   `drain` stops taking requests and resolves once those in flight have finished
 */

/**
 * The HTTP server of `npm start`: the front, with time limits on slow clients and the envelope
 * for requests Node's parser refuses.
 * @param {{ next: NodeHandler, hotRoutes: HotRoutes, requestTimeoutMs?: number }} options
 * @returns {FrontServer}
 */
export function createFrontServer({ requestTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS, ...front }) {
  /** @type {InFlight<import("node:http").ServerResponse>} */
  const inFlight = new InFlight();
  const server = createServer(
    {
      requestTimeout: requestTimeoutMs,
      headersTimeout: requestTimeoutMs,
      // How often Node looks for requests over their time (its default, 30 s, would double it).
      connectionsCheckingInterval: Math.max(250, Math.min(1_000, Math.floor(requestTimeoutMs / 4))),
    },
    createFront({ ...front, inFlight }),
  );
  server.on("clientError", answerClientError);
  const closed = new Promise((resolve) => server.once("close", resolve));
  const drain = async () => {
    startDraining(); // new requests get Connection: close, held long-polls answer now, /api/ready says 503
    server.close(); // no new connections; "close" once every open one has ended
    server.closeIdleConnections();
    for (const res of inFlight) {
      // Otherwise the connection would idle on after its answer, for as long as keep-alive allows.
      if (!res.headersSent) res.shouldKeepAlive = false;
      else if (isEventStream(res)) res.destroy();
      res.once("finish", () => setImmediate(() => server.closeIdleConnections()));
    }
    await closed;
  };
  return Object.assign(server, { drain });
}

/** @param {import("node:http").ServerResponse} res */
const isEventStream = (res) => String(res.getHeader("content-type") ?? "").startsWith("text/event-stream");

/**
 * @typedef {{ raw: string[], dropped: boolean, api: boolean, peer: string, hasBody: boolean }} ScreenedHeaders
 */

/**
 * What a client must not choose, taken out of its raw headers: any copy of the peer header (set
 * again from the socket) and, on /api, Next.js's internal headers. The hot routes' request is
 * built from the result; `toNext` applies the same to `req.headers`, which Node builds only when
 * read (the hot routes never need it).
 * @param {import("node:http").IncomingMessage} req
 * @param {string} secret
 * @returns {ScreenedHeaders}
 */
function screenHeaders(req, secret) {
  const api = isApiPath(/** @type {string} */ (req.url));
  const raw = req.rawHeaders;
  const kept = [];
  let dropped = false;
  let hasBody = false;
  for (let i = 0; i < raw.length; i += 2) {
    const name = /** @type {string} */ (raw[i]);
    if (name.length === PEER_HEADER.length ? name.toLowerCase() === PEER_HEADER : api && isNextInternalHeader(name)) {
      dropped = true;
      continue;
    }
    if (!hasBody && (name.length === 14 || name.length === 17) && /^(content-length|transfer-encoding)$/i.test(name)) hasBody = true;
    kept.push(name, /** @type {string} */ (raw[i + 1]));
  }
  const peer = peerHeaderValue(secret, req.socket.remoteAddress ?? "");
  kept.push(PEER_HEADER, peer);
  return { raw: kept, dropped, api, peer, hasBody };
}

/**
 * The request as Next must see it: screened like the hot routes'.
 * @param {import("node:http").IncomingMessage} req
 * @param {ScreenedHeaders} screened
 */
function toNext(req, { dropped, api, peer }) {
  if (dropped) {
    for (const name of Object.keys(req.headers)) if (name === PEER_HEADER || (api && isNextInternalHeader(name))) delete req.headers[name];
  }
  req.headers[PEER_HEADER] = peer;
  return req;
}

/**
 * An answer given before the request's body has all arrived (a 401, a 429, a refusal) closes the
 * connection: otherwise the rest of the body would be read, at the client's pace, to keep it.
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 */
function closeIfBodyUnread(req, res) {
  const writeHead = res.writeHead;
  res.writeHead = /** @type {typeof res.writeHead} */ (
    function (/** @type {any[]} */ ...args) {
      if (!req.complete) res.shouldKeepAlive = false;
      return writeHead.apply(res, /** @type {any} */ (args));
    }
  );
}

/** The pipeline's error headers, for an answer that closes the connection. */
function refusalHeaders() {
  return { ...errorHeaders(), Connection: "close" };
}

/**
 * A request refused before its body was read: the envelope, and the connection closed.
 * @param {import("node:http").ServerResponse} res
 * @param {import("../http/request-screen.mjs").Refusal} refusal
 */
function refuse(res, { status, code, message }) {
  res.writeHead(status, refusalHeaders());
  res.end(errorBody(code, message));
}

/**
 * Node's parser refused the request (headers over the size limit, not HTTP, or too slow to
 * arrive): answer 400 in the envelope, unless an answer has already begun, then close.
 * @param {Error & { code?: string }} error
 * @param {import("node:stream").Duplex} socket
 */
function answerClientError(error, socket) {
  const answering = /** @type {{ _httpMessage?: { headersSent?: boolean } }} */ (socket)._httpMessage;
  if (error.code === "ECONNRESET" || !socket.writable || answering?.headersSent) return void socket.destroy();
  const message =
    error.code === "HPE_HEADER_OVERFLOW"
      ? "The request headers are too large."
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? "The request did not arrive in time."
        : "The request is not valid HTTP.";
  const body = errorBody("invalid_request", message);
  const headers = { ...refusalHeaders(), "Content-Length": String(Buffer.byteLength(body)) };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join("");
  socket.end(`HTTP/1.1 400 ${STATUS_CODES[400]}\r\n${head}\r\n${body}`);
}

/**
 * The pipeline for this path and method, with the path's dynamic segments, if it is a hot one.
 * HEAD, and an export the route pipeline did not make, are left to Next.
 * @param {HotRoutes} routes
 * @param {import("node:http").IncomingMessage} req
 * @returns {{ handler: ReplyHandler, params: Readonly<Record<string, string>> } | undefined}
 */
function hotHandler(routes, req) {
  const target = req.url ?? "";
  if (!target.startsWith("/") || req.method === "HEAD" || !req.method) return undefined;
  const queryAt = target.indexOf("?");
  const pathname = queryAt === -1 ? target : target.slice(0, queryAt);
  const exact = routes[pathname];
  const found = exact ? { route: exact, params: NO_PARAMS } : matchDynamic(routes, pathname);
  if (!found) return undefined;
  const handler = replyHandlerOf(found.route[req.method]);
  return handler ? { handler, params: found.params } : undefined;
}

/** @type {WeakMap<HotRoutes, { pattern: RegExp, names: string[], route: RouteModule }[]>} */
const dynamicRoutes = new WeakMap();

/**
 * The route whose `[name]` segments match the path, with their values (decoded, as Next gives them).
 * @param {HotRoutes} routes
 * @param {string} pathname
 */
function matchDynamic(routes, pathname) {
  let compiled = dynamicRoutes.get(routes);
  if (!compiled) {
    compiled = Object.entries(routes)
      .filter(([path]) => path.includes("["))
      .map(([path, route]) => ({
        names: [...path.matchAll(/\[(\w+)\]/g)].map((match) => /** @type {string} */ (match[1])),
        pattern: new RegExp(`^${path.replace(/\[\w+\]/g, "([^/]+)")}$`),
        route,
      }));
    dynamicRoutes.set(routes, compiled);
  }
  for (const { pattern, names, route } of compiled) {
    const match = pattern.exec(pathname);
    if (!match) continue;
    try {
      const params = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(/** @type {string} */ (match[i + 1]))]));
      return { route, params };
    } catch {
      return undefined; // a malformed escape: Next answers it
    }
  }
  return undefined;
}

/**
 * Calls the hot route's pipeline and writes its reply.
 * @param {ReplyHandler} handler
 * @param {Readonly<Record<string, string>>} params
 * @param {Request} request
 * @param {import("node:http").ServerResponse} res
 */
async function serve(handler, params, request, res) {
  try {
    const outcome = await handler(request, params);
    if (outcome instanceof Response) await writeResponse(res, outcome);
    else writeReply(res, outcome);
  } catch (error) {
    failed(res, error);
  }
}

/**
 * A Response the pipeline made itself (a download, a stream, a preflight): its bytes, status and headers.
 * @param {import("node:http").ServerResponse} res
 * @param {Response} response
 */
async function writeResponse(res, response) {
  const body = Buffer.from(await response.arrayBuffer());
  if (res.destroyed) return;
  res.statusCode = response.status;
  for (const [name, value] of SITE_WIDE_HEADERS) res.setHeader(name, value);
  response.headers.forEach((value, name) => res.setHeader(name, value));
  res.end(body); // with its Content-Length (none on a 204)
}

/**
 * The pipeline answers every error itself; reaching here is a bug in the front.
 * @param {import("node:http").ServerResponse} res
 * @param {unknown} error
 */
function failed(res, error) {
  console.error(JSON.stringify({ level: "error", event: "front_unhandled_error", error: String(error) }));
  if (res.headersSent) return void res.destroy();
  res.writeHead(500, errorHeaders());
  res.end(errorBody(INTERNAL_ERROR.code, INTERNAL_ERROR.message));
}

/**
 * The front's adapter: the pipeline's reply in one writeHead, as the bare baseline writes its
 * own, with no Web Response in between (building the envelope into a body stream and reading it
 * back cost more than the rest of an idle poll, docs/performance.md step 13; a setHeader call per
 * header validates and stores each apart, 2 µs more).
 * @param {import("node:http").ServerResponse} res
 * @param {WireReply} reply  its header names spelt as the pipeline spells them (no two alike but for case)
 */
function writeReply(res, { status, headers, body }) {
  if (res.destroyed) return;
  /** @type {string[]} */
  const lines = [];
  for (const [name, value] of SITE_WIDE_HEADERS) if (!(name in headers)) lines.push(name, value);
  for (const name in headers) lines.push(name, /** @type {string} */ (headers[name]));
  lines.push("Content-Length", String(Buffer.byteLength(body)));
  res.writeHead(status, lines);
  res.end(body);
}

/**
 * The request as a route handler takes it (lib/runtime/front-request.mjs).
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 * @param {string[]} raw  the request's raw headers, screened
 * @returns {Request}
 */
function toWebRequest(req, res, raw) {
  const target = /** @type {string} */ (req.url);
  const signal = isLongPoll(target) ? abortedOnHangUp(res) : undefined;
  return /** @type {Request} */ (/** @type {unknown} */ (new FrontRequest(req, INTERNAL_BASE + target, raw, signal)));
}

/**
 * Whether the request target asks to be held (`wait` in its query).
 * @param {string} target
 */
const isLongPoll = (target) => {
  const queryAt = target.indexOf("?");
  if (queryAt === -1) return false;
  // Without "wait" or an escape in the query, no parameter can be named wait: skip parsing it.
  if (!target.includes("wait", queryAt) && !target.includes("%", queryAt)) return false;
  return new URLSearchParams(target.slice(queryAt + 1)).has("wait");
};

/**
 * A signal that aborts when the client goes away before its answer. Only a long-poll (`?wait=`)
 * is held long enough to need one; the other requests share one that never aborts.
 * @param {import("node:http").ServerResponse} res
 */
function abortedOnHangUp(res) {
  const gone = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) gone.abort();
  });
  return gone.signal;
}
