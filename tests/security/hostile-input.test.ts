import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { api, type ApiResponse, type CallOptions } from "../support/api";
import { TEST_ADMIN_TOKEN } from "../support/database-per-file";
import { expectError } from "../support/expectations";
import { as as staffAs } from "../support/inbox";
import { ORIGIN, OTHER_ORIGIN, PNG_BASE64, type Started } from "../support/fixtures";
import { buildWorld, signedUploadUrl, THIRD_ORIGIN, withParam, type World } from "../support/hostile-world";
import { exceptActivity, stateSnapshot } from "../support/state-snapshot";
import { file, PNG_BYTES, putUpload, ticket } from "../support/tickets";

// The hostile input table: one line per request — what is sent, and the status and code it must
// get. For every line the whole state (row count and content digest of every table, and the
// files in the uploads folder) is compared before and after: a refused request changes nothing.
// Lines are tagged with the incident of /work/shared/spec/threats.md they replay.

const T = {
  roomRead: "Rocket.Chat Livechat unauthenticated message read",
  fileOwnership: "Rocket.Chat CVE-2026-48616",
  callerChosenId: "Chatwoot CVE-2026-115725 / HiJiffy CVE-2026-4262",
  tokenInUrl: "Chatwoot #15775",
  tokenNeverExpired: "Chatwoot PR #12259",
  endsWith: "xagent GHSA-j2rx-g3hp-qg34",
  allowlistUnenforced: "Chatwoot #8412",
  noCors: "Zammad CVE-2017-6080",
  svgAvatar: "Chatwoot CVE-2021-3741",
  crashOnNonJson: "Zammad CVE-2020-10101",
  objectForString: "Rocket.Chat CVE-2022-32228",
  lookAlikeNames: "OnionShare GHSA-68vr-8f46-vc9f",
  filterFuzz: "Chatwoot CVE-2025-21628",
  none: "",
} as const;

let w: World;
beforeAll(async () => {
  w = await buildWorld();
});

// Request builders, so each line of the table stays one line.
type Send = () => Promise<ApiResponse>;
const widget = (route: string, options: CallOptions, siteId = w.siteId) => api.post(`/api/v1/chat/widget/${siteId}/${route}`, options);
const start = (options: CallOptions = {}) => widget("conversations", { origin: ORIGIN, ...(options.rawBody === undefined ? { body: {} } : {}), ...options });
const startBody = (body: unknown) => start({ body });
const fileTicket = (body: unknown, options: CallOptions = {}) => widget("tickets", { origin: ORIGIN, body, ...options });
const pageView = (body: unknown, options: CallOptions = {}) => widget("visitors", { origin: ORIGIN, body, ...options });
const as = (who: Started, options: CallOptions = {}): CallOptions => ({ origin: who.origin, token: who.token, ...options });
const send = (body: unknown, options: CallOptions = {}, who = () => w.a) => api.post("/api/v1/chat/visitor/messages", as(who(), { body, ...options }));
const list = (query: string, who = () => w.a, options: CallOptions = {}) => api.get(`/api/v1/chat/visitor/messages${query}`, as(who(), options));
const presence = (query: string, who = () => w.a) => api.get(`/api/v1/chat/visitor/presence${query}`, as(who()));
const avatar = (userId: string, who = () => w.a) => api.get(`/api/v1/chat/visitor/avatars/${userId}`, as(who()));
const renew = (options: CallOptions) => api.post("/api/v1/chat/visitor/renew", options);
const transcript = (options: CallOptions) => api.post("/api/v1/chat/visitor/transcript", options);
const listAs = (options: CallOptions) => api.get("/api/v1/chat/visitor/messages", options);
const adminGet = (path: string, admin?: string | boolean, headers?: Record<string, string>) => api.get(`/api/v1/admin/${path}`, { admin, headers });
const adminPost = (path: string, body: unknown, admin: string | boolean = true) => api.post(`/api/v1/admin/${path}`, { admin, body });
const adminPatch = (path: string, body: unknown) => api.patch(`/api/v1/admin/${path}`, { admin: true, body });
type StaffRole = "owner" | "agent" | null;
/** An inbox API call as signed-in staff (the agent unless named), from the inbox's own origin unless given. */
const inbox = (method: "get" | "post" | "patch" | "put" | "delete", path: string, options: CallOptions = {}, who: StaffRole = "agent") =>
  api[method](`/api/v1/inbox/${path}`, staffAs(who === null ? null : w.staff[who], options));
const inboxGet = (path: string, who: StaffRole = "agent") => inbox("get", path, {}, who);
const inboxList = (query: string) => inboxGet(`conversations?${query}`);
const inboxReply = (body: unknown, options: CallOptions = {}) => inbox("post", `conversations/${w.a.conversationId}/messages`, { body, ...options });
const message = (overrides: Record<string, unknown> = {}) => ({ body: "Hello", client_id: `hostile-${Math.random()}`, ...overrides });
const long = (length: number, char = "x") => char.repeat(length);
const overOneMiB = `{"body":"${long(1024 * 1024)}"}`;
/** What Node's HTTP parser hands over for a header sent as raw UTF-8: each byte as one Latin-1 character. */
const asHeaderBytes = (text: string) => Buffer.from(text, "utf8").toString("latin1");
const manyFiles = (count: number) => Array.from({ length: count }, (_, index) => file({ name: `f${index}.png` }));

type Row = [threat: string, name: string, send: Send, status: number, code: string];
/**
 * Rows sent with a staff session: around them a member's "active in the inbox" time and the
 * session's sliding expiry are not compared (state-snapshot.ts, exceptActivity); all else is.
 */
const SIGNED_IN = new WeakSet<Row>();
const signedIn = (row: Row): Row => (SIGNED_IN.add(row), row);

const rows: Row[] = [
  // --- Origins on widget routes: one 403 for every way of not being exactly on the allowlist.
  [T.endsWith, "start without an Origin", () => start({ origin: null }), 403, "origin_not_allowed"],
  [T.endsWith, "start from Origin: null", () => start({ origin: "null" }), 403, "origin_not_allowed"],
  [T.endsWith, "start from a malformed Origin", () => start({ origin: "shop.example" }), 403, "origin_not_allowed"],
  [T.endsWith, "start from the allowed origin with a trailing slash", () => start({ origin: `${ORIGIN}/` }), 403, "origin_not_allowed"],
  [T.endsWith, "start from the allowed host on another port", () => start({ origin: `${ORIGIN}:8443` }), 403, "origin_not_allowed"],
  [T.endsWith, "start from the allowed host with its default port spelled out", () => start({ origin: `${ORIGIN}:443` }), 403, "origin_not_allowed"],
  [T.endsWith, "start from the allowed host over another scheme", () => start({ origin: "http://shop.example" }), 403, "origin_not_allowed"],
  [T.endsWith, "start from the allowed host in upper case", () => start({ origin: "https://SHOP.example" }), 403, "origin_not_allowed"],
  [T.endsWith, "start from a Cyrillic look-alike host (shоp, raw UTF-8)", () => start({ origin: asHeaderBytes("https://sh\u043ep.example") }), 403, "origin_not_allowed"],
  [T.endsWith, "start from the punycode of a look-alike host", () => start({ origin: "https://xn--shp-ced.example" }), 403, "origin_not_allowed"],
  [T.endsWith, "start from a host that ends with the allowed one", () => start({ origin: "https://evilshop.example" }), 403, "origin_not_allowed"],
  [T.endsWith, "start from the allowed origin as a subdomain prefix", () => start({ origin: "https://shop.example.evil.com" }), 403, "origin_not_allowed"],
  [T.endsWith, "start from an Origin with a path", () => start({ origin: `${ORIGIN}/checkout` }), 403, "origin_not_allowed"],
  [T.endsWith, "start from an Origin with credentials", () => start({ origin: "https://user@shop.example" }), 403, "origin_not_allowed"],
  [T.endsWith, "start from Origin: *", () => start({ origin: "*" }), 403, "origin_not_allowed"],
  [T.endsWith, "start from two Origins in one header", () => start({ origin: `${ORIGIN}, https://evil.example` }), 403, "origin_not_allowed"],
  [T.endsWith, "a ticket from an origin off the allowlist", () => fileTicket(ticket(), { origin: "https://evil.example" }), 403, "origin_not_allowed"],
  [T.endsWith, "a page view from an origin off the allowlist", () => pageView({ page_url: "https://evil.example/" }, { origin: "https://evil.example" }), 403, "origin_not_allowed"],
  [T.none, "a ticket for an unknown site", () => widget("tickets", { origin: ORIGIN, body: ticket() }, "no-such-site"), 404, "site_not_found"],

  // --- Path ids.
  [T.none, "a siteID of 101 characters", () => widget("conversations", { origin: ORIGIN, body: {} }, long(101, "s")), 400, "invalid_request"],
  [T.callerChosenId, "a siteID climbing out with ../", () => widget("conversations", { origin: ORIGIN, body: {} }, "..%2F..%2Fadmin%2Fsites"), 404, "site_not_found"],
  [T.callerChosenId, "a widget path that normalises onto a visitor route", () => api.get(`/api/v1/chat/widget/${w.siteId}/../../visitor/messages`, { origin: ORIGIN }), 401, "unauthorized"],
  [T.none, "a userID of 101 characters", () => avatar(long(101, "u")), 400, "invalid_request"],
  [T.fileOwnership, "a userID climbing out with ../", () => avatar("..%2F..%2Fadmin%2Fmembers"), 404, "member_not_found"],
  [T.crashOnNonJson, "a siteID holding NUL", () => widget("conversations", { origin: ORIGIN, body: {} }, "site%00"), 400, "invalid_request"],
  [T.crashOnNonJson, "a userID holding NUL", () => avatar("%00"), 400, "invalid_request"],
  [T.crashOnNonJson, "an attachment id holding NUL", () => putUpload(`/api/v1/uploads/a%00b${new URL(w.uploads.pendingPng.upload_url).search}`, PNG_BYTES), 400, "invalid_request"],
  [T.crashOnNonJson, "an operator conversation id holding NUL", () => adminGet("conversations/c%00", true), 400, "invalid_request"],
  [T.crashOnNonJson, "an operator query holding NUL", () => adminGet("conversations?site=%00", true), 400, "invalid_request"],
  [T.crashOnNonJson, "an operator staff message whose author holds NUL", () => adminPost(`conversations/${w.a.conversationId}/messages`, { author_id: "a\u0000", body: "x" }), 400, "invalid_request"],
  [T.crashOnNonJson, "an operator presence whose actor holds NUL", () => adminPost(`conversations/${w.a.conversationId}/presence`, { actor_id: "\u0000", typing: true }), 400, "invalid_request"],

  // --- Visitor tokens.
  [T.none, "messages without Authorization", () => listAs({ origin: ORIGIN }), 401, "unauthorized"],
  [T.none, "a Basic credential", () => listAs({ origin: ORIGIN, headers: { Authorization: "Basic dXNlcjpwYXNz" } }), 401, "unauthorized"],
  [T.none, "a malformed bearer token", () => listAs({ origin: ORIGIN, token: "not-a-token" }), 401, "unauthorized"],
  [T.none, "a truncated token", () => listAs({ origin: ORIGIN, token: w.a.token.slice(0, -1) }), 401, "unauthorized"],
  [T.none, "a token with one character changed", () => listAs({ origin: ORIGIN, token: w.a.token.slice(0, -1) + (w.a.token.endsWith("A") ? "B" : "A") }), 401, "unauthorized"],
  [T.none, "a token with a character appended", () => listAs({ origin: ORIGIN, token: `${w.a.token}A` }), 401, "unauthorized"],
  [T.none, "two bearer tokens in one header", () => listAs({ origin: ORIGIN, headers: { Authorization: `Bearer ${w.a.token} ${w.b.token}` } }), 401, "unauthorized"],
  [T.tokenNeverExpired, "a token rotated by renew", () => listAs({ origin: ORIGIN, token: w.rotatedToken }), 401, "unauthorized"],
  [T.tokenNeverExpired, "an expired token", () => listAs(as(w.expired)), 401, "token_expired"],
  [T.tokenNeverExpired, "renewing an expired token", () => renew(as(w.expired)), 401, "token_expired"],
  [T.tokenNeverExpired, "renewing a rotated token", () => renew({ origin: ORIGIN, token: w.rotatedToken }), 401, "unauthorized"],
  [T.tokenInUrl, "the token in the query string instead of the header", () => api.get(`/api/v1/chat/visitor/messages?token=${w.a.token}`, { origin: ORIGIN }), 401, "unauthorized"],
  [T.tokenInUrl, "the token in the body instead of the header", () => api.post("/api/v1/chat/visitor/messages", { origin: ORIGIN, body: { ...message(), visitor_token: w.a.token } }), 401, "unauthorized"],
  [T.allowlistUnenforced, "a token used from another allowed origin", () => list("", () => w.a, { origin: OTHER_ORIGIN }), 403, "origin_mismatch"],
  [T.allowlistUnenforced, "a token sent without an Origin", () => listAs({ token: w.a.token }), 403, "origin_mismatch"],
  [T.allowlistUnenforced, "a token sent from Origin: null", () => listAs({ origin: "null", token: w.a.token }), 403, "origin_mismatch"],
  [T.allowlistUnenforced, "a token sent without Origin but claiming Sec-Fetch-Site: same-origin", () => listAs({ token: w.a.token, headers: { "Sec-Fetch-Site": "same-origin" } }), 403, "origin_mismatch"],
  [T.endsWith, "a start without Origin claiming Sec-Fetch-Site: same-origin", () => start({ origin: null, headers: { "Sec-Fetch-Site": "same-origin" } }), 403, "origin_not_allowed"],
  [T.allowlistUnenforced, "sending with a token whose origin left the allowlist", () => send(message(), {}, () => w.narrowed), 403, "origin_not_allowed"],
  [T.allowlistUnenforced, "renewing a token whose origin left the allowlist", () => renew(as(w.narrowed)), 403, "origin_not_allowed"],
  [T.allowlistUnenforced, "renewing from another allowed origin", () => renew({ origin: OTHER_ORIGIN, token: w.a.token }), 403, "origin_mismatch"],
  [T.none, "a transcript without a token", () => transcript({ origin: ORIGIN, body: {} }), 401, "unauthorized"],
  [T.tokenNeverExpired, "a transcript with an expired token", () => transcript(as(w.expired, { body: {} })), 401, "token_expired"],
  [T.allowlistUnenforced, "a transcript from another allowed origin", () => transcript({ origin: OTHER_ORIGIN, token: w.a.token, body: {} }), 403, "origin_mismatch"],
  [T.none, "a transcript sent to an address of the caller's choosing", () => transcript(as(w.a, { body: { email: "victim@example.com" } })), 400, "invalid_request"],
  [T.none, "a transcript for a conversation without an email", () => transcript(as(w.a, { body: {} })), 400, "email_required"],
  [T.none, "the operator token as a visitor token", () => listAs({ origin: ORIGIN, token: TEST_ADMIN_TOKEN }), 401, "unauthorized"],

  // --- Another conversation's data (BOLA): the conversation comes from the token, never from input.
  [T.roomRead, "listing with another conversation's id in the query", () => list(`?conversation_id=${w.b.conversationId}`), 400, "invalid_request"],
  [T.roomRead, "listing with a room id in the query", () => list(`?rid=${w.b.conversationId}`), 400, "invalid_request"],
  [T.callerChosenId, "sending with another conversation's id in the body", () => send(message({ conversation_id: w.b.conversationId })), 400, "invalid_request"],
  [T.callerChosenId, "presence with another conversation's id in the query", () => presence(`?conversation_id=${w.b.conversationId}`), 400, "invalid_request"],
  [T.fileOwnership, "the picture of a member who replied only in another conversation", () => avatar(w.members.inB), 404, "member_not_found"],
  [T.fileOwnership, "the picture of a member who wrote only a note here", () => avatar(w.members.noteOnly), 404, "member_not_found"],
  [T.fileOwnership, "the picture of a member without a picture", () => avatar(w.members.noPicture), 404, "member_not_found"],
  [T.fileOwnership, "the picture of an unknown member", () => avatar("nobody-at-all"), 404, "member_not_found"],

  // --- Bodies.
  [T.crashOnNonJson, "bad JSON", () => start({ rawBody: '{"body": "hi"' }), 400, "invalid_request"],
  [T.crashOnNonJson, "an empty body", () => start({ rawBody: "" }), 400, "invalid_request"],
  [T.crashOnNonJson, "a body that is not UTF-8", () => start({ rawBody: Uint8Array.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]) }), 400, "invalid_request"],
  [T.crashOnNonJson, "JSON with a NUL character", () => startBody({ body: "a\u0000b" }), 400, "invalid_request"],
  [T.crashOnNonJson, "JSON with an unpaired surrogate", () => start({ rawBody: '{"body":"\\ud800"}' }), 400, "invalid_request"],
  [T.crashOnNonJson, "a body over 1 MiB", () => start({ rawBody: overOneMiB }), 400, "invalid_request"],
  [T.crashOnNonJson, "a message body over 1 MiB", () => send(undefined, { rawBody: overOneMiB }), 400, "invalid_request"],
  [T.crashOnNonJson, "a ticket over 1 MiB", () => fileTicket(undefined, { rawBody: overOneMiB }), 400, "invalid_request"],
  [T.crashOnNonJson, "a Content-Length claiming more than 1 MiB", () => start({ rawBody: "{}", headers: { "Content-Type": "application/json", "Content-Length": "2000000" } }), 400, "invalid_request"],
  [T.crashOnNonJson, "Content-Type text/plain", () => start({ rawBody: "{}", headers: { "Content-Type": "text/plain" } }), 400, "invalid_request"],
  [T.crashOnNonJson, "Content-Type form-urlencoded", () => send(undefined, { rawBody: "body=hi&client_id=1", headers: { "Content-Type": "application/x-www-form-urlencoded" } }), 400, "invalid_request"],
  [T.crashOnNonJson, "no Content-Type on a body", () => pageView(undefined, { rawBody: '{"page_url":"https://shop.example/"}', headers: { "Content-Type": "" } }), 400, "invalid_request"],
  [T.crashOnNonJson, "a JSON array for a body", () => startBody([]), 400, "invalid_request"],
  [T.crashOnNonJson, "JSON null for a body", () => start({ rawBody: "null" }), 400, "invalid_request"],
  [T.objectForString, "an object where the message body is a string", () => send(message({ body: { $gt: "" } })), 400, "invalid_request"],
  [T.objectForString, "a number where the client_id is a string", () => send(message({ client_id: 42 })), 400, "invalid_request"],
  [T.objectForString, "an array where the name is a string", () => startBody({ name: ["Ada"] }), 400, "invalid_request"],
  [T.objectForString, "a string where the file size is a number", () => fileTicket(ticket({ files: [file({ bytes: "68" })] })), 400, "invalid_request"],
  [T.objectForString, "a boolean where the page URL is a string", () => pageView({ page_url: true }), 400, "invalid_request"],
  [T.none, "an unknown field on start", () => startBody({ admin: true }), 400, "invalid_request"],
  [T.none, "__proto__ on a message", () => send(undefined, { rawBody: '{"body":"hi","client_id":"p1","__proto__":{"kind":"note"}}' }), 400, "invalid_request"],
  [T.none, "an unknown field in a ticket file", () => fileTicket(ticket({ files: [file({ path: "../../etc/passwd" })] })), 400, "invalid_request"],
  [T.none, "a name of 81 characters", () => startBody({ name: long(81) }), 400, "invalid_request"],
  [T.none, "an invalid email", () => startBody({ email: "not-an-email" }), 400, "invalid_request"],
  [T.none, "a message body of 4001 characters", () => send(message({ body: long(4001) })), 400, "invalid_request"],
  [T.none, "a message body of only spaces", () => send(message({ body: "   \n\t " })), 400, "invalid_request"],
  [T.none, "a client_id of 101 characters", () => send(message({ client_id: long(101) })), 400, "invalid_request"],
  [T.none, "an empty client_id", () => send(message({ client_id: "" })), 400, "invalid_request"],
  [T.none, "a message without client_id", () => send({ body: "Hello" }), 400, "invalid_request"],
  [T.lookAlikeNames, "a name with a right-to-left override", () => startBody({ name: "Ada\u202Egnp.exe" }), 400, "invalid_request"],
  [T.lookAlikeNames, "a name with a zero-width space", () => startBody({ name: "Ad\u200Ba" }), 400, "invalid_request"],
  [T.lookAlikeNames, "a ticket file name with a control character", () => fileTicket(ticket({ files: [file({ name: "photo\u0007.png" })] })), 400, "invalid_request"],
  [T.lookAlikeNames, "a ticket file name with a right-to-left override", () => fileTicket(ticket({ files: [file({ name: "invoice\u202Efdp.png" })] })), 400, "invalid_request"],
  [T.lookAlikeNames, "a ticket file name with a left-to-right mark", () => fileTicket(ticket({ files: [file({ name: "photo\u200E.png" })] })), 400, "invalid_request"],
  [T.none, "starting on an offline site without email", () => widget("conversations", { origin: ORIGIN, body: { body: "hi" } }, w.offlineSiteId), 400, "email_required"],

  // --- Notes and message rules.
  [T.none, "a visitor sending a note", () => send(message({ kind: "note" })), 400, "note_rejected"],
  [T.none, "a visitor sending kind system", () => send(message({ kind: "system" })), 400, "invalid_request"],
  [T.none, "reusing a client_id with another body", () => send({ body: "Something else", client_id: "a-1" }), 409, "client_id_conflict"],
  [T.none, "sending to a closed conversation", () => send(message(), {}, () => w.closed), 409, "conversation_closed"],

  // --- Cursors, limits and other query values.
  [T.none, "a negative cursor", () => list("?cursor=-1"), 400, "invalid_request"],
  [T.none, "a huge cursor", () => list("?cursor=99999999999999999999"), 400, "invalid_request"],
  [T.none, "a cursor past 2^31", () => list("?cursor=2147483648"), 400, "invalid_request"],
  [T.none, "a non-numeric cursor", () => list("?cursor=abc"), 400, "invalid_request"],
  [T.none, "a cursor in exponent notation", () => list("?cursor=1e3"), 400, "invalid_request"],
  [T.none, "a fractional cursor", () => list("?cursor=1.5"), 400, "invalid_request"],
  [T.none, "a cursor given twice", () => list("?cursor=0&cursor=5"), 400, "invalid_request"],
  [T.none, "a limit of 0", () => list("?limit=0"), 400, "invalid_request"],
  [T.none, "a negative limit", () => list("?limit=-5"), 400, "invalid_request"],
  [T.none, "a limit of 101", () => list("?limit=101"), 400, "invalid_request"],
  [T.none, "a huge limit", () => list("?limit=4294967296"), 400, "invalid_request"],
  [T.none, "a non-numeric limit", () => list("?limit=all"), 400, "invalid_request"],
  [T.none, "a long-poll wait over 25 s", () => list("?wait=26"), 400, "invalid_request"],
  [T.none, "presence with typing=yes", () => presence("?typing=yes"), 400, "invalid_request"],
  [T.none, "presence with typing given twice", () => presence("?typing=true&typing=false"), 400, "invalid_request"],

  // --- Tickets and their files.
  [T.svgAvatar, "a ticket file of type image/svg+xml", () => fileTicket(ticket({ files: [file({ content_type: "image/svg+xml" })] })), 400, "invalid_request"],
  [T.svgAvatar, "a ticket file of type text/html", () => fileTicket(ticket({ files: [file({ content_type: "text/html" })] })), 400, "invalid_request"],
  [T.none, "a ticket file of type application/x-msdownload", () => fileTicket(ticket({ files: [file({ content_type: "application/x-msdownload" })] })), 400, "invalid_request"],
  [T.none, "a ticket file with a negative size", () => fileTicket(ticket({ files: [file({ bytes: -1 })] })), 400, "invalid_request"],
  [T.none, "a ticket file over 10 MiB", () => fileTicket(ticket({ files: [file({ bytes: 10 * 1024 * 1024 + 1 })] })), 400, "invalid_request"],
  [T.none, "a ticket file of a huge size", () => fileTicket(ticket({ files: [file({ bytes: 1e300 })] })), 400, "invalid_request"],
  [T.none, "a ticket file of a fractional size", () => fileTicket(ticket({ files: [file({ bytes: 1.5 })] })), 400, "invalid_request"],
  [T.none, "a ticket with 11 files", () => fileTicket(ticket({ files: manyFiles(11) })), 400, "invalid_request"],
  [T.none, "a ticket file name of 256 characters", () => fileTicket(ticket({ files: [file({ name: long(256) })] })), 400, "invalid_request"],
  [T.none, "a ticket without email", () => fileTicket({ subject: "s", body: "b" }), 400, "invalid_request"],
  [T.none, "a ticket subject of 121 characters", () => fileTicket(ticket({ subject: long(121) })), 400, "invalid_request"],
  [T.none, "a ticket body of 8001 characters", () => fileTicket(ticket({ body: long(8001) })), 400, "invalid_request"],
  [T.none, "a ticket priority outside the list", () => fileTicket(ticket({ priority: "critical" })), 400, "invalid_request"],
  [T.none, "an Idempotency-Key of 101 characters", () => fileTicket(ticket(), { headers: { "Idempotency-Key": long(101, "k") } }), 400, "invalid_request"],
  [T.none, "an Idempotency-Key reused for another ticket", () => fileTicket(ticket({ subject: "Different" }), { headers: { "Idempotency-Key": w.ticketKey } }), 409, "idempotency_conflict"],
  [T.none, "a page view of a javascript: URL", () => pageView({ page_url: "javascript:alert(1)" }), 400, "invalid_request"],
  [T.none, "a page view of a relative URL", () => pageView({ page_url: "/checkout" }), 400, "invalid_request"],
  [T.none, "a page view with a visitor_id of 101 characters", () => pageView({ page_url: "https://shop.example/", visitor_id: long(101) }), 400, "invalid_request"],

  // --- Upload URLs.
  [T.fileOwnership, "an upload with a tampered signature", () => putUpload(withParam(w.uploads.pendingPng.upload_url, "signature", "A".repeat(43)), PNG_BYTES), 403, "upload_url_invalid"],
  [T.fileOwnership, "an upload with a signature from another attachment", () => putUpload(withParam(w.uploads.pendingPng.upload_url, "signature", new URL(w.uploads.otherPending.upload_url).searchParams.get("signature")), PNG_BYTES), 403, "upload_url_invalid"],
  [T.none, "an upload with a tampered expiry", () => putUpload(withParam(w.uploads.pendingPng.upload_url, "expires", String(Number(new URL(w.uploads.pendingPng.upload_url).searchParams.get("expires")) + 3600)), PNG_BYTES), 403, "upload_url_invalid"],
  [T.none, "an upload without a signature", () => putUpload(withParam(w.uploads.pendingPng.upload_url, "signature", null), PNG_BYTES), 403, "upload_url_invalid"],
  [T.none, "an upload URL past its expiry", () => putUpload(w.uploads.expiredUrl, PNG_BYTES), 403, "upload_url_expired"],
  [T.none, "an upload of another length than described", () => putUpload(w.uploads.pendingPng.upload_url, Buffer.concat([PNG_BYTES, Buffer.from("extra")])), 400, "invalid_request"],
  [T.none, "an upload shorter than its Content-Length", () => putUpload(w.uploads.pendingPng.upload_url, PNG_BYTES.subarray(0, 20), { contentLength: String(PNG_BYTES.length) }), 400, "invalid_request"],
  [T.none, "an upload of another type than described", () => putUpload(w.uploads.pendingPng.upload_url, PNG_BYTES, { contentType: "image/gif" }), 400, "invalid_request"],
  [T.svgAvatar, "an upload whose bytes are not what the type says", () => putUpload(w.uploads.pendingPng.upload_url, Buffer.alloc(PNG_BYTES.length, "<")), 400, "invalid_request"],
  [T.none, "an upload replayed after success", () => putUpload(w.uploads.done.upload_url, PNG_BYTES), 409, "already_uploaded"],
  [T.allowlistUnenforced, "an upload from an origin off the allowlist", () => putUpload(w.uploads.pendingPng.upload_url, PNG_BYTES, { origin: "https://evil.example" }), 403, "origin_not_allowed"],
  [T.none, "an upload to an unknown attachment", () => putUpload(`/api/v1/uploads/..%2F..%2Fetc%2Fpasswd${new URL(w.uploads.pendingPng.upload_url).search}`, PNG_BYTES), 403, "upload_url_invalid"],
  [T.none, "an upload to an attachment id of 101 characters", () => putUpload(`/api/v1/uploads/${long(101, "a")}${new URL(w.uploads.pendingPng.upload_url).search}`, PNG_BYTES), 400, "invalid_request"],
  [T.none, "POST instead of PUT to an upload URL", () => api.post(w.uploads.pendingPng.upload_url, { rawBody: PNG_BYTES, headers: { "Content-Type": "image/png" } }), 404, "not_found"],

  // --- Operator routes.
  [T.none, "operator list without a token", () => adminGet(`conversations?site=${w.siteId}`), 401, "unauthorized"],
  [T.none, "operator list with a wrong token", () => adminGet(`conversations?site=${w.siteId}`, "wrong-admin-token-0123456789abcdef"), 401, "unauthorized"],
  [T.none, "operator list with the token plus one character", () => adminGet(`conversations?site=${w.siteId}`, `${TEST_ADMIN_TOKEN}x`), 401, "unauthorized"],
  [T.none, "operator list with a truncated token", () => adminGet(`conversations?site=${w.siteId}`, TEST_ADMIN_TOKEN.slice(0, -1)), 401, "unauthorized"],
  [T.none, "operator list with a visitor token", () => adminGet(`conversations?site=${w.siteId}`, w.a.token), 401, "unauthorized"],
  [T.none, "operator list with the token in the query", () => adminGet(`conversations?site=${w.siteId}&token=${TEST_ADMIN_TOKEN}`), 401, "unauthorized"],
  [T.none, "operator list with the token as Basic", () => adminGet(`conversations?site=${w.siteId}`, undefined, { Authorization: `Basic ${TEST_ADMIN_TOKEN}` }), 401, "unauthorized"],
  [T.none, "operator close without a token", () => api.post(`/api/v1/admin/conversations/${w.a.conversationId}/close`), 401, "unauthorized"],
  [T.none, "operator site creation with a wrong token", () => adminPost("sites", { id: "sneaky", origins: ["https://evil.example"] }, "wrong-admin-token-0123456789abcdef"), 401, "unauthorized"],
  [T.none, "operator staff message without a token", () => api.post(`/api/v1/admin/conversations/${w.a.conversationId}/messages`, { body: { author_id: w.members.inA, body: "fake" } }), 401, "unauthorized"],
  [T.endsWith, "a site allowlist with a wildcard origin", () => adminPost("sites", { id: "wild", origins: ["https://*.shop.example"] }), 400, "invalid_request"],
  [T.endsWith, "a site allowlist with Origin null", () => adminPost("sites", { id: "nullish", origins: ["null"] }), 400, "invalid_request"],
  [T.svgAvatar, "a member picture that is SVG", () => adminPost("members", { id: "svg-member", name: "Eve", avatar: { content_type: "image/svg+xml", bytes: Buffer.from("<svg onload=alert(1)/>").toString("base64") } }), 400, "invalid_request"],
  [T.svgAvatar, "a member picture labelled PNG holding HTML", () => adminPost("members", { id: "html-member", name: "Eve", avatar: { content_type: "image/png", bytes: Buffer.from("<html><script>alert(1)</script>").toString("base64") } }), 400, "invalid_request"],
  [T.none, "a member id that already exists", () => adminPost("members", { id: w.members.inA, name: "Twin", avatar: { content_type: "image/png", bytes: PNG_BASE64 } }), 409, "already_exists"],

  // --- Line breaks and blanks in single-line fields (issue 23, item 7): refused wherever a subject,
  // a name or a title is written, since each ends up in an email header, a list row or a log line.
  [T.none, "a ticket subject with a line separator (U+2028)", () => fileTicket(ticket({ subject: "Hi\u2028Bcc: victim@example.com" })), 400, "invalid_request"],
  [T.none, "a ticket subject with a paragraph separator (U+2029)", () => fileTicket(ticket({ subject: "Hi\u2029Bcc: victim@example.com" })), 400, "invalid_request"],
  [T.none, "a ticket subject with NEL (U+0085)", () => fileTicket(ticket({ subject: "Hi\u0085Bcc: victim@example.com" })), 400, "invalid_request"],
  [T.none, "a ticket subject with CR LF", () => fileTicket(ticket({ subject: "Hi\r\nBcc: victim@example.com" })), 400, "invalid_request"],
  [T.none, "a ticket subject with a control character", () => fileTicket(ticket({ subject: "Hi\u001b[2J" })), 400, "invalid_request"],
  [T.lookAlikeNames, "a ticket filer name with NEL", () => fileTicket(ticket({ name: "Ada\u0085Bcc: victim@example.com" })), 400, "invalid_request"],
  [T.lookAlikeNames, "a visitor name with a line separator", () => startBody({ name: "Ada\u2028Lovelace" }), 400, "invalid_request"],
  [T.lookAlikeNames, "a visitor name with a paragraph separator", () => startBody({ name: "Ada\u2029Lovelace" }), 400, "invalid_request"],
  [T.lookAlikeNames, "a visitor name that is a braille blank (U+2800)", () => startBody({ name: "\u2800" }), 400, "invalid_request"],
  [T.lookAlikeNames, "a visitor name padded with braille blanks", () => startBody({ name: "Ada\u2800\u2800" }), 400, "invalid_request"],
  [T.lookAlikeNames, "a visitor name that is a Hangul filler (U+3164)", () => startBody({ name: "\u3164" }), 400, "invalid_request"],
  [T.lookAlikeNames, "a visitor email with a line separator", () => startBody({ email: "ada@example.com\u2028bcc@evil.example" }), 400, "invalid_request"],
  [T.lookAlikeNames, "a ticket file name with a line separator", () => fileTicket(ticket({ files: [file({ name: "photo\u2028.png" })] })), 400, "invalid_request"],
  [T.lookAlikeNames, "a member name with a paragraph separator", () => adminPost("members", { id: "para-member", name: "Eve\u2029Admin" }), 400, "invalid_request"],
  [T.lookAlikeNames, "a member name that is a halfwidth Hangul filler (U+FFA0)", () => adminPost("members", { id: "filler-member", name: "\uFFA0" }), 400, "invalid_request"],
  [T.lookAlikeNames, "a member renamed to a braille blank", () => adminPatch(`members/${w.members.inA}`, { name: "\u2800" }), 400, "invalid_request"],
  [T.lookAlikeNames, "a site name with NEL", () => adminPost("sites", { id: "nel-site", name: "Shop\u0085Two", origins: [ORIGIN] }), 400, "invalid_request"],
  [T.lookAlikeNames, "a widget title with a line separator", () => adminPatch(`sites/${w.siteId}`, { title: "Help\u2028desk" }), 400, "invalid_request"],
  [T.none, "a webhook description holding NUL", () => adminPost("webhooks", { url: "https://hooks.example.com/x", events: ["ticket.created"], description: "a\u0000b" }), 400, "invalid_request"],
  [T.none, "a webhook description with a line separator", () => adminPost("webhooks", { url: "https://hooks.example.com/x", events: ["ticket.created"], description: "CRM\u2028sync" }), 400, "invalid_request"],

  // --- Operator lists: only the filters they name.
  [T.filterFuzz, "an operator ticket list whose site holds NUL", () => adminGet("tickets?site=%00", true), 400, "invalid_request"],
  [T.filterFuzz, "an operator page-view list whose site holds NUL", () => adminGet("page-views?site=%00", true), 400, "invalid_request"],
  [T.filterFuzz, "an operator conversation list with a cursor (it pages nothing, so takes none)", () => adminGet(`conversations?site=${w.siteId}&cursor=99999999999999999999_x`, true), 400, "invalid_request"],
  [T.filterFuzz, "an operator conversation list without its site", () => adminGet("conversations", true), 400, "invalid_request"],
  [T.filterFuzz, "an operator ticket list with its site given twice", () => adminGet(`tickets?site=${w.siteId}&site=other`, true), 400, "invalid_request"],

  // --- The inbox's API, as signed-in staff: every filter and cursor fuzzed per class, not per bug.
  signedIn([T.filterFuzz, "an inbox list cursor past what a date can hold (issue 23, item 5)", () => inboxList("cursor=99999999999999999999_x"), 400, "invalid_request"]),
  signedIn([T.filterFuzz, "an inbox list cursor just past the latest Date", () => inboxList("cursor=8640000000000001_x"), 400, "invalid_request"]),
  signedIn([T.filterFuzz, "an inbox list cursor in the year 10000", () => inboxList("cursor=253402300800000_x"), 400, "invalid_request"]),
  signedIn([T.filterFuzz, "an inbox list cursor without its id", () => inboxList("cursor=1700000000000_"), 400, "invalid_request"]),
  signedIn([T.filterFuzz, "an inbox list cursor without its time", () => inboxList("cursor=_x"), 400, "invalid_request"]),
  signedIn([T.filterFuzz, "an inbox list cursor that is a bare number", () => inboxList("cursor=1700000000000"), 400, "invalid_request"]),
  signedIn([T.filterFuzz, "an inbox list cursor with a negative time", () => inboxList("cursor=-1_x"), 400, "invalid_request"]),
  signedIn([T.filterFuzz, "an inbox list cursor in exponent notation", () => inboxList("cursor=1e3_x"), 400, "invalid_request"]),
  signedIn([T.filterFuzz, "an inbox list cursor carrying SQL", () => inboxList(`cursor=${encodeURIComponent("1_x' OR '1'='1")}`), 400, "invalid_request"]),
  signedIn([T.filterFuzz, "an inbox list cursor given twice", () => inboxList("cursor=1_a&cursor=2_b"), 400, "invalid_request"]),
  signedIn([T.filterFuzz, "an inbox list limit of 0", () => inboxList("limit=0"), 400, "invalid_request"]),
  signedIn([T.filterFuzz, "an inbox list limit of 101", () => inboxList("limit=101"), 400, "invalid_request"]),
  signedIn([T.filterFuzz, "an inbox list limit in exponent notation", () => inboxList("limit=1e2"), 400, "invalid_request"]),
  signedIn([T.filterFuzz, "an inbox list status outside the list", () => inboxList("status=deleted"), 400, "invalid_request"]),
  signedIn([T.filterFuzz, "an inbox list assignment filter outside the list", () => inboxList("assigned=everyone"), 400, "invalid_request"]),
  signedIn([T.filterFuzz, "an inbox list site holding NUL", () => inboxList("site=%00"), 400, "invalid_request"]),
  signedIn([T.filterFuzz, "an inbox list site of 101 characters", () => inboxList(`site=${long(101)}`), 400, "invalid_request"]),
  signedIn([T.filterFuzz, "an inbox list with a filter it does not have", () => inboxList(`sort=${encodeURIComponent("id; DROP TABLE conversations")}`), 400, "invalid_request"]),
  signedIn([T.filterFuzz, "an inbox ticket list site holding NUL", () => inboxGet("tickets?site=%00"), 400, "invalid_request"]),
  signedIn([T.filterFuzz, "an inbox ticket list with a filter it does not have (sort)", () => inboxGet(`tickets?sort=${encodeURIComponent("id; DROP TABLE tickets")}`), 400, "invalid_request"]),
  signedIn([T.filterFuzz, "an inbox ticket list with a status it does not have", () => inboxGet("tickets?status=closed"), 400, "invalid_request"]),
  signedIn([T.none, "the inbox list without a session", () => inboxGet("conversations", null), 401, "unauthorized"]),
  signedIn([T.none, "the inbox list with a forged session cookie", () => api.get("/api/v1/inbox/conversations", { headers: { Cookie: "parley_session=ps_forged" } }), 401, "unauthorized"]),
  signedIn([T.none, "the inbox list with the operator token instead of a session", () => api.get("/api/v1/inbox/conversations", { admin: true }), 401, "unauthorized"]),
  signedIn([T.none, "an inbox conversation id of 101 characters", () => inboxGet(`conversations/${long(101, "c")}`), 400, "invalid_request"]),
  signedIn([T.crashOnNonJson, "an inbox conversation id holding NUL", () => inboxGet("conversations/c%00"), 400, "invalid_request"]),
  signedIn([T.none, "an inbox reply without an Origin", () => inboxReply({ body: "hi" }, { origin: null }), 403, "origin_not_allowed"]),
  signedIn([T.none, "an inbox reply from a customer's origin", () => inboxReply({ body: "hi" }, { origin: ORIGIN }), 403, "origin_not_allowed"]),
  signedIn([T.objectForString, "an inbox reply whose body is an object", () => inboxReply({ body: { $gt: "" } }), 400, "invalid_request"]),
  signedIn([T.none, "an inbox reply of 4001 characters", () => inboxReply({ body: long(4001) }), 400, "invalid_request"]),
  signedIn([T.none, "an inbox reply of kind system", () => inboxReply({ body: "hi", kind: "system" }), 400, "invalid_request"]),
  signedIn([T.none, "an inbox reply naming its author", () => inboxReply({ body: "hi", author_id: w.members.inA }), 400, "invalid_request"]),
  signedIn([T.crashOnNonJson, "an inbox reply that is not JSON", () => inboxReply(undefined, { rawBody: "body=hi", headers: { "Content-Type": "application/x-www-form-urlencoded" } }), 400, "invalid_request"]),
  signedIn([T.objectForString, "inbox typing as a string", () => inbox("post", `conversations/${w.a.conversationId}/typing`, { body: { typing: "yes" } }), 400, "invalid_request"]),
  signedIn([T.objectForString, "an inbox assignment to a number", () => inbox("post", `conversations/${w.a.conversationId}/assign`, { body: { member_id: 42 } }), 400, "invalid_request"]),
  signedIn([T.crashOnNonJson, "an inbox assignment to a member id holding NUL", () => inbox("post", `conversations/${w.a.conversationId}/assign`, { body: { member_id: "m\u0000" } }), 400, "invalid_request"]),
  signedIn([T.none, "an inbox ticket reply with an empty body", () => inbox("post", `tickets/${w.ticketId}/replies`, { body: { body: "   " } }), 400, "invalid_request"]),
  signedIn([T.none, "an agent creating a site", () => inbox("post", "sites", { body: { id: "agent-site", origins: [ORIGIN] } }), 403, "forbidden"]),
  signedIn([T.none, "an agent reading the outbox", () => inboxGet("outbox"), 403, "forbidden"]),
  signedIn([T.none, "an agent reading webhook deliveries", () => inboxGet(`webhooks/${w.webhookId}/deliveries`), 403, "forbidden"]),
  signedIn([T.lookAlikeNames, "an inbox invite whose name is a braille blank", () => inbox("post", "members/invites", { body: { email: "blank@team.example", name: "\u2800", role: "agent" } }, "owner"), 400, "invalid_request"]),
  signedIn([T.lookAlikeNames, "an inbox invite whose name hides a line separator", () => inbox("post", "members/invites", { body: { email: "ls@team.example", name: "Eve\u2028Owner", role: "owner" } }, "owner"), 400, "invalid_request"]),
  signedIn([T.lookAlikeNames, "an inbox member renamed with NEL", () => inbox("patch", `members/${w.staff.agent.id}`, { body: { name: "Andy\u0085Agent" } }, "owner"), 400, "invalid_request"]),
  signedIn([T.lookAlikeNames, "an inbox site named across a paragraph separator", () => inbox("post", "sites", { body: { id: "para-site", name: "Shop\u2029Two", origins: [ORIGIN] } }, "owner"), 400, "invalid_request"]),
  signedIn([T.lookAlikeNames, "an inbox site renamed to a Hangul filler", () => inbox("patch", `sites/${w.siteId}`, { body: { name: "\u3164" } }, "owner"), 400, "invalid_request"]),

  // --- The agent's workspace: saved replies and labels (round 3).
  signedIn([T.filterFuzz, "an inbox list label holding NUL", () => inboxList("label=%00"), 400, "invalid_request"]),
  signedIn([T.filterFuzz, "an inbox list label of 101 characters", () => inboxList(`label=${long(101)}`), 400, "invalid_request"]),
  signedIn([T.filterFuzz, "an inbox list label given twice", () => inboxList("label=a&label=b"), 400, "invalid_request"]),
  signedIn([T.filterFuzz, "an inbox list label that is empty", () => inboxList("label="), 400, "invalid_request"]),
  signedIn([T.none, "an agent creating a label", () => inbox("post", "labels", { body: { name: "Agent's", color: "#112233" } }), 403, "forbidden"]),
  signedIn([T.none, "an owner's label from a customer's origin", () => inbox("post", "labels", { origin: ORIGIN, body: { name: "Cross", color: "#112233" } }, "owner"), 403, "origin_not_allowed"]),
  signedIn([T.none, "a label coloured by name", () => inbox("post", "labels", { body: { name: "Red", color: "red" } }, "owner"), 400, "invalid_request"]),
  signedIn([T.objectForString, "a label whose name is an object", () => inbox("post", "labels", { body: { name: { $ne: "" }, color: "#112233" } }, "owner"), 400, "invalid_request"]),
  signedIn([T.lookAlikeNames, "a label named with a Hangul filler", () => inbox("post", "labels", { body: { name: "\u3164", color: "#112233" } }, "owner"), 400, "invalid_request"]),
  signedIn([T.lookAlikeNames, "a label named across a right-to-left override", () => inbox("post", "labels", { body: { name: "VIP\u202Egnp", color: "#112233" } }, "owner"), 400, "invalid_request"]),
  signedIn([T.none, "renaming an unknown label", () => inbox("patch", "labels/lb_nope", { body: { name: "X" } }, "owner"), 404, "not_found"]),
  signedIn([T.none, "an agent deleting a label", () => inbox("delete", "labels/lb_nope"), 403, "forbidden"]),
  signedIn([T.callerChosenId, "labels set with an id that names no label", () => inbox("put", `conversations/${w.a.conversationId}/labels`, { body: { labels: ["lb_nope"] } }), 400, "invalid_request"]),
  signedIn([T.objectForString, "labels set as an object", () => inbox("put", `conversations/${w.a.conversationId}/labels`, { body: { labels: { 0: "lb_nope" } } }), 400, "invalid_request"]),
  signedIn([T.crashOnNonJson, "labels set with an id holding NUL", () => inbox("put", `conversations/${w.a.conversationId}/labels`, { body: { labels: ["lb\u0000"] } }), 400, "invalid_request"]),
  signedIn([T.none, "labels set on an unknown conversation", () => inbox("put", "conversations/no-such-conversation/labels", { body: { labels: [] } }), 404, "conversation_not_found"]),
  signedIn([T.none, "labels set without an Origin", () => inbox("put", `conversations/${w.a.conversationId}/labels`, { origin: null, body: { labels: [] } }), 403, "origin_not_allowed"]),
  signedIn([T.none, "an agent creating a team saved reply", () => inbox("post", "saved-replies", { body: { shortcut: "team", title: "Team", body: "Hi", scope: "team" } }), 403, "forbidden"]),
  signedIn([T.none, "a saved reply shortcut with its slash", () => inbox("post", "saved-replies", { body: { shortcut: "/greet", title: "Greet", body: "Hi", scope: "personal" } }), 400, "invalid_request"]),
  signedIn([T.none, "a saved reply shortcut in capitals", () => inbox("post", "saved-replies", { body: { shortcut: "Greet", title: "Greet", body: "Hi", scope: "personal" } }), 400, "invalid_request"]),
  signedIn([T.objectForString, "a saved reply whose body is an object", () => inbox("post", "saved-replies", { body: { shortcut: "greet", title: "Greet", body: { $gt: "" }, scope: "personal" } }), 400, "invalid_request"]),
  signedIn([T.callerChosenId, "a saved reply naming its owner", () => inbox("post", "saved-replies", { body: { shortcut: "greet", title: "Greet", body: "Hi", scope: "personal", member_id: w.staff.owner.id } }), 400, "invalid_request"]),
  signedIn([T.none, "a saved reply titled across two lines", () => inbox("post", "saved-replies", { body: { shortcut: "greet", title: "Greet\nBcc: x", body: "Hi", scope: "personal" } }), 400, "invalid_request"]),
  signedIn([T.none, "changing an unknown saved reply", () => inbox("patch", "saved-replies/sr_nope", { body: { title: "X" } }), 404, "not_found"]),
  signedIn([T.none, "deleting a saved reply without a session", () => inbox("delete", "saved-replies/sr_nope", {}, null), 401, "unauthorized"]),

  // --- Routes and methods.
  [T.none, "an unknown API route", () => api.get("/api/v1/chat/visitor/secrets", { origin: ORIGIN, token: w.a.token }), 404, "not_found"],
  [T.none, "DELETE on messages", () => api.delete("/api/v1/chat/visitor/messages", as(w.a)), 404, "not_found"],
  [T.none, "GET on a widget route", () => api.get(`/api/v1/chat/widget/${w.siteId}/conversations`, { origin: ORIGIN }), 404, "not_found"],
  [T.none, "a preflight from an origin off the allowlist", () => api.options(`/api/v1/chat/widget/${w.siteId}/conversations`, { origin: "https://evil.example" }), 403, "origin_not_allowed"],
];

const ALLOWED_ORIGINS = new Set([ORIGIN, OTHER_ORIGIN, THIRD_ORIGIN]);
const ran: Row[] = [];
afterAll(() => {
  const signedInRan = ran.filter((row) => SIGNED_IN.has(row)).length;
  process.stdout.write(`hostile input: ${ran.length} of ${rows.length} cases sent (${signedInRan} with a staff session)\n`);
});
const label = ([threat, name, , status, code]: Row) => `${threat ? `[${threat}] ` : ""}${name} → ${status} ${code}`;

describe("hostile input: every line is refused with its status and code, and changes nothing", () => {
  test("the table holds at least 60 cases over every endpoint family", () => {
    expect(rows.length).toBeGreaterThanOrEqual(60);
  });

  test.each(rows.map((row) => [label(row), row] as const))("%s", async (_label, row) => {
    const [, , request, status, code] = row;
    const state = SIGNED_IN.has(row) ? async () => exceptActivity(await stateSnapshot()) : stateSnapshot;
    const before = await state();
    const response = await request();
    ran.push(row);
    expect(response.status).toBeLessThan(500);
    expectError(response, status, code);
    expect(await state()).toEqual(before);

    // Zammad CVE-2017-6080: CORS only ever for an allowed origin, never with credentials.
    const allowOrigin = response.headers.get("access-control-allow-origin");
    if (allowOrigin !== null) expect(ALLOWED_ORIGINS.has(allowOrigin)).toBe(true);
    expect(response.headers.get("access-control-allow-credentials")).toBeNull();
    expect(response.headers.get("vary")).toMatch(/Origin/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    // Nothing internal in the message: no stack, no SQL, no table names.
    expect(response.json.message).not.toMatch(/\bat .+:\d+|SELECT|INSERT|visitor_tokens|prisma/i);
  });
});

describe("the refusals are not blanket refusals", () => {
  test("[Rocket.Chat Livechat unauthenticated message read] a token reads its own conversation's public messages: no note, nothing of another conversation", async () => {
    const listed = await list("?limit=100");
    expect(listed.status).toBe(200);
    const items = listed.json.result.items as { conversation_id: string; kind: string; body: string }[];
    expect(items.map((item) => item.body)).toEqual(["Hello, is anyone there?", "Hi, how can I help?", "I am here too."]);
    expect(items.every((item) => item.conversation_id === w.a.conversationId && item.kind === "message")).toBe(true);
  });

  test("[Rocket.Chat CVE-2026-48616] the picture of a member who replied in this very conversation is readable", async () => {
    expect((await avatar(w.members.inA)).status).toBe(200);
    expect((await avatar(w.members.inB, () => w.b)).status).toBe(200);
  });

  test("[Zammad CVE-2017-6080] CORS answers only an allowed origin — errors included — and never with credentials", async () => {
    const preflight = await api.options(`/api/v1/chat/widget/${w.siteId}/conversations`, { origin: OTHER_ORIGIN });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(OTHER_ORIGIN);
    const refusedFromAllowed = await startBody({ name: long(81) });
    expect(refusedFromAllowed.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    for (const response of [await start({ origin: "https://evil.example" }), await listAs({ origin: "https://evil.example", token: w.a.token })]) {
      expect(response.headers.get("access-control-allow-origin")).toBeNull();
    }
    for (const response of [preflight, refusedFromAllowed]) expect(response.headers.get("access-control-allow-credentials")).toBeNull();
  });

  test("the state snapshot notices a change that adds no row", async () => {
    const typing = () => presence("?typing=true");
    await typing();
    const before = await stateSnapshot();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await typing()).status).toBe(200); // moves expires_at: an UPDATE, same row count
    const after = await stateSnapshot();
    expect(after.tables.presence!.rows).toBe(before.tables.presence!.rows);
    expect(after).not.toEqual(before);
  });
});
