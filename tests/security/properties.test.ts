import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { OUTBOX_FILTERS } from "../../lib/contracts/outbox";
import type { ApiResponse } from "../support/api";
import { TEST_ADMIN_TOKEN } from "../support/database-per-file";
import { ORIGIN, OTHER_ORIGIN, startConversation } from "../support/fixtures";
import { buildWorld, THIRD_ORIGIN, type World } from "../support/hostile-world";
import { INBOX_ORIGIN } from "../support/inbox";
import {
  anyJson,
  bodyFrom,
  clientId,
  oneLineText,
  contentTypeArb,
  displayName,
  fileName,
  email,
  extraHeadersArb,
  fieldValue,
  headerValue,
  httpUrl,
  isObject,
  keysetCursor,
  jsonContentType,
  onlyKeys,
  originFrom,
  queryFrom,
  queryInteger,
  queryVerdict,
  requiredText,
  sendProbe,
  shapedObject,
  singleLine,
  verdictOf,
  weirdString,
  wireJson,
  type Body,
  type Probe,
  type Verdict,
} from "../support/probes";
import { exceptActivity, exceptSeen, stateSnapshot, type StateSnapshot } from "../support/state-snapshot";
import { PNG_BYTES } from "../support/tickets";

// Property-based: arbitrary bodies, query strings and headers against every endpoint. For every
// request: never a 5xx, only the statuses decisions.md lists, always the envelope; a refusal
// changes nothing at all; a success only for a request the oracle (probes.ts, written from the
// decisions, not from the service's schemas) does not call invalid; and every request it calls
// valid succeeds. PROPERTY_RUNS (default 50 per endpoint) and FC_SEED reproduce or deepen a run.

const RUNS = Number(process.env.PROPERTY_RUNS ?? 50);
const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined;
const STATUSES = new Set([200, 201, 204, 400, 401, 403, 404, 409, 429]);
const LOOK_ALIKES = [`${ORIGIN}/`, "https://SHOP.example", "http://shop.example", `${ORIGIN}:444`, "https://shop.example.evil.com", "null", THIRD_ORIGIN];

const when = (condition: boolean): Verdict => (condition ? "valid" : "invalid");

let w: World;
/** Visitor tokens as they are now: renew rotates them during the run. */
const current = { a: "", b: "" };
/** The conversation the inbox's replies go to (its own, so its client_ids meet no visitor's). */
let staffThread = "";
const figures: Record<string, { runs: number; accepted: number; refused: number }> = {};

beforeAll(async () => {
  w = await buildWorld();
  current.a = w.a.token;
  current.b = w.b.token;
  staffThread = (await startConversation(w.siteId, { body: "For the inbox's replies" })).conversationId;
});

afterAll(() => {
  const total = Object.values(figures).reduce((sum, figure) => sum + figure.runs, 0);
  process.stdout.write(`property runs: ${total} ${JSON.stringify(figures)}\n`);
});

interface Endpoint<P extends Probe<unknown>> {
  probe: fc.Arbitrary<P>;
  send: (probe: P) => Promise<ApiResponse>;
  verdict: (probe: P) => Verdict;
  /** Called after a 2xx, to keep the oracle's picture of the world current. */
  accepted?: (probe: P, response: ApiResponse) => void;
  /** A read: even a success changes nothing (`except-seen`: nothing but the conversation's "seen"). */
  readOnly?: boolean | "except-seen";
  /** An inbox route: a member's "active in the inbox" time and the session's sliding expiry are not compared. */
  inbox?: true;
}

async function check<P extends Probe<unknown>>(name: string, endpoint: Endpoint<P>): Promise<void> {
  const figure = (figures[name] = { runs: 0, accepted: 0, refused: 0 });
  await fc.assert(
    fc.asyncProperty(endpoint.probe, async (probe) => {
      const verdict = endpoint.verdict(probe);
      const state = async (): Promise<StateSnapshot> => (endpoint.inbox ? exceptActivity(await stateSnapshot()) : stateSnapshot());
      const before = await state();
      const response = await endpoint.send(probe);
      figure.runs += 1;
      expect(STATUSES.has(response.status), `status ${response.status}`).toBe(true);
      expect(response.headers.get("cache-control")).toBe("no-store");
      if (response.status === 204) return;
      expect(typeof response.json.success).toBe("boolean");
      expect(response.json.message.length).toBeLessThanOrEqual(256);
      if (response.status >= 400) {
        figure.refused += 1;
        if (process.env.DEBUG_PROBES) process.stdout.write(`${name} ${response.status} ${response.json.result?.code} ${response.json.message} ${JSON.stringify(probe).slice(0, 300)}\n`);
        expect(response.json.success).toBe(false);
        expect(verdict, `refused (${response.status} ${response.json.result?.code}) a request the oracle calls valid`).not.toBe("valid");
        expect(await state()).toEqual(before);
        return;
      }
      figure.accepted += 1;
      expect(verdict, "accepted a request the oracle calls invalid").not.toBe("invalid");
      if (endpoint.readOnly === "except-seen") expect(exceptSeen(await state())).toEqual(exceptSeen(before));
      else if (endpoint.readOnly) expect(await state()).toEqual(before);
      endpoint.accepted?.(probe, response);
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  );
}

// --- Widget routes ----------------------------------------------------------------------------

const widgetProbe = (fields: Record<string, fc.Arbitrary<unknown>>, extra: Partial<Record<keyof Probe, fc.Arbitrary<unknown>>> = {}, required: string[] = []) =>
  fc.record({
    origin: originFrom(ORIGIN, [OTHER_ORIGIN, ...LOOK_ALIKES]),
    auth: fc.constant(undefined),
    contentType: contentTypeArb,
    extraHeaders: extraHeadersArb,
    query: queryFrom({ site: fc.constant("other") }, fc.string({ maxLength: 8 })),
    body: bodyFrom(shapedObject(fields, required)),
    ...extra,
  }) as fc.Arbitrary<Probe>;

/** Origin and body checks common to widget routes; `body` judges the parsed JSON. */
function widgetVerdict(probe: Probe, allowed: string[], body: (value: Record<string, unknown>) => Verdict): Verdict {
  if (probe.origin === undefined || !allowed.includes(probe.origin)) return "invalid";
  const wire = wireJson(probe);
  if (!wire.parsed || !isObject(wire.value) || probe.body.kind === "none") return verdictOf(jsonContentType(probe.contentType), "invalid");
  return verdictOf(jsonContentType(probe.contentType), body(wire.value));
}

const present = (value: Record<string, unknown>, key: string, judge: (field: unknown) => Verdict): Verdict =>
  key in value ? judge(value[key]) : "valid";

const plainEmail = fc.oneof({ weight: 4, arbitrary: fc.constantFrom("ada@example.com", "bob.smith+tag@shop.example", " ada@example.com ") }, { weight: 1, arbitrary: fc.emailAddress() });

const PRIORITIES = ["low", "normal", "high", "urgent"];
// The spec's list of file types, in full.
const FILE_TYPES = [
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "application/pdf",
  "text/plain",
  "text/csv",
  "application/zip",
  "application/msword",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
];
const fileDescriptor = shapedObject({
  name: fieldValue(fc.constantFrom("photo.png", "invoice.pdf", "notes.txt", "cafe\u0301.pdf", "invoice\u202Efdp.txt", "report\u2066.pdf"), 255),
  content_type: fieldValue(fc.constantFrom(...FILE_TYPES, "image/svg+xml", "text/html")),
  bytes: fieldValue(fc.oneof(fc.integer({ min: 0, max: 10 * 1024 * 1024 }), fc.constantFrom(-1, 10 * 1024 * 1024 + 1, 1.5, 1e21))),
}, ["name", "content_type", "bytes"]);
const filesArb = fc.oneof({ weight: 5, arbitrary: fc.array(fileDescriptor, { maxLength: 3 }) }, { weight: 1, arbitrary: fc.array(fileDescriptor, { minLength: 10, maxLength: 12 }) });

function fileVerdict(file: unknown): Verdict {
  if (!isObject(file) || !onlyKeys(file, ["name", "content_type", "bytes"])) return "invalid";
  if (!("name" in file && "content_type" in file && "bytes" in file)) return "invalid";
  const bytes = file.bytes;
  return verdictOf(
    fileName(file.name, 255),
    when(typeof file.content_type === "string" && FILE_TYPES.includes(file.content_type)),
    typeof bytes === "number" && Number.isInteger(bytes) && bytes >= 0 && bytes <= 10 * 1024 * 1024 ? "valid" : "invalid",
  );
}

const usedKeys = new Set<string>();
const idempotencyKeyArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.constant("fresh") },
  { weight: 1, arbitrary: fc.constantFrom("k".repeat(101), "caf\u00e9", "a b") },
);

describe("arbitrary requests never yield 5xx, and change state only when valid", () => {
  test("POST /widget/{siteID}/conversations", async () => {
    await check("start", {
      probe: widgetProbe({
        body: fieldValue(fc.constantFrom("Hello!", "  Where is my order?  ", "\u{1F600}"), 4000),
        client_id: fieldValue(fc.uuid(), 100),
        name: fieldValue(fc.constantFrom("Ada", "Zoë Müller", "李雷"), 80),
        email: fieldValue(plainEmail, 254),
      }),
      send: (probe) => sendProbe("POST", `/api/v1/chat/widget/${w.siteId}/conversations`, probe),
      verdict: (probe) =>
        widgetVerdict(probe, [ORIGIN, OTHER_ORIGIN], (body) =>
          verdictOf(
            onlyKeys(body, ["body", "client_id", "name", "email"]) ? "valid" : "invalid",
            present(body, "body", (v) => requiredText(v, 4000)),
            present(body, "client_id", (v) => clientId(v)),
            present(body, "name", (v) => displayName(v, 80)),
            present(body, "email", email),
          ),
        ),
    });
  });

  test("POST /widget/{siteID}/tickets", async () => {
    type TicketProbe = Probe & { key: string | undefined };
    await check<TicketProbe>("ticket", {
      probe: fc
        .tuple(
          widgetProbe({
            name: fieldValue(fc.constantFrom("Ada", "Grace Hopper"), 80),
            email: fieldValue(plainEmail, 254),
            subject: fieldValue(fc.constantFrom("My order", "Refund"), 120),
            body: fieldValue(fc.constantFrom("It has not arrived.", "Please call me."), 8000),
            priority: fieldValue(fc.constantFrom(...PRIORITIES, "critical")),
            files: fieldValue(filesArb),
          }, {}, ["email", "subject", "body"]),
          idempotencyKeyArb,
        )
        .map(([probe, key]) => ({ ...probe, key: key === "fresh" ? `key-${randomUUID()}` : key })),
      send: (probe) =>
        sendProbe("POST", `/api/v1/chat/widget/${w.siteId}/tickets`, { ...probe, extraHeaders: { ...probe.extraHeaders, ...(probe.key !== undefined ? { "Idempotency-Key": probe.key } : {}) } }),
      verdict: (probe) =>
        verdictOf(
          probe.key === undefined || (/^[\x21-\x7e]{1,100}$/.test(probe.key) && !usedKeys.has(probe.key)) ? "valid" : "invalid",
          widgetVerdict(probe, [ORIGIN, OTHER_ORIGIN], (body) =>
            verdictOf(
              onlyKeys(body, ["name", "email", "subject", "body", "priority", "files"]) ? "valid" : "invalid",
              "email" in body ? email(body.email) : "invalid",
              "subject" in body ? singleLine(body.subject, 120) : "invalid",
              "body" in body ? requiredText(body.body, 8000) : "invalid",
              present(body, "name", (v) => displayName(v, 80)),
              present(body, "priority", (v) => (typeof v === "string" && PRIORITIES.includes(v) ? "valid" : "invalid")),
              present(body, "files", (v) => (Array.isArray(v) && v.length <= 10 ? verdictOf(...v.map(fileVerdict)) : "invalid")),
            ),
          ),
        ),
      accepted: (probe) => void (probe.key && usedKeys.add(probe.key)),
    });
  });

  test("POST /widget/{siteID}/visitors", async () => {
    await check("page view", {
      probe: widgetProbe({
        page_url: fieldValue(fc.oneof({ weight: 4, arbitrary: fc.oneof(fc.webUrl(), fc.constant("https://shop.example/cart?x=1")) }, { weight: 1, arbitrary: fc.constantFrom("javascript:alert(1)", "/relative", "ftp://shop.example/") }), 2000),
        visitor_id: fieldValue(fc.uuid(), 100),
        page_title: fieldValue(fc.constantFrom("Cart", ""), 300),
        referrer: fieldValue(fc.constantFrom("", "https://search.example/?q=lamp"), 2000),
      }),
      send: (probe) => sendProbe("POST", `/api/v1/chat/widget/${w.siteId}/visitors`, probe),
      verdict: (probe) =>
        widgetVerdict(probe, [ORIGIN, OTHER_ORIGIN], (body) =>
          verdictOf(
            onlyKeys(body, ["page_url", "visitor_id", "page_title", "referrer"]) ? "valid" : "invalid",
            "page_url" in body ? httpUrl(body.page_url, 2000) : "invalid",
            present(body, "visitor_id", (v) => clientId(v)),
            present(body, "page_title", (v) => oneLineText(v, 300)),
            present(body, "referrer", (v) => oneLineText(v, 2000)),
          ),
        ),
    });
  });
});

// --- Visitor routes ---------------------------------------------------------------------------

type Who = "a" | "b" | "rotated" | "expired" | "admin" | "none" | { garbage: string };
type VisitorProbe = Probe<Who>;
const whoArb: fc.Arbitrary<Who> = fc.oneof(
  { weight: 16, arbitrary: fc.constant("a" as const) },
  { weight: 1, arbitrary: fc.constantFrom("b" as const, "rotated" as const, "expired" as const, "admin" as const, "none" as const) },
  { weight: 1, arbitrary: headerValue.map((garbage) => ({ garbage })) },
);

function authorization(who: Who): string | undefined {
  if (typeof who === "object") return who.garbage;
  const bearer = { a: current.a, b: current.b, rotated: w.rotatedToken, expired: w.expired.token, admin: TEST_ADMIN_TOKEN, none: undefined }[who];
  return bearer === undefined ? undefined : `Bearer ${bearer}`;
}

/** Token and origin: only A's or B's live token, from the origin it was issued to. */
const visitorAuth = (probe: VisitorProbe): Verdict => when((probe.auth === "a" || probe.auth === "b") && probe.origin === ORIGIN);

const visitorProbe = (overrides: { query?: fc.Arbitrary<[string, string][]>; body?: fc.Arbitrary<Body> }) =>
  fc.record({
    origin: originFrom(ORIGIN, [OTHER_ORIGIN, ...LOOK_ALIKES]),
    auth: whoArb,
    contentType: contentTypeArb,
    extraHeaders: extraHeadersArb,
    query: overrides.query ?? fc.constant([]),
    body: overrides.body ?? fc.constant({ kind: "none" as const }),
  }) as fc.Arbitrary<VisitorProbe>;

const visitorSend = (method: string, path: string) => (probe: VisitorProbe) => sendProbe(method, path, probe as Probe, authorization(probe.auth));

/** Messages stored per conversation and client_id (trimmed body), to judge replays and conflicts. */
const sent = { a: new Map<string, string>(), b: new Map<string, string>() };

// A wait of 1..25 s turns a list into a long-poll; the generator offers only 0 and invalid waits.
const waitArb = fc.oneof(fc.constantFrom("0", "26", "-1", "1.5", "x", ""), fc.string({ maxLength: 4 }).filter((value) => !/^\d+$/.test(value) || Number(value) === 0 || Number(value) > 25));
const integerText = fc.oneof(fc.integer({ min: -5, max: 120 }).map(String), fc.constantFrom("", "1e2", "0x10", "2147483647", "2147483648", "99999999999", " 5", "+5"), weirdString);

describe("arbitrary visitor requests never yield 5xx, and change state only when valid", () => {
  test("POST /visitor/messages", async () => {
    await check<VisitorProbe>("send", {
      probe: visitorProbe({
        body: bodyFrom(
          shapedObject({
            body: fieldValue(fc.constantFrom("Hello", "  spaced  ", "<b>bold</b>", "Where is my order?"), 4000),
            client_id: fieldValue(fc.oneof(fc.constantFrom("c-1", "c-2", "c-3"), fc.uuid()), 100),
            kind: fieldValue(fc.oneof({ weight: 4, arbitrary: fc.constant("message") }, { weight: 1, arbitrary: fc.constantFrom("note", "system", "MESSAGE") })),
          }, ["body", "client_id"]),
        ),
      }),
      send: visitorSend("POST", "/api/v1/chat/visitor/messages"),
      verdict: (probe) => {
        const wire = wireJson(probe as Probe);
        if (!wire.parsed || !isObject(wire.value) || probe.body.kind === "none") return "invalid";
        const body = wire.value;
        const shape = verdictOf(
          visitorAuth(probe),
          jsonContentType(probe.contentType),
          onlyKeys(body, ["body", "client_id", "kind"]) ? "valid" : "invalid",
          "body" in body ? requiredText(body.body, 4000) : "invalid",
          "client_id" in body ? clientId(body.client_id) : "invalid",
          present(body, "kind", (v) => when(v === "message")),
        );
        if (shape === "invalid") return shape;
        const earlier = sent[probe.auth as "a" | "b"].get(body.client_id as string);
        return earlier === undefined || earlier === (body.body as string).trim() ? shape : "invalid";
      },
      accepted: (probe, response) => {
        const body = (wireJson(probe as Probe) as { value: Record<string, string> }).value;
        sent[probe.auth as "a" | "b"].set(body.client_id!, body.body!.trim());
        expectSources(response.json.result);
      },
    });
  });

  test("GET /visitor/messages", async () => {
    await check<VisitorProbe>("list", {
      probe: visitorProbe({ query: queryFrom({ cursor: integerText, limit: integerText, wait: waitArb }, fc.constantFrom("conversation_id", "token", "rid", "site")) }),
      send: visitorSend("GET", "/api/v1/chat/visitor/messages"),
      verdict: (probe) =>
        verdictOf(
          visitorAuth(probe),
          queryVerdict(probe.query, {
            cursor: (v) => queryInteger(v, 0, 2_147_483_647),
            limit: (v) => queryInteger(v, 1, 100),
            wait: (v) => queryInteger(v, 0, 0),
          }),
        ),
      // Sending messages records how far the visitor has seen (decisions.md, "Seen"); nothing else.
      readOnly: "except-seen",
      accepted: (_probe, response) => expectSources(response.json.result),
    });
  });

  test("GET /visitor/presence", async () => {
    await check<VisitorProbe>("presence", {
      probe: visitorProbe({ query: queryFrom({ typing: fc.oneof(fc.constantFrom("true", "false", "TRUE", "1", "yes", ""), weirdString) }, fc.constantFrom("conversation_id", "actor_id")) }),
      send: visitorSend("GET", "/api/v1/chat/visitor/presence"),
      verdict: (probe) => verdictOf(visitorAuth(probe), queryVerdict(probe.query, { typing: (v) => when(v === "true" || v === "false") })),
    });
  });

  test("GET /visitor/avatars/{userID}: only a member who replied in this very conversation", async () => {
    type AvatarProbe = VisitorProbe & { userId: string };
    await check<AvatarProbe>("avatar", {
      probe: fc
        .tuple(
          visitorProbe({ query: queryFrom({ size: fc.constant("64") }, fc.constantFrom("conversation_id")) }),
          fc.oneof(
            { weight: 3, arbitrary: fc.constantFrom("inA", "inB", "noteOnly", "noPicture") },
            { weight: 2, arbitrary: fc.oneof(weirdString, fc.string({ minLength: 99, maxLength: 102 })) },
          ),
        )
        .map(([probe, user]) => ({ ...probe, userId: user in { inA: 1, inB: 1, noteOnly: 1, noPicture: 1 } ? w.members[user as keyof World["members"]] : user }))
        .filter((probe) => probe.userId.length > 0 && probe.userId.isWellFormed() && ![".", ".."].includes(probe.userId)),
      send: (probe) => sendProbe("GET", `/api/v1/chat/visitor/avatars/${encodeURIComponent(probe.userId)}`, probe as Probe, authorization(probe.auth)),
      verdict: (probe) =>
        verdictOf(visitorAuth(probe), when((probe.auth === "a" && probe.userId === w.members.inA) || (probe.auth === "b" && probe.userId === w.members.inB))),
      readOnly: true,
    });
  });

  test("POST /visitor/renew: one rotation per live token", async () => {
    await check<VisitorProbe>("renew", {
      probe: visitorProbe({ body: bodyFrom(anyJson) }),
      send: visitorSend("POST", "/api/v1/chat/visitor/renew"),
      verdict: visitorAuth,
      accepted: (probe, response) => {
        current[probe.auth as "a" | "b"] = response.json.result.visitor_token;
      },
    });
  });
});

// --- Uploads and the operator API --------------------------------------------------------------

describe("arbitrary upload and operator requests never yield 5xx, and change state only when valid", () => {
  test("PUT /uploads/{attachmentId}", async () => {
    type UploadProbe = Probe & { target: "pending" | "done"; signature: "genuine" | "tampered"; bytes: Uint8Array; length: string | undefined };
    let uploaded = false;
    const genuine = () => new URL(w.uploads.otherPending.upload_url);
    await check<UploadProbe>("upload", {
      probe: fc.record({
        origin: fc.oneof(fc.constantFrom(ORIGIN, OTHER_ORIGIN, undefined), fc.constantFrom(...LOOK_ALIKES), headerValue),
        auth: fc.constant(undefined),
        contentType: fc.oneof({ weight: 4, arbitrary: fc.constant("image/png") }, { weight: 1, arbitrary: fc.constantFrom("image/gif", "application/json", undefined) }, { weight: 1, arbitrary: headerValue }),
        extraHeaders: extraHeadersArb,
        query: fc.constant([]),
        body: fc.constant({ kind: "none" as const }),
        target: fc.constantFrom("pending" as const, "done" as const),
        signature: fc.oneof({ weight: 3, arbitrary: fc.constant("genuine" as const) }, { weight: 1, arbitrary: fc.constant("tampered" as const) }),
        bytes: fc.oneof({ weight: 3, arbitrary: fc.constant(new Uint8Array(PNG_BYTES)) }, { weight: 2, arbitrary: fc.uint8Array({ maxLength: 80 }) }),
        length: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom("0", "-1", "999999999999", "abc", String(PNG_BYTES.length)) }),
      }) as fc.Arbitrary<UploadProbe>,
      send: (probe) => {
        const url = probe.target === "done" ? new URL(w.uploads.done.upload_url) : genuine();
        if (probe.signature === "tampered") url.searchParams.set("signature", `${url.searchParams.get("signature")!.slice(0, -2)}xx`);
        // As over HTTP, the body's length goes as Content-Length, unless the probe lies about it.
        const extraHeaders = { ...probe.extraHeaders, "Content-Length": probe.length ?? String(probe.bytes.byteLength) };
        return sendProbe("PUT", url.pathname + url.search, { ...probe, extraHeaders, body: { kind: "bytes", bytes: probe.bytes } });
      },
      verdict: (probe) =>
        when(
          probe.target === "pending" &&
            !uploaded &&
            probe.signature === "genuine" &&
            (probe.origin === undefined || probe.origin === ORIGIN || probe.origin === OTHER_ORIGIN) &&
            probe.contentType === "image/png" &&
            Buffer.from(probe.bytes).equals(PNG_BYTES) &&
            (probe.length === undefined || probe.length === String(PNG_BYTES.length)),
        ),
      accepted: () => {
        uploaded = true;
      },
    });
  });

  test("POST /admin/sites with arbitrary credentials and bodies", async () => {
    type AdminProbe = Probe & { bearer: string | undefined };
    await check<AdminProbe>("admin sites", {
      probe: fc
        .tuple(
          widgetProbe({
            id: fieldValue(fc.uuid(), 100),
            name: fieldValue(fc.constantFrom("Shop", "Zoë's"), 120),
            origins: fieldValue(fc.array(fc.oneof(fc.constantFrom(ORIGIN, "https://*.shop.example", "null", "http://localhost:3000"), fc.webUrl()), { maxLength: 3 })),
            daily_allowance: fieldValue(fc.integer({ min: -2, max: 2_000_000 })),
            offline: fieldValue(fc.boolean()),
          }, {}, ["id", "origins"]),
          fc.oneof({ weight: 3, arbitrary: fc.constant(TEST_ADMIN_TOKEN) }, { weight: 1, arbitrary: fc.constantFrom(undefined, `${TEST_ADMIN_TOKEN}x`, TEST_ADMIN_TOKEN.slice(1)) }, { weight: 1, arbitrary: headerValue }),
        )
        .map(([probe, bearer]) => ({ ...probe, bearer })),
      send: (probe) => sendProbe("POST", "/api/v1/admin/sites", probe, probe.bearer === undefined ? undefined : `Bearer ${probe.bearer}`),
      verdict: (probe) => (probe.bearer === TEST_ADMIN_TOKEN ? "unsure" : "invalid"),
    });
  });

  test("GET /admin/conversations with arbitrary credentials and queries", async () => {
    type AdminProbe = Probe & { bearer: string | undefined };
    await check<AdminProbe>("admin list", {
      probe: fc
        .tuple(
          widgetProbe({}, { query: queryFrom({ site: fc.oneof(fc.constant("SITE"), weirdString) }, fc.constantFrom("limit", "token")) }),
          fc.oneof({ weight: 3, arbitrary: fc.constant(TEST_ADMIN_TOKEN) }, { weight: 1, arbitrary: fc.constantFrom(undefined, `${TEST_ADMIN_TOKEN}.`, TEST_ADMIN_TOKEN.toUpperCase()) }, { weight: 1, arbitrary: headerValue }),
        )
        .map(([probe, bearer]) => ({ ...probe, bearer, query: probe.query.map(([key, value]) => [key, value === "SITE" ? w.siteId : value] as [string, string]) })),
      send: (probe) => sendProbe("GET", "/api/v1/admin/conversations", probe, probe.bearer === undefined ? undefined : `Bearer ${probe.bearer}`),
      verdict: (probe) => (probe.bearer === TEST_ADMIN_TOKEN ? "unsure" : "invalid"),
      readOnly: true,
    });
  });
});

// --- The inbox's API and the operator's lists (issue 23, item 5) ---------------------------------
// Signed in with the session cookie (an agent, an owner, none or a forged one); every filter and
// cursor fuzzed per class, as threats.md asks after Chatwoot CVE-2025-21628.

type Session = "agent" | "owner" | "none" | { garbage: string };
type InboxProbe = Probe<Session>;
const sessionArb: fc.Arbitrary<Session> = fc.oneof(
  { weight: 16, arbitrary: fc.constantFrom("agent" as const, "owner" as const) },
  { weight: 1, arbitrary: fc.constant("none" as const) },
  { weight: 1, arbitrary: headerValue.map((garbage) => ({ garbage })) },
);
const signedIn = (probe: InboxProbe, role: "agent" | "owner" = "agent"): Verdict => when(probe.auth === "owner" || (role === "agent" && probe.auth === "agent"));

const inboxProbe = (overrides: { query?: fc.Arbitrary<[string, string][]>; body?: fc.Arbitrary<Body> }) =>
  fc.record({
    origin: originFrom(INBOX_ORIGIN, [ORIGIN, ...LOOK_ALIKES]),
    auth: sessionArb,
    contentType: contentTypeArb,
    extraHeaders: extraHeadersArb,
    query: overrides.query ?? fc.constant([]),
    body: overrides.body ?? fc.constant({ kind: "none" as const }),
  }) as fc.Arbitrary<InboxProbe>;

/** The probe with its session's cookie (a side `cookie` header stays only where no session is chosen). */
function inboxSend(method: string, path: () => string) {
  return (probe: InboxProbe) => {
    const session = probe.auth;
    const cookie = session === "none" ? undefined : typeof session === "object" ? `parley_session=${session.garbage}` : w.staff[session].cookie;
    const extraHeaders = cookie === undefined ? probe.extraHeaders : { ...probe.extraHeaders, cookie };
    return sendProbe(method, path(), { ...(probe as Probe), extraHeaders });
  };
}

/** A path-like filter (`site`): 1..100 characters, no control character. */
const pathLike = (value: string): Verdict => clientId(value, 100);
const siteArb = () => fc.oneof({ weight: 3, arbitrary: fc.constant("SITE") }, { weight: 2, arbitrary: weirdString }, { weight: 1, arbitrary: fc.string({ minLength: 99, maxLength: 102 }) });
/** `SITE` made the world's site, and every pair as the wire carries it (a lone surrogate arrives as U+FFFD). */
const withSite = (query: [string, string][]) =>
  query.map(([key, value]) => [key.toWellFormed(), key === "site" && value === "SITE" ? w.siteId : value.toWellFormed()] as [string, string]);
const labelArb = () => fc.oneof({ weight: 3, arbitrary: fc.constantFrom("lb_unknown", "lb_00000000-0000-0000-0000-000000000000") }, { weight: 2, arbitrary: weirdString }, { weight: 1, arbitrary: fc.string({ minLength: 99, maxLength: 102 }) });
const cursorArb = fc.oneof(
  fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 21n }), fc.constantFrom("x", "conv.1-a_b", "", "x y", "a".repeat(101))).map(([at, id]) => `${at}_${id}`),
  fc.constantFrom("99999999999999999999_x", "253402300799999_z", "253402300800000_z", "8640000000000000_x", "-1_x", "1e3_x", "_x", "1_", "1700000000000", "0_a"),
  weirdString,
);
const choiceArb = (...choices: string[]) => fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...choices) }, { weight: 1, arbitrary: fc.oneof(fc.constantFrom("", choices[0]!.toUpperCase()), weirdString) });

describe("arbitrary operator list requests never yield 5xx", () => {
  type AdminProbe = Probe & { bearer: string | undefined };
  const adminProbe = (query: fc.Arbitrary<[string, string][]>) =>
    fc
      .tuple(
        widgetProbe({}, { query: query.map(withSite) }),
        fc.oneof({ weight: 3, arbitrary: fc.constant(TEST_ADMIN_TOKEN) }, { weight: 1, arbitrary: fc.constantFrom(undefined, `${TEST_ADMIN_TOKEN}.`) }, { weight: 1, arbitrary: headerValue }),
      )
      .map(([probe, bearer]) => ({ ...probe, bearer })) as fc.Arbitrary<AdminProbe>;
  const adminSend = (path: () => string) => (probe: AdminProbe) => sendProbe("GET", path(), probe, probe.bearer === undefined ? undefined : `Bearer ${probe.bearer}`);
  // `site` names a site: the world's answer, one that may exist (made by another endpoint's run) may
  // answer 404 site_not_found, and an empty or over-long one is 400.
  const siteList = (probe: AdminProbe) =>
    verdictOf(
      when(probe.bearer === TEST_ADMIN_TOKEN),
      when(probe.query.some(([key]) => key === "site")),
      queryVerdict(probe.query, { site: (v) => verdictOf(when(v.length >= 1 && v.length <= 100), v === w.siteId || v === w.offlineSiteId ? "valid" : "unsure") }),
    );

  test.each([
    ["GET /admin/tickets", "tickets"],
    ["GET /admin/page-views", "page-views"],
  ])("%s with arbitrary credentials and queries", async (name, path) => {
    await check<AdminProbe>(name.replace("GET /", ""), {
      probe: adminProbe(queryFrom({ site: siteArb() }, fc.constantFrom("cursor", "limit", "token"))),
      send: adminSend(() => `/api/v1/admin/${path}`),
      verdict: siteList,
      readOnly: true,
    });
  });

  test("GET /admin/outbox with arbitrary credentials and state filters", async () => {
    await check<AdminProbe>("admin/outbox", {
      probe: adminProbe(queryFrom({ status: choiceArb(...OUTBOX_FILTERS) }, fc.constantFrom("state", "cursor", "limit", "token"))),
      send: adminSend(() => "/api/v1/admin/outbox"),
      verdict: (probe) =>
        verdictOf(
          when(probe.bearer === TEST_ADMIN_TOKEN),
          queryVerdict(probe.query, { status: (value) => when((OUTBOX_FILTERS as readonly string[]).includes(value)) }),
        ),
      readOnly: true,
    });
  });

  test.each([
    ["GET /admin/webhooks/{id}/deliveries", () => `/api/v1/admin/webhooks/${w.webhookId}/deliveries`],
  ])("%s with arbitrary credentials and queries (which it does not read)", async (name, path) => {
    await check<AdminProbe>(name.replace("GET /", ""), {
      probe: adminProbe(queryFrom({ cursor: cursorArb, limit: integerText }, fc.constantFrom("site", "token"))),
      send: adminSend(path),
      verdict: (probe) => when(probe.bearer === TEST_ADMIN_TOKEN),
      readOnly: true,
    });
  });
});

// The inbox last: a member's activity, recorded after an answer, may land while the next request runs.
describe("arbitrary inbox requests never yield 5xx, and change state only when valid", () => {
  test("GET /inbox/conversations: filters and cursors", async () => {
    await check<InboxProbe>("inbox list", {
      inbox: true,
      probe: inboxProbe({
        query: queryFrom(
          { cursor: cursorArb, limit: integerText, status: choiceArb("open", "closed", "all"), assigned: choiceArb("all", "me", "unassigned"), site: siteArb(), label: labelArb() },
          fc.constantFrom("tag", "sort", "q", "token", "conversation_id"),
        ).map(withSite),
      }),
      send: inboxSend("GET", () => "/api/v1/inbox/conversations"),
      verdict: (probe) =>
        verdictOf(
          signedIn(probe),
          queryVerdict(probe.query, {
            cursor: keysetCursor,
            limit: (v) => queryInteger(v, 1, 100),
            status: (v) => when(["open", "closed", "all"].includes(v)),
            assigned: (v) => when(["all", "me", "unassigned"].includes(v)),
            site: pathLike,
            // A label's id, known or not (an unknown one lists nothing): the same rule as `site`.
            label: pathLike,
          }),
        ),
      // A read: a success changes nothing but the member's "active in the inbox" time.
      readOnly: true,
    });
  });

  test("GET /inbox/tickets: filters and cursors", async () => {
    await check<InboxProbe>("inbox tickets", {
      inbox: true,
      probe: inboxProbe({
        query: queryFrom(
          {
            site: siteArb(),
            status: fc.constantFrom("open", "pending", "solved", "all", "closed", "OPEN"),
            assignee: fc.constantFrom("me", "none", "no-such-member"),
            priority: fc.constantFrom("low", "urgent", "critical"),
            cursor: cursorArb,
            limit: integerText,
          },
          fc.constantFrom("sort", "q", "token"),
        ).map(withSite),
      }),
      send: inboxSend("GET", () => "/api/v1/inbox/tickets"),
      verdict: (probe) =>
        verdictOf(
          signedIn(probe),
          queryVerdict(probe.query, {
            site: pathLike,
            status: (v) => when(["open", "pending", "solved", "all"].includes(v)),
            assignee: pathLike,
            priority: (v) => when(["low", "normal", "high", "urgent"].includes(v)),
            cursor: keysetCursor,
            limit: (v) => queryInteger(v, 1, 200),
          }),
        ),
      readOnly: true,
    });
  });

  test("POST /inbox/conversations/{id}/messages: replies and notes", async () => {
    const replies = new Map<string, string>();
    await check<InboxProbe>("inbox reply", {
      inbox: true,
      probe: inboxProbe({
        body: bodyFrom(
          shapedObject({
            body: fieldValue(fc.constantFrom("On it.", "  Checking  ", "Line one\nline two", "<b>bold</b>"), 4000),
            kind: fieldValue(fc.oneof({ weight: 4, arbitrary: fc.constantFrom("message", "note") }, { weight: 1, arbitrary: fc.constantFrom("system", "NOTE") })),
            client_id: fieldValue(fc.oneof(fc.constantFrom("s-1", "s-2"), fc.uuid()), 100),
          }, ["body"]),
        ),
      }),
      send: inboxSend("POST", () => `/api/v1/inbox/conversations/${staffThread}/messages`),
      verdict: (probe) => {
        const wire = wireJson(probe as Probe);
        if (!wire.parsed || !isObject(wire.value) || probe.body.kind === "none") return "invalid";
        const body = wire.value;
        const shape = verdictOf(
          signedIn(probe),
          when(probe.origin === INBOX_ORIGIN),
          jsonContentType(probe.contentType),
          onlyKeys(body, ["body", "kind", "client_id"]) ? "valid" : "invalid",
          "body" in body ? requiredText(body.body, 4000) : "invalid",
          present(body, "kind", (v) => when(v === "message" || v === "note")),
          present(body, "client_id", (v) => clientId(v)),
        );
        if (shape === "invalid" || typeof body.client_id !== "string") return shape;
        const earlier = replies.get(body.client_id);
        if (earlier === undefined) return shape;
        // A replay: the same body is the stored message again (whatever its kind says), another is 409.
        return earlier === (body.body as string).trim() ? verdictOf(shape, "unsure") : "invalid";
      },
      accepted: (probe) => {
        const body = (wireJson(probe as Probe) as { value: Record<string, string> }).value;
        if (body.client_id !== undefined && !replies.has(body.client_id)) replies.set(body.client_id, body.body!.trim());
      },
    });
  });

  test("POST /inbox/labels: names and colours (owners only; names unique without regard to case)", async () => {
    const taken = new Set<string>();
    await check<InboxProbe>("inbox label", {
      inbox: true,
      probe: inboxProbe({
        body: bodyFrom(
          shapedObject({
            name: fieldValue(fc.oneof({ weight: 4, arbitrary: fc.uuid().map((id) => `Label ${id.slice(0, 8)}`) }, { weight: 1, arbitrary: fc.constantFrom("VIP", "vip", " Billing ", "Zoë", "李雷", "Ada\u00A0L") }), 40),
            color: fieldValue(fc.oneof({ weight: 4, arbitrary: fc.constantFrom("#3366cc", "#FFAA00", "#000000") }, { weight: 1, arbitrary: fc.constantFrom("red", "#fff", "#12345g", "123456", "#1234567") })),
          }, ["name", "color"]),
        ),
      }),
      send: inboxSend("POST", () => "/api/v1/inbox/labels"),
      verdict: (probe) => {
        const wire = wireJson(probe as Probe);
        if (!wire.parsed || !isObject(wire.value) || probe.body.kind === "none") return "invalid";
        const body = wire.value;
        return verdictOf(
          signedIn(probe, "owner"),
          when(probe.origin === INBOX_ORIGIN),
          jsonContentType(probe.contentType),
          onlyKeys(body, ["name", "color"]) ? "valid" : "invalid",
          "name" in body ? displayName(body.name, 40) : "invalid",
          "color" in body ? when(typeof body.color === "string" && /^#[0-9a-fA-F]{6}$/.test(body.color)) : "invalid",
          // A name already taken (in any case): a conflict.
          typeof body.name === "string" && taken.has(body.name.trim().toLowerCase()) ? "unsure" : "valid",
        );
      },
      accepted: (probe, response) => {
        taken.add((response.json.result as { name: string }).name.toLowerCase());
      },
    });
  });

  test("POST /inbox/saved-replies: shortcuts, titles, bodies and scopes (team replies: owners only)", async () => {
    const taken = new Set<string>();
    const scopeKey = (auth: Session, scope: unknown) => (scope === "team" ? "team" : String(auth));
    await check<InboxProbe>("inbox saved reply", {
      inbox: true,
      probe: inboxProbe({
        body: bodyFrom(
          shapedObject({
            shortcut: fieldValue(fc.oneof({ weight: 4, arbitrary: fc.stringMatching(/^[a-z0-9_-]{1,32}$/) }, { weight: 1, arbitrary: fc.constantFrom("greet", "Greet", "with space", "/greet", "a".repeat(33), "") })),
            title: fieldValue(fc.constantFrom("Greeting", " Refunds ", "Two\nlines", "Zoë"), 80),
            body: fieldValue(fc.constantFrom("Hi {{visitor.name|there}}!", "  From {{agent.name}} at {{site.name}}  ", "Line one\nline two", "<b>bold</b>"), 4000),
            scope: fieldValue(fc.oneof({ weight: 4, arbitrary: fc.constantFrom("team", "personal") }, { weight: 1, arbitrary: fc.constantFrom("global", "TEAM") })),
          }, ["shortcut", "title", "body", "scope"]),
        ),
      }),
      send: inboxSend("POST", () => "/api/v1/inbox/saved-replies"),
      verdict: (probe) => {
        const wire = wireJson(probe as Probe);
        if (!wire.parsed || !isObject(wire.value) || probe.body.kind === "none") return "invalid";
        const body = wire.value;
        return verdictOf(
          signedIn(probe, body.scope === "team" ? "owner" : "agent"),
          when(probe.origin === INBOX_ORIGIN),
          jsonContentType(probe.contentType),
          onlyKeys(body, ["shortcut", "title", "body", "scope"]) ? "valid" : "invalid",
          "shortcut" in body ? when(typeof body.shortcut === "string" && /^[a-z0-9_-]{1,32}$/.test(body.shortcut)) : "invalid",
          "title" in body ? singleLine(body.title, 80) : "invalid",
          "body" in body ? requiredText(body.body, 4000) : "invalid",
          "scope" in body ? when(body.scope === "team" || body.scope === "personal") : "invalid",
          // A shortcut already used in that scope (the team's, or this member's own): a conflict.
          taken.has(`${scopeKey(probe.auth, body.scope)} ${String(body.shortcut)}`) ? "unsure" : "valid",
        );
      },
      accepted: (probe, response) => {
        const result = response.json.result as { shortcut: string; scope: string };
        taken.add(`${scopeKey(probe.auth, result.scope)} ${result.shortcut}`);
      },
    });
  });

  test("POST /inbox/members/invites: names and emails (owners only)", async () => {
    const invited = new Set<string>();
    await check<InboxProbe>("inbox invite", {
      inbox: true,
      probe: inboxProbe({
        body: bodyFrom(
          shapedObject({
            email: fieldValue(fc.oneof({ weight: 4, arbitrary: fc.uuid().map((id) => `${id.slice(0, 8)}@team.example`) }, { weight: 1, arbitrary: fc.constant("twice@team.example") }), 254),
            name: fieldValue(fc.constantFrom("Ada", "Zoë Müller", "李雷", "Ada\u00A0Lovelace"), 80),
            role: fieldValue(fc.constantFrom("agent", "owner", "admin")),
          }, ["email", "name", "role"]),
        ),
      }),
      send: inboxSend("POST", () => "/api/v1/inbox/members/invites"),
      verdict: (probe) => {
        const wire = wireJson(probe as Probe);
        if (!wire.parsed || !isObject(wire.value) || probe.body.kind === "none") return "invalid";
        const body = wire.value;
        return verdictOf(
          signedIn(probe, "owner"),
          when(probe.origin === INBOX_ORIGIN),
          jsonContentType(probe.contentType),
          onlyKeys(body, ["email", "name", "role"]) ? "valid" : "invalid",
          "email" in body ? email(body.email) : "invalid",
          "name" in body ? displayName(body.name, 80) : "invalid",
          "role" in body ? when(body.role === "agent" || body.role === "owner") : "invalid",
          // An address already taken by a member or an invite: a conflict, whichever the service says.
          typeof body.email === "string" && invited.has(body.email.trim().toLowerCase()) ? "unsure" : "valid",
        );
      },
      accepted: (probe) => {
        const body = (wireJson(probe as Probe) as { value: Record<string, string> }).value;
        invited.add(body.email!.trim().toLowerCase());
      },
    });
  });
});

// --- Round 4: articles, the widget's help center and the handoff (issue 38) ----------------------

/** Every message in an answer carries `sources` (round 4: always present, [] when none). */
function expectSources(result: unknown): void {
  const messages: Record<string, unknown>[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (isObject(value)) {
      if ("author_type" in value && "body" in value) messages.push(value);
      Object.values(value).forEach(walk);
    }
  };
  walk(result);
  for (const message of messages) expect(Array.isArray(message.sources), JSON.stringify(message).slice(0, 200)).toBe(true);
}

describe("arbitrary round-4 requests never yield 5xx, and change state only when valid", () => {
  const LOCALES = ["en", "de", "fr-CA", "pt-BR", "EN-gb"];
  const NOT_LOCALES = ["", "english please", "x".repeat(36), "en_US_", "12"];
  /** A locale: a few plainly valid tags, a few plainly not; anything else the oracle leaves open. */
  const locale = (value: unknown): Verdict =>
    typeof value !== "string" ? "invalid" : LOCALES.includes(value) ? "valid" : NOT_LOCALES.includes(value) ? "invalid" : "unsure";
  const localeArb = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...LOCALES) }, { weight: 1, arbitrary: fc.constantFrom(...NOT_LOCALES) });
  const slug = (value: unknown): Verdict => when(typeof value === "string" && value.length <= 100 && /^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(value));
  let published = "";
  /** A query value as the service reads it: the URL carries a lone surrogate as U+FFFD. */
  const asSent = (value: string) => value.toWellFormed();
  /** Seven fields each hostile a fifth of the time would leave almost no request valid: here a field is hostile one time in twenty. */
  const mostly = (plausible: fc.Arbitrary<unknown>, max?: number) => fc.oneof({ weight: 3, arbitrary: plausible }, { weight: 1, arbitrary: fieldValue(plausible, max) });

  beforeAll(async () => {
    const { api } = await import("../support/api");
    const help = await api.patch(`/api/v1/admin/sites/${w.siteId}`, { admin: true, body: { help_center: { enabled: true } } });
    expect(help.status, JSON.stringify(help.json)).toBe(200);
    const written = await api.post("/api/v1/admin/articles", {
      admin: true,
      body: { site_id: w.siteId, title: "Where is my parcel?", body: "Parcels ship within **two days**.", status: "published" },
    });
    expect(written.status, JSON.stringify(written.json)).toBe(201);
    published = written.json.result.id;
  });

  /** A new article's body: mostly plausible, each field hostile now and then (the site: the world's). */
  const articleBody = () =>
    shapedObject(
      {
        site_id: mostly(fc.oneof({ weight: 6, arbitrary: fc.constant("SITE") }, { weight: 1, arbitrary: fc.constant("no-such-site") }), 100),
        title: mostly(fc.oneof(fc.uuid().map((id) => `Shipping ${id.slice(0, 8)}`), fc.constantFrom(" Returns ", "Zoë's guide", "Two\nlines")), 160),
        body: mostly(fc.constantFrom("Orders **ship** in two days.", "## Times\n\n- one\n- two", "<script>alert(1)</script>", "[x](javascript:alert(1))"), 50_000),
        locale: fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...LOCALES) }, { weight: 1, arbitrary: fc.constantFrom(...NOT_LOCALES) }, { weight: 1, arbitrary: weirdString }),
        slug: mostly(fc.oneof(fc.uuid().map((id) => `guide-${id.slice(0, 8)}`), fc.constantFrom("Bad Slug", "a--b", "-a", "shipping")), 100),
        collection: fc.oneof({ weight: 4, arbitrary: fc.constantFrom("Shipping", null, " Billing ") }, { weight: 1, arbitrary: fieldValue(fc.constant("Two\nlines"), 60) }),
        status: mostly(fc.oneof({ weight: 4, arbitrary: fc.constantFrom("draft", "published") }, { weight: 1, arbitrary: fc.constantFrom("archived", "PUBLISHED") })),
      },
      ["site_id", "title", "body"],
    ).map((body) => (body.site_id === "SITE" ? { ...body, site_id: w.siteId } : body));

  /** The oracle for a new article's fields; `slugs`: those taken so far. */
  const articleVerdict = (body: Record<string, unknown>, slugs: Set<string>): Verdict =>
    verdictOf(
      onlyKeys(body, ["site_id", "title", "body", "locale", "slug", "collection", "status"]) ? "valid" : "invalid",
      // Another site than the world's: 404 or 400 (the shape alone cannot tell).
      "site_id" in body ? verdictOf(clientId(body.site_id), body.site_id === w.siteId ? "valid" : "unsure") : "invalid",
      "title" in body ? singleLine(body.title, 160) : "invalid",
      "body" in body ? requiredText(body.body, 50_000) : "invalid",
      present(body, "locale", locale),
      present(body, "slug", slug),
      present(body, "collection", (v) => (v === null ? "valid" : singleLine(v, 60))),
      present(body, "status", (v) => when(v === "draft" || v === "published")),
      // A slug taken (given, or made from a title) in the same locale: a conflict, or another slug.
      !("slug" in body) || (typeof body.slug === "string" && slugs.has(body.slug)) || "locale" in body ? "unsure" : "valid",
    );

  test("POST /inbox/articles: every field (owners write)", async () => {
    const slugs = new Set<string>();
    await check<InboxProbe>("inbox article", {
      inbox: true,
      probe: inboxProbe({ body: bodyFrom(articleBody()) }),
      send: inboxSend("POST", () => "/api/v1/inbox/articles"),
      verdict: (probe) => {
        const wire = wireJson(probe as Probe);
        if (!wire.parsed || !isObject(wire.value) || probe.body.kind === "none") return "invalid";
        return verdictOf(signedIn(probe, "owner"), when(probe.origin === INBOX_ORIGIN), jsonContentType(probe.contentType), articleVerdict(wire.value, slugs));
      },
      accepted: (_probe, response) => {
        slugs.add((response.json.result as { slug: string }).slug);
      },
    });
  });

  test("POST /admin/articles: the operator token, every field", async () => {
    type AdminProbe = Probe & { bearer: string | undefined };
    const slugs = new Set<string>();
    await check<AdminProbe>("admin article", {
      probe: fc
        .tuple(
          widgetProbe({}, { query: fc.constant([]), body: bodyFrom(articleBody()) }),
          fc.oneof({ weight: 4, arbitrary: fc.constant(TEST_ADMIN_TOKEN) }, { weight: 1, arbitrary: fc.constantFrom(undefined, `${TEST_ADMIN_TOKEN}x`, TEST_ADMIN_TOKEN.slice(1)) }, { weight: 1, arbitrary: headerValue }),
        )
        .map(([probe, bearer]) => ({ ...probe, bearer })),
      send: (probe) => sendProbe("POST", "/api/v1/admin/articles", probe, probe.bearer === undefined ? undefined : `Bearer ${probe.bearer}`),
      verdict: (probe) => {
        const wire = wireJson(probe);
        if (!wire.parsed || !isObject(wire.value) || probe.body.kind === "none") return "invalid";
        return verdictOf(when(probe.bearer === TEST_ADMIN_TOKEN), jsonContentType(probe.contentType), articleVerdict(wire.value, slugs));
      },
      accepted: (_probe, response) => {
        slugs.add((response.json.result as { slug: string }).slug);
      },
    });
  });

  test("PATCH /inbox/articles/{id}: any of the fields, at least one (owners write)", async () => {
    const { api } = await import("../support/api");
    const editable = await api.post("/api/v1/admin/articles", { admin: true, body: { site_id: w.siteId, title: "Editable", body: "Draft text.", slug: `editable-${randomUUID().slice(0, 8)}` } });
    expect(editable.status, JSON.stringify(editable.json)).toBe(201);
    const id = editable.json.result.id as string;
    let slugIsOwn = true;
    const ownSlug = (value: unknown) => typeof value === "string" && /^edited-[0-9a-f]{8}$/.test(value);
    await check<InboxProbe>("inbox article edit", {
      inbox: true,
      probe: inboxProbe({
        body: bodyFrom(
          shapedObject({
            title: mostly(fc.oneof({ weight: 4, arbitrary: fc.constantFrom("Edited title", " Spaced ") }, { weight: 1, arbitrary: fc.constant("Two\nlines") }), 160),
            body: mostly(fc.constantFrom("New **text**.", "<img src=x onerror=alert(1)>"), 50_000),
            locale: fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...LOCALES) }, { weight: 1, arbitrary: fc.constantFrom(...NOT_LOCALES) }),
            slug: mostly(fc.oneof(fc.uuid().map((uuid) => `edited-${uuid.slice(0, 8)}`), fc.constantFrom("shipping", "Bad Slug")), 100),
            collection: fc.oneof({ weight: 4, arbitrary: fc.constantFrom("Guides", null) }, { weight: 1, arbitrary: fc.constantFrom("", "Two\nlines") }),
            status: mostly(fc.constantFrom("draft", "published")),
          }),
        ),
      }),
      send: inboxSend("PATCH", () => `/api/v1/inbox/articles/${id}`),
      verdict: (probe) => {
        const wire = wireJson(probe as Probe);
        if (!wire.parsed || !isObject(wire.value) || probe.body.kind === "none") return "invalid";
        const body = wire.value;
        const keys = ["title", "body", "locale", "slug", "collection", "status"];
        return verdictOf(
          signedIn(probe, "owner"),
          when(probe.origin === INBOX_ORIGIN),
          jsonContentType(probe.contentType),
          onlyKeys(body, keys) ? "valid" : "invalid",
          when(Object.keys(body).some((key) => keys.includes(key))),
          present(body, "title", (v) => singleLine(v, 160)),
          present(body, "body", (v) => requiredText(v, 50_000)),
          present(body, "locale", locale),
          present(body, "slug", slug),
          present(body, "collection", (v) => (v === null ? "valid" : singleLine(v, 60))),
          present(body, "status", (v) => when(v === "draft" || v === "published")),
          // A slug (or the slug in another locale) another article may hold: a conflict, or not.
          ("slug" in body ? ownSlug(body.slug) : slugIsOwn) ? "valid" : "unsure",
        );
      },
      accepted: (_probe, response) => {
        slugIsOwn = ownSlug((response.json.result as { slug: string }).slug);
      },
    });
  });

  test("DELETE /inbox/articles/{id}: owners only, once", async () => {
    const { api } = await import("../support/api");
    const doomed = await api.post("/api/v1/admin/articles", { admin: true, body: { site_id: w.siteId, title: "Doomed", body: "Gone soon." } });
    expect(doomed.status, JSON.stringify(doomed.json)).toBe(201);
    let alive = true;
    type DeleteProbe = InboxProbe & { articleId: string };
    await check<DeleteProbe>("inbox article delete", {
      inbox: true,
      probe: fc
        .tuple(inboxProbe({}), fc.oneof({ weight: 3, arbitrary: fc.constant("DOOMED") }, { weight: 1, arbitrary: fc.oneof(weirdString, fc.constantFrom("no-such-article")) }))
        .map(([probe, articleId]) => ({ ...probe, articleId: articleId === "DOOMED" ? doomed.json.result.id : articleId }))
        .filter((probe) => probe.articleId.length > 0 && probe.articleId.isWellFormed() && ![".", ".."].includes(probe.articleId)),
      send: (probe) => inboxSend("DELETE", () => `/api/v1/inbox/articles/${encodeURIComponent(probe.articleId)}`)(probe),
      verdict: (probe) => verdictOf(signedIn(probe, "owner"), when(probe.origin === INBOX_ORIGIN), when(alive && probe.articleId === doomed.json.result.id)),
      accepted: () => {
        alive = false;
      },
    });
  });

  test("GET /inbox/articles: filters and search", async () => {
    await check<InboxProbe>("inbox articles", {
      inbox: true,
      probe: inboxProbe({
        query: queryFrom(
          { site: siteArb(), locale: localeArb, status: choiceArb("draft", "published"), q: fc.oneof(fc.constantFrom("parcel", "ship or", "\"two days\"", "-x", "café"), weirdString) },
          fc.constantFrom("cursor", "limit", "token"),
        ).map(withSite),
      }),
      send: inboxSend("GET", () => "/api/v1/inbox/articles"),
      verdict: (probe) =>
        verdictOf(
          signedIn(probe),
          queryVerdict(probe.query, {
            site: pathLike,
            locale,
            status: (v) => when(v === "draft" || v === "published"),
            q: (v) => singleLine(asSent(v), 200),
          }),
        ),
      readOnly: true,
    });
  });

  test("GET /widget/{siteID}/articles: search from the page", async () => {
    await check("widget articles", {
      probe: widgetProbe(
        {},
        {
          query: queryFrom(
            { q: fc.oneof(fc.constantFrom("parcel", "where is my par", "ship & | !", "", "café"), weirdString), locale: localeArb, limit: integerText },
            fc.constantFrom("site", "status", "token"),
          ),
        },
      ),
      send: (probe) => sendProbe("GET", `/api/v1/chat/widget/${w.siteId}/articles`, probe),
      verdict: (probe) =>
        verdictOf(
          when(probe.origin !== undefined && [ORIGIN, OTHER_ORIGIN].includes(probe.origin)),
          queryVerdict(probe.query, { q: (v) => oneLineText(asSent(v), 200), locale, limit: (v) => queryInteger(v, 1, 20) }),
        ),
      readOnly: true,
    });
  });

  test("GET /widget/{siteID}/articles/{id}: only a published article of this site (a read counts a view)", async () => {
    type ReadProbe = Probe & { articleId: string };
    await check<ReadProbe>("widget article", {
      probe: fc
        .tuple(widgetProbe({}, { query: fc.constant([]) }), fc.oneof({ weight: 4, arbitrary: fc.constant("PUBLISHED") }, { weight: 1, arbitrary: fc.oneof(weirdString, fc.constantFrom("no-such-article", "x".repeat(101))) }))
        .map(([probe, id]) => ({ ...probe, articleId: id === "PUBLISHED" ? published : id }))
        .filter((probe) => probe.articleId.length > 0 && probe.articleId.isWellFormed() && ![".", ".."].includes(probe.articleId)),
      send: (probe) => sendProbe("GET", `/api/v1/chat/widget/${w.siteId}/articles/${encodeURIComponent(probe.articleId)}`, probe),
      verdict: (probe) => verdictOf(when(probe.origin !== undefined && [ORIGIN, OTHER_ORIGIN].includes(probe.origin)), when(probe.articleId === published)),
    });
  });

  test("POST /widget/{siteID}/articles/{id}/feedback: helpful and visitor_id", async () => {
    await check("article feedback", {
      probe: widgetProbe(
        { helpful: fieldValue(fc.boolean()), visitor_id: fieldValue(fc.uuid(), 100) },
        {},
        ["helpful"],
      ),
      send: (probe) => sendProbe("POST", `/api/v1/chat/widget/${w.siteId}/articles/${published}/feedback`, probe),
      verdict: (probe) =>
        widgetVerdict(probe, [ORIGIN, OTHER_ORIGIN], (body) =>
          verdictOf(
            onlyKeys(body, ["helpful", "visitor_id"]) ? "valid" : "invalid",
            "helpful" in body ? when(typeof body.helpful === "boolean") : "invalid",
            present(body, "visitor_id", (v) => clientId(v)),
          ),
        ),
    });
  });

  test("POST /visitor/handoff: the visitor's own token only", async () => {
    await check<VisitorProbe>("handoff", {
      probe: visitorProbe({ body: bodyFrom(anyJson) }),
      send: visitorSend("POST", "/api/v1/chat/visitor/handoff"),
      verdict: visitorAuth,
    });
  });
});
