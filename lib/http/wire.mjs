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
