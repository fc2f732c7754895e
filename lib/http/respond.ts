import { isDatabaseUnavailable } from "../db/errors";
import { log } from "../core/log";
import { errorBody, successBody, type Reply } from "./envelope";
import { API_HEADERS, INTERNAL_ERROR, JSON_CONTENT_TYPE } from "./wire.mjs";
import type { WireReply } from "../core/reply-handlers.mjs";
import { AppError, capFields, ClientAbortError } from "../core/errors";

/** One request's state as it moves through the pipeline. */
export interface Exchange {
  request: Request;
  requestId: string;
  /** Set once the Origin is known to be allowed: then every response, errors included, carries CORS. */
  allowOrigin: string | null;
}

const RETRY_AFTER_UNAVAILABLE_SECONDS = 5;
export const CORS_ALLOWED_HEADERS = "Authorization, Content-Type, Idempotency-Key";
const CORS_EXPOSED_HEADERS = "Retry-After, X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset";

/** The headers of every answer of the pipeline, in the order they are set. */
function baseHeaderRecord(exchange: Exchange): Record<string, string> {
  const headers: Record<string, string> = { ...API_HEADERS, Vary: "Origin", "X-Request-Id": exchange.requestId };
  if (exchange.allowOrigin) {
    headers["Access-Control-Allow-Origin"] = exchange.allowOrigin;
    headers["Access-Control-Expose-Headers"] = CORS_EXPOSED_HEADERS;
  }
  return headers;
}

export const baseHeaders = (exchange: Exchange): Headers => new Headers(baseHeaderRecord(exchange));

/** A Response a handler made (a download, a stream), with the pipeline's headers it did not set: CORS, the request id. */
export function withPipelineHeaders(exchange: Exchange, response: Response): Response {
  for (const [name, value] of Object.entries(baseHeaderRecord(exchange))) {
    if (!response.headers.has(name)) response.headers.set(name, value);
  }
  return response;
}

function json(exchange: Exchange, status: number, body: string, extra?: Record<string, string>): WireReply {
  // Spread, not assigned: a name in `extra` replaces its base header (toResponse: whatever its case).
  return { status, headers: { ...baseHeaderRecord(exchange), "Content-Type": JSON_CONTENT_TYPE, ...extra }, body };
}

/** A handler's reply in the envelope, with the pipeline's headers. */
export function successReply(exchange: Exchange, reply: Reply): WireReply {
  return json(exchange, reply.status, successBody(reply), reply.headers);
}

/**
 * The reply as a Web Response, for Next (and Vercel, and tests): the adapter of every route
 * handler (lib/api/route.ts). The front of `npm start` writes the reply itself
 * (lib/runtime/README.md). A Response the pipeline made (a download, a stream) is passed as is.
 */
export function toResponse(outcome: WireReply | Response): Response {
  if (outcome instanceof Response) return outcome;
  const headers = new Headers();
  for (const name in outcome.headers) headers.set(name, outcome.headers[name]!); // in order: a later name wins, in any case
  return new Response(outcome.body, { status: outcome.status, headers });
}

/** The envelope of a known error: its code, message and field problems. */
export const appErrorBody = (error: AppError) =>
  errorBody(error.code, error.message, error.options.fields ? fieldsExtra(error.options.fields) : undefined);

/** The one place a throw becomes a reply: known errors keep their code, the rest say nothing. */
export function errorReply(exchange: Exchange, error: unknown): WireReply {
  // A client that hung up mid-body: whatever the failure looks like (a socket error reads like a
  // lost database), it is the client's doing. Logged once, without a stack; the answer, if anyone
  // still reads it, is a 400.
  if (error instanceof ClientAbortError || (exchange.request.signal.aborted && !(error instanceof AppError))) {
    log.info("client_aborted", { requestId: exchange.requestId, method: exchange.request.method, path: new URL(exchange.request.url).pathname });
    const abort = error instanceof ClientAbortError ? error : new ClientAbortError();
    return json(exchange, abort.status, errorBody(abort.code, abort.message));
  }
  if (error instanceof AppError) {
    const { retryAfter, headers } = error.options;
    const extraHeaders = { ...headers, ...(retryAfter !== undefined ? { "Retry-After": String(retryAfter) } : {}) };
    return json(exchange, error.status, appErrorBody(error), extraHeaders);
  }
  if (isDatabaseUnavailable(error)) {
    log.warn("database_unavailable", { requestId: exchange.requestId, error });
    return json(
      exchange,
      503,
      errorBody("service_unavailable", "The service is temporarily unavailable. Please retry shortly."),
      { "Retry-After": String(RETRY_AFTER_UNAVAILABLE_SECONDS) },
    );
  }
  log.error("unhandled_error", { requestId: exchange.requestId, method: exchange.request.method, error });
  return json(exchange, 500, errorBody(INTERNAL_ERROR.code, INTERNAL_ERROR.message));
}

/** `fields` capped (MAX_FIELD_PROBLEMS), with `fields_omitted` when some were left out. */
function fieldsExtra(all: NonNullable<AppError["options"]["fields"]>): Record<string, unknown> {
  const { fields, omitted } = capFields(all);
  return omitted > 0 ? { fields, fields_omitted: omitted } : { fields };
}
