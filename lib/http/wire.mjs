// @ts-check
// The envelope and the headers every answer carries, in plain JavaScript so that the places that
// answer requests share one copy: the route pipeline (lib/http/respond.ts, envelope.ts), proxy.ts,
// the page header rules (lib/http/page-headers.mjs), and the front of `npm start`
// (lib/runtime/front.mjs), which Node loads without a compiler.

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
// request the front built, the pipeline leaves the answer's status, headers and body on the
// request itself and returns one shared placeholder Response; the front, which holds the request,
// takes them from there and writes them to the socket. Every other caller (Next, tests) gets a
// complete Response. The marks are symbols from the global registry, and the placeholder lives on
// globalThis: Next bundles a second copy of this module into the routes.

/**
 * @typedef {{ status: number, headers: Record<string, string>, body: string }} PlainAnswer
 *   `headers` in the order they are set: a later name replaces an earlier one, whatever its case
 */

const ACCEPTS_PLAIN_ANSWER = Symbol.for("parley.front.acceptsPlainAnswer");
const PLAIN_ANSWER = Symbol.for("parley.front.plainAnswer");
const PLACEHOLDER = Symbol.for("parley.front.placeholderResponse");

/** The Response the pipeline returns for every plain answer (its status means nothing). */
function placeholder() {
  const shared = /** @type {Record<symbol, Response | undefined>} */ (/** @type {unknown} */ (globalThis));
  return (shared[PLACEHOLDER] ??= new Response(null, { status: 204 }));
}

/**
 * Called by the front for each request it builds: its answer may come as a plain answer.
 * @param {object} request
 */
export function acceptsPlainAnswer(request) {
  /** @type {Record<symbol, unknown>} */ (request)[ACCEPTS_PLAIN_ANSWER] = true;
}

/**
 * The answer to `request`: a plain answer left on the request when the front built it, else a
 * Response with these headers and body.
 * @param {Request} request
 * @param {number} status
 * @param {Record<string, string>} headers
 * @param {string} body
 * @returns {Response}
 */
export function answer(request, status, headers, body) {
  const marks = /** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (request));
  if (marks[ACCEPTS_PLAIN_ANSWER] !== true) {
    const webHeaders = new Headers();
    for (const name in headers) webHeaders.set(name, /** @type {string} */ (headers[name]));
    return new Response(body, { status, headers: webHeaders });
  }
  marks[PLAIN_ANSWER] = /** @type {PlainAnswer} */ ({ status, headers, body });
  return placeholder();
}

/**
 * The status, headers and body the pipeline left on `request`, if `response` is the placeholder
 * of a plain answer.
 * @param {object} request
 * @param {Response} response  what the handler returned
 * @returns {PlainAnswer | undefined}
 */
export function takePlainAnswer(request, response) {
  if (response !== placeholder()) return undefined;
  return /** @type {PlainAnswer | undefined} */ (/** @type {Record<symbol, unknown>} */ (request)[PLAIN_ANSWER]);
}

// A hot route's path parameters as the front hands them: a promise, as Next's `params` is, that
// also carries its values, so the pipeline reads them without waiting a turn of the event loop.
const KNOWN_PARAMS = Symbol.for("parley.front.knownParams");

/**
 * @param {Record<string, string>} values
 * @returns {Promise<Record<string, string>>}
 */
export function frontParams(values) {
  const params = Promise.resolve(values);
  /** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (params))[KNOWN_PARAMS] = values;
  return params;
}

/**
 * The values of `params` when the front made it (frontParams), else undefined: Next's, to await.
 * @param {unknown} params
 * @returns {Record<string, string> | undefined}
 */
export function knownParams(params) {
  return params ? /** @type {Record<symbol, Record<string, string> | undefined>} */ (params)[KNOWN_PARAMS] : undefined;
}
