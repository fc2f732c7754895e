// @ts-check
// The envelope and the headers every answer carries, in plain JavaScript so that the places that
// answer requests share one copy: the route pipeline (lib/http/respond.ts, envelope.ts), proxy.ts,
// the page header rules (lib/http/page-headers.mjs), and the front of `npm start`
// (lib/server/front.mjs), which Node loads without a compiler.

/**
 * Headers on every response of the service, pages and API alike.
 * @type {ReadonlyArray<[string, string]>}
 */
export const SITE_WIDE_HEADERS = [
  ["X-Content-Type-Options", "nosniff"],
  ["Referrer-Policy", "strict-origin-when-cross-origin"],
];

/** Headers on every API answer, besides the site-wide ones. */
export const API_HEADERS = Object.freeze({ "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" });

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** The headers of an error answered outside the route pipeline (proxy.ts, the front). */
export function errorHeaders() {
  return { ...Object.fromEntries(SITE_WIDE_HEADERS), ...API_HEADERS, "Content-Type": JSON_CONTENT_TYPE, "X-Request-Id": crypto.randomUUID() };
}

/** What a failure nobody anticipated answers (500): nothing about its cause. */
export const INTERNAL_ERROR = Object.freeze({ code: "internal_error", message: "An unexpected error occurred." });

const MAX_MESSAGE_LENGTH = 256;

/**
 * @param {{ result: unknown, message: string }} reply
 * @returns {string}
 */
export function successBody(reply) {
  return JSON.stringify({ success: true, result: reply.result, message: reply.message.slice(0, MAX_MESSAGE_LENGTH) });
}

/**
 * @param {string} code
 * @param {string} message
 * @param {Record<string, unknown>} [extra]
 * @returns {string}
 */
export function errorBody(code, message, extra) {
  return JSON.stringify({
    success: false,
    result: { code, ...extra },
    message: message.slice(0, MAX_MESSAGE_LENGTH),
  });
}

// Answers handed to the front of `npm start` without a Web body. A route handler must return a
// Response, but for the front's own requests (the hot routes) building the JSON envelope into a
// body stream, and reading it back out, cost more CPU than the rest of an idle poll. So for a
// request the front built, the pipeline returns an empty Response whose status is the answer's,
// and leaves its headers and body here, where the front takes them and writes them to the socket.
// Every other caller (Next, tests) gets a complete Response. One registry per process, on
// globalThis: Next bundles a second copy of this module into the routes.

/**
 * @typedef {{ headers: Record<string, string>, body: string }} PlainAnswer
 *   `headers` in the order they are set: a later name replaces an earlier one, whatever its case
 * @typedef {{ requests: WeakSet<Request>, answers: WeakMap<Response, PlainAnswer> }} PlainAnswers
 */

const PLAIN_ANSWERS = Symbol.for("parley.front.plainAnswers");

/** @returns {PlainAnswers} */
function plainAnswers() {
  const shared = /** @type {Record<symbol, PlainAnswers | undefined>} */ (/** @type {unknown} */ (globalThis));
  return (shared[PLAIN_ANSWERS] ??= { requests: new WeakSet(), answers: new WeakMap() });
}

/**
 * Called by the front for each Request it builds: its answer may come as a plain answer.
 * @param {Request} request
 */
export function acceptsPlainAnswer(request) {
  plainAnswers().requests.add(request);
}

/**
 * The answer to `request`: a plain answer when the front built the request, else a Response with
 * these headers and body.
 * @param {Request} request
 * @param {number} status
 * @param {Record<string, string>} headers
 * @param {string} body
 * @returns {Response}
 */
export function answer(request, status, headers, body) {
  const registry = plainAnswers();
  if (!registry.requests.has(request)) {
    const webHeaders = new Headers();
    for (const name in headers) webHeaders.set(name, /** @type {string} */ (headers[name]));
    return new Response(body, { status, headers: webHeaders });
  }
  const response = new Response(null, { status });
  registry.answers.set(response, { headers, body });
  return response;
}

/**
 * The headers and body the pipeline left for the front, if `response` is a plain answer.
 * @param {Response} response
 * @returns {PlainAnswer | undefined}
 */
export function takePlainAnswer(response) {
  return plainAnswers().answers.get(response);
}
