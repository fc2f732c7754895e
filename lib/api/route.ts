import { randomUUID } from "node:crypto";
import type { z } from "zod";
import { verifyAdminToken } from "../admin/admin-token";
import { findSite, isOriginOnAnyAllowlist, originNotAllowed, siteAllowsOrigin, type WidgetSite } from "../sites/find-site";
import { isCanonicalOrigin } from "../core/origins/origin";
import { enforceRateLimit, type RateLimitHeaders } from "../rate-limits/enforce-rate-limit";
import type { RateLimitName } from "../rate-limits/limits";
import { authenticateVisitor, visitorOriginError, type VisitorSession } from "../tokens/visitor-token";
import { assertCronSecret } from "./cron-auth";
import { assertInboundSecret } from "./inbound-auth";
import { deliverAfterResponse } from "./delivery-after-response";
import { assertSameOrigin, requireStaff } from "./inbox-auth";
import { auditChange, type AuditSpec } from "./audit-change";
import { recordInboxActivity, sessionCookie, type StaffRole, type StaffSession } from "../staff/sessions";
import { assertUploadUnexpired, authorizeUpload, uploadOrigins, type UploadGrant } from "../uploads/authorize-upload";
import type { Reply } from "../http/envelope";
import { AppError } from "../core/errors";
import { assertMaySee, type Scope } from "../teams/access";
import { serviceOrigin } from "../core/env";
import { requestOrigin } from "../http/request-origin";
import { discardBody, parsePathId, parseWith, readJsonBody, readQuery } from "../http/input";
import { baseHeaders, CORS_ALLOWED_HEADERS, errorReply, successReply, toResponse, withPipelineHeaders, type Exchange } from "../http/respond";
import { registerReplyHandler, type ReplyHandler, type RouteParams, type WireReply } from "../core/reply-handlers.mjs";

// The one request pipeline. Every route handler is `family route → parse → authorize → service
// → envelope`; the families below own the order of checks from decisions.md, CORS, body and
// query parsing, and the single try/catch. The pipeline makes a reply (status, headers, body);
// what a family returns is the handler Next calls, which turns the reply into a Response, and
// the front of `npm start` calls the pipeline itself (lib/runtime/README.md).

export type RouteHandler = (request: Request, context: { params?: Promise<RouteParams> }) => Promise<Response>;

interface InputSpec<Body, Query> {
  body?: z.ZodType<Body>;
  query?: z.ZodType<Query>;
}

interface LimitedInputSpec<Body, Query> extends InputSpec<Body, Query> {
  /** The rate limit this route counts against (widget routes default to "starts", visitor routes to "visitor"). */
  rateLimit?: RateLimitName;
}

interface ParsedInput<Body, Query> {
  request: Request;
  params: Record<string, string>;
  body: Body;
  query: Query;
}

export interface WidgetContext<Body, Query> extends ParsedInput<Body, Query> {
  site: WidgetSite;
  origin: string;
}

export interface VisitorContext<Body, Query> extends ParsedInput<Body, Query> {
  visitor: VisitorSession;
}

export type AdminContext<Body, Query> = ParsedInput<Body, Query>;

interface AdminSpec<Body, Query> extends InputSpec<Body, Query> {
  /** A state change: the audit row its success appends (lib/api/audit-change.ts). */
  audit?: AuditSpec<AdminContext<Body, Query>>;
  /** A limit counted for the operator token, as one account (none by default). */
  rateLimit?: RateLimitName;
}

/** What a route's limit counts the operator token as: one account, never a member (whose ids have no `:`). */
const OPERATOR_SUBJECT = ":operator";

/** A reply with the limit's X-RateLimit-* headers; a Response (a stream) is left as it is. */
const withLimitHeaders = (outcome: Reply | Response, headers: RateLimitHeaders) => (outcome instanceof Response ? outcome : withHeaders(outcome, headers));

interface InboxSpec<Body, Query> extends InputSpec<Body, Query> {
  /** The lowest role allowed (default `agent`); `public` needs no session. */
  role?: StaffRole | "public";
  /** A limit counted per signed-in member (none by default). */
  rateLimit?: RateLimitName;
  /** A state change: the audit row its success appends (lib/api/audit-change.ts). */
  audit?: AuditSpec<InboxContext<Body, Query>>;
  /** What the path's `id` names: hidden from the member by their teams, it answers 404 (docs/teams.md). */
  sees?: Scope;
}

export interface InboxContext<Body, Query> extends ParsedInput<Body, Query> {
  /** The signed-in member's session (absent on `public` routes). */
  staff: StaffSession;
}

export interface UploadContext {
  request: Request;
  grant: UploadGrant;
}

/** What a handler validates, recorded for the API document (lib/openapi) and its tests. */
export interface RouteContract {
  family: Family;
  body?: z.ZodType;
  query?: z.ZodType;
  /** An inbox route about one conversation, ticket or file: the visibility check it runs. */
  sees?: Scope;
  /** An inbox route's lowest role. */
  role?: StaffRole | "public";
}

const contracts = new WeakMap<RouteHandler, RouteContract>();

/**
 * The route handler of a pipeline: Next's adapter (the reply as a Response), with the pipeline
 * registered for the front (registerReplyHandler) and the contract for the API document.
 */
function route(contract: RouteContract | null, pipeline: ReplyHandler): RouteHandler {
  const handler: RouteHandler = async (request, context) => {
    const reply = await pipeline(request, (await context.params) ?? {});
    deliverAfterResponse(request.method, reply.status);
    return toResponse(reply);
  };
  if (contract) contracts.set(handler, contract);
  registerReplyHandler(handler, pipeline);
  return handler;
}

/** The contract of a route file's export; undefined for the 404 answer of an unsupported method. */
export const contractOf = (handler: unknown): RouteContract | undefined =>
  typeof handler === "function" ? contracts.get(handler as RouteHandler) : undefined;

/** The single try/catch: the handler's reply in the envelope, or what it threw as one. */
async function run(request: Request, work: (exchange: Exchange) => Promise<Reply | Response>): Promise<WireReply | Response> {
  const exchange: Exchange = { request, requestId: randomUUID(), allowOrigin: null };
  try {
    const outcome = await work(exchange);
    // Downloads and event streams answer with their own body; errors before them are envelopes.
    return outcome instanceof Response ? withPipelineHeaders(exchange, outcome) : successReply(exchange, outcome);
  } catch (error) {
    return errorReply(exchange, error);
  }
}

const withHeaders = (reply: Reply, headers: RateLimitHeaders): Reply => ({ ...reply, headers: { ...headers, ...reply.headers } });

/** The route's path ids (its dynamic segments), each checked. */
const pathIds = (raw: RouteParams): Record<string, string> =>
  Object.fromEntries(Object.entries(raw).map(([name, value]) => [name, parsePathId(value, name)]));

/** The query string of a request's URL, without parsing the rest of it again. */
function searchParams(request: Request): URLSearchParams {
  const url = request.url;
  const queryAt = url.indexOf("?");
  if (queryAt === -1) return new URLSearchParams();
  const hashAt = url.indexOf("#", queryAt);
  return new URLSearchParams(url.slice(queryAt + 1, hashAt === -1 ? undefined : hashAt));
}

async function parseInput<Body, Query>(
  request: Request,
  params: Record<string, string>,
  spec: InputSpec<Body, Query>,
): Promise<ParsedInput<Body, Query>> {
  const query = spec.query ? parseWith(spec.query, readQuery(searchParams(request)), "query") : undefined;
  const body = spec.body ? parseWith(spec.body, await readJsonBody(request), "body") : undefined;
  return { request, params, body: body as Body, query: query as Query };
}

async function allowedSite(siteID: string | undefined, origin: string | null): Promise<WidgetSite & { origin: string }> {
  const site = await findSite(parsePathId(siteID, "siteID"));
  if (!site) throw new AppError("site_not_found", "No site has this identifier.");
  if (!siteAllowsOrigin(site, origin)) throw originNotAllowed();
  return { ...site, origin };
}

/** Widget routes: site exists (404) → Origin on its allowlist (403) → rate limit per IP (429) → input → handler. */
export function widgetRoute<Body = undefined, Query = undefined>(
  spec: LimitedInputSpec<Body, Query>,
  handler: (context: WidgetContext<Body, Query>) => Promise<Reply>,
): RouteHandler {
  return route({ family: "widget", body: spec.body, query: spec.query }, (request, rawParams) =>
    run(request, async (exchange) => {
      const params = pathIds(rawParams);
      const { origin, ...site } = await allowedSite(params.siteID, requestOrigin(request));
      exchange.allowOrigin = origin;
      const limitHeaders = await enforceRateLimit(spec.rateLimit ?? "starts", request);
      return withHeaders(await handler({ ...(await parseInput(request, params, spec)), site, origin }), limitHeaders);
    }),
  );
}

/**
 * Visitor routes: token (401) → Origin is the token's (403) → still allowlisted (403) → rate limit
 * per token (429) → input → handler.
 */
export function visitorRoute<Body = undefined, Query = undefined>(
  spec: LimitedInputSpec<Body, Query>,
  handler: (context: VisitorContext<Body, Query>) => Reply | Response | Promise<Reply | Response>,
): RouteHandler {
  return route({ family: "visitor", body: spec.body, query: spec.query }, (request, params) =>
    run(request, async (exchange) => {
      const origin = requestOrigin(request);
      let visitor: VisitorSession;
      try {
        visitor = await authenticateVisitor(request.headers.get("authorization"));
      } catch (error) {
        await letPageReadRefusal(exchange, origin, error);
        throw error;
      }
      const originError = visitorOriginError(visitor, origin);
      // A token used from another allowlisted site: that page may read the refusal.
      if (siteAllowsOrigin(visitor.site, origin)) exchange.allowOrigin = origin;
      if (originError) throw originError;
      // Keyed by the conversation, so renewing (which rotates the token) does not reset the count.
      const limitHeaders = await enforceRateLimit(spec.rateLimit ?? "visitor", request, visitor.conversation.id);
      const input = await parseInput(request, pathIds(params), spec);
      const outcome = await handler({ ...input, visitor });
      return withLimitHeaders(outcome, limitHeaders);
    }),
  );
}

/** A 401 may be read by the widget (to start afresh) when its page's Origin is on some allowlist. */
async function letPageReadRefusal(exchange: Exchange, origin: string | null, error: unknown): Promise<void> {
  if (error instanceof AppError && isCanonicalOrigin(origin) && (await isOriginOnAnyAllowlist(origin))) {
    exchange.allowOrigin = origin;
  }
}

/** Operator routes: `Authorization: Bearer <ADMIN_TOKEN>` (401) → input → handler. No CORS. */
export function adminRoute<Body = undefined, Query = undefined>(
  spec: AdminSpec<Body, Query>,
  handler: (context: AdminContext<Body, Query>) => Promise<Reply | Response>,
): RouteHandler {
  return route({ family: "admin", body: spec.body, query: spec.query }, (request, params) =>
    run(request, async () => {
      if (!(await verifyAdminToken(request.headers.get("authorization")))) {
        throw new AppError("unauthorized", "A valid operator token is required.");
      }
      const context = await parseInput(request, pathIds(params), spec);
      const limitHeaders = spec.rateLimit ? await enforceRateLimit(spec.rateLimit, request, OPERATOR_SUBJECT) : {};
      const outcome = await handler(context);
      if (spec.audit) await auditChange(spec.audit, "operator", context, outcome);
      return withLimitHeaders(outcome, limitHeaders);
    }),
  );
}

/**
 * Upload routes: signed URL (403) → an Origin, when sent, on the ticket's site allowlist (403) →
 * expiry (403) → handler, which reads the raw body itself.
 */
export function uploadRoute(handler: (context: UploadContext) => Promise<Reply>): RouteHandler {
  return route({ family: "upload" }, (request, params) =>
    run(request, async (exchange) => {
      const { attachmentId } = pathIds(params);
      const grant = await authorizeUpload(parsePathId(attachmentId, "attachmentId"), searchParams(request));
      // The signature is the credential; an Origin matters only to let a browser page read the answer.
      // The inbox's own pages (staff files in chat) upload same-origin: no CORS to grant.
      const origin = request.headers.get("origin");
      if (origin !== null && origin !== serviceOrigin()) {
        if (!siteAllowsOrigin({ origins: grant.siteOrigins }, origin)) throw originNotAllowed();
        exchange.allowOrigin = origin;
      }
      assertUploadUnexpired(grant);
      return handler({ request, grant });
    }),
  );
}

/** Cron routes (Vercel Cron): `Authorization: Bearer <CRON_SECRET>` (401, always while it is unset) → handler. No CORS. */
export function cronRoute(handler: () => Promise<Reply>): RouteHandler {
  return route({ family: "cron" }, (request) =>
    run(request, async () => {
      assertCronSecret(request.headers.get("authorization"));
      return handler();
    }),
  );
}

/** Inbound routes (providers forwarding email): `Authorization: Bearer <INBOUND_EMAIL_SECRET>` (401) → handler, which reads the raw body. No CORS. */
/**
 * Inbound email over HTTP: the bearer secret, then the handler, which reads the raw body (at most
 * `maxBodyBytes`). A refusal before the body has all arrived reads the rest and drops it, up to
 * `discardUpTo` bytes, so the provider reads the envelope rather than a connection reset.
 */
export function inboundRoute(
  spec: { discardUpTo: number },
  handler: (context: { request: Request }) => Promise<Reply>,
): RouteHandler {
  return route({ family: "inbound" }, (request) =>
    run(request, async () => {
      try {
        assertInboundSecret(request.headers.get("authorization"));
      } catch (error) {
        await discardBody(request, spec.discardUpTo);
        throw error;
      }
      return handler({ request });
    }),
  );
}

/** Probe routes (health, readiness): no credentials, no CORS, nothing but the envelope. */
export function probeRoute(handler: () => Promise<Reply>): RouteHandler {
  return route({ family: "probe" }, (request) => run(request, handler));
}

/**
 * Inbox routes (staff, same origin, no CORS): session cookie (401) → role (403 forbidden) →
 * for state changes an Origin equal to the service's (403 origin_not_allowed) → input → handler.
 * `role: "public"` skips the session (sign-in, accepting an invite) but not the Origin check.
 */
export function inboxRoute<Body = undefined, Query = undefined>(
  spec: InboxSpec<Body, Query>,
  handler: (context: InboxContext<Body, Query>) => Promise<Reply | Response>,
): RouteHandler {
  return route({ family: "inbox", body: spec.body, query: spec.query, sees: spec.sees, role: spec.role ?? "agent" }, (request, params) =>
    run(request, async () => {
      const staff = spec.role === "public" ? null : await requireStaff(request, spec.role ?? "agent");
      assertSameOrigin(request);
      const input = await parseInput(request, pathIds(params), spec);
      // After the input, where a service finds an unknown id: hidden and unknown answer alike in place.
      if (spec.sees && staff) await assertMaySee(staff.member, spec.sees, input.params.id!);
      if (staff) recordInboxActivity(staff.member.id).catch(() => {});
      const limitHeaders = spec.rateLimit && staff ? await enforceRateLimit(spec.rateLimit, request, staff.member.id) : {};
      const context = { ...input, staff: staff as StaffSession };
      const outcome = withLimitHeaders(await handler(context), limitHeaders);
      if (spec.audit) await auditChange(spec.audit, staff ? `member:${staff.member.id}` : "anonymous", context, outcome);
      if (!staff?.renewedToken) return outcome;
      if (outcome instanceof Response) {
        outcome.headers.set("Set-Cookie", sessionCookie(staff.renewedToken)); // the live channel slides the cookie too
        return outcome;
      }
      if (outcome.headers?.["Set-Cookie"]) return outcome;
      return { ...outcome, headers: { ...outcome.headers, "Set-Cookie": sessionCookie(staff.renewedToken) } };
    }),
  );
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];
type Family = "widget" | "visitor" | "admin" | "upload" | "inbox" | "cron" | "probe" | "inbound";
export type RouteExports = Record<Method | "OPTIONS", RouteHandler>;

/**
 * A route file's exports: its handlers, a 404 envelope for every other method (never Next's bare
 * 405, which is not a status this API answers with), and the family's CORS preflight.
 */
export function defineRoute(family: Family, handlers: Partial<Record<Method, RouteHandler>>): RouteExports {
  const allowed = [...Object.keys(handlers), "OPTIONS"].join(", ");
  const unsupported = route(null, (request) =>
    run(request, async () => {
      throw new AppError("not_found", `${request.method} is not supported on this route.`);
    }),
  );
  const exports = Object.fromEntries(METHODS.map((method) => [method, handlers[method] ?? unsupported]));
  return { ...exports, OPTIONS: preflight(family, allowed) } as RouteExports;
}

function preflight(family: Family, allowedMethods: string): RouteHandler {
  return route(null, async (request, params) => {
    const exchange: Exchange = { request, requestId: randomUUID(), allowOrigin: null };
    try {
      const origin = request.headers.get("origin");
      if (family === "widget") {
        exchange.allowOrigin = (await allowedSite(pathIds(params).siteID, origin)).origin;
      } else if (family === "upload") {
        const origins = await uploadOrigins(parsePathId(pathIds(params).attachmentId, "attachmentId"));
        if (!origins) throw new AppError("not_found", "No such upload.");
        if (!siteAllowsOrigin({ origins }, origin)) throw originNotAllowed();
        exchange.allowOrigin = origin;
      } else if (family === "visitor") {
        // The site is unknown until the token is read; the real request is checked in full.
        if (!isCanonicalOrigin(origin)) throw originNotAllowed();
        exchange.allowOrigin = origin;
      }
      const headers = baseHeaders(exchange);
      headers.set("Allow", allowedMethods);
      if (exchange.allowOrigin) {
        headers.set("Access-Control-Allow-Methods", allowedMethods);
        headers.set("Access-Control-Allow-Headers", CORS_ALLOWED_HEADERS);
        headers.set("Access-Control-Max-Age", "600");
      }
      return new Response(null, { status: 204, headers });
    } catch (error) {
      return errorReply(exchange, error);
    }
  });
}
