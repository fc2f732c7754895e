// @ts-check
import { processSingleton } from "./process-registry.mjs";

// The contract between the route pipeline (lib/api/route.ts) and the two ways a reply leaves the
// process (lib/runtime/README.md). The pipeline makes a reply — status, headers, body — or, for a
// download or an event stream, a Response of its own. Next calls a route file's exports, which
// turn the reply into a Response (lib/http/respond.ts, `toResponse`); the front of `npm start`
// calls the same pipeline through `replyHandlerOf(export)` and writes the reply to the socket in
// one writeHead, with no Web Response in between (lib/runtime/front.mjs).
//
// The map from export to pipeline is one per process: the routes register in Next's copy of this
// module, the front looks up in its own.

/**
 * @typedef {{ status: number, headers: Record<string, string>, body: string }} WireReply
 *   `headers` in the order they are set: a later name replaces an earlier one, whatever its case
 * @typedef {Record<string, string | string[] | undefined>} RouteParams  a route's dynamic segments
 * @typedef {(request: Request, params: RouteParams) => Promise<WireReply | Response>} ReplyHandler
 *   the pipeline of one route and method
 * @typedef {(request: Request, context: { params?: Promise<RouteParams> }) => Promise<Response>} RouteHandler
 *   a route file's export for one method, as Next calls it
 * @typedef {Record<string, unknown>} RouteModule  a route file's exports: handlers by method, and segment config such as maxDuration
 * @typedef {Record<string, RouteModule>} HotRoutes  route modules by pathname, as in app/: a `[name]` segment matches any one segment
 */

/** @type {WeakMap<Function, ReplyHandler>} */
const replyHandlers = processSingleton("reply handlers", () => new WeakMap());

/**
 * Records the pipeline behind a route handler (lib/api/route.ts, for every handler it makes).
 * @param {RouteHandler} handler
 * @param {ReplyHandler} replyHandler
 */
export function registerReplyHandler(handler, replyHandler) {
  replyHandlers.set(handler, replyHandler);
}

/**
 * The pipeline behind a route file's export, if the route pipeline made it.
 * @param {unknown} handler
 * @returns {ReplyHandler | undefined}
 */
export function replyHandlerOf(handler) {
  return typeof handler === "function" ? replyHandlers.get(handler) : undefined;
}
