import fc from "fast-check";
import { api, type ApiResponse } from "./api";

// Arbitrary requests for the property suite, and the oracles that say — from decisions.md, not
// from the service's own schemas — whether a request is valid. A verdict is "valid", "invalid",
// or "unsure" where the rules leave room (e.g. exotic but well-formed e-mail addresses).

export type Verdict = "valid" | "invalid" | "unsure";

export const verdictOf = (...verdicts: Verdict[]): Verdict =>
  verdicts.includes("invalid") ? "invalid" : verdicts.includes("unsure") ? "unsure" : "valid";
const when = (condition: boolean): Verdict => (condition ? "valid" : "invalid");

export type Body =
  | { kind: "none" }
  | { kind: "json"; value: unknown }
  | { kind: "raw"; text: string }
  | { kind: "bytes"; bytes: Uint8Array };

export interface Probe<Auth = string | undefined> {
  origin: string | undefined;
  auth: Auth;
  contentType: string | undefined;
  extraHeaders: Record<string, string>;
  query: [string, string][];
  body: Body;
}

// --- Generators -------------------------------------------------------------------------------

/** Any UTF-16 code unit: NUL, controls and lone surrogates included. */
const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));
const printable = fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code));
const latin1 = fc.integer({ min: 0x20, max: 0xff }).filter((code) => code !== 0x7f).map((code) => String.fromCharCode(code));

export const headerValue = fc.string({ unit: fc.oneof({ weight: 4, arbitrary: printable }, { weight: 1, arbitrary: latin1 }), maxLength: 40 });

export const weirdString = fc.oneof(
  fc.string({ unit: anyCodeUnit, maxLength: 24 }),
  fc.string({ unit: "grapheme", maxLength: 24 }),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "a\ud800b",
    "\udc00",
    "Ada\u202Egnp.exe",
    "A\u200Bda",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "../../etc/passwd",
    "%00",
    "null",
    "\u{1F600}",
    "e\u0301",
    "Ada\u2028Bcc: x@example.com",
    "Ada\u2029",
    "Ada\u0085",
    "\u2800",
    "Ada\u3164",
    "=?utf-8?B?SGkNCkJjYzogdmljdGltQGV4YW1wbGUuY29t?=",
  ),
);

export const anyJson = fc.jsonValue({ maxDepth: 2 });
const overLimit = (max: number) => fc.integer({ min: max + 1, max: max + 3 }).map((length) => "x".repeat(length));
const atLimit = (max: number) => fc.constant("y".repeat(max));

/** A field's value: mostly plausible, often hostile (wrong type, over the bound, odd characters). */
export const fieldValue = (plausible: fc.Arbitrary<unknown>, max?: number) =>
  fc.oneof(
    { weight: 16, arbitrary: plausible },
    { weight: 2, arbitrary: weirdString },
    { weight: 1, arbitrary: anyJson },
    ...(max === undefined ? [] : [{ weight: 1, arbitrary: overLimit(max) }, { weight: 1, arbitrary: atLimit(max) }]),
  );

const unknownKey = fc.oneof(fc.constantFrom("conversation_id", "admin", "__proto__", "constructor", "id", "site_id", "token"), fc.string({ maxLength: 12 }));

/**
 * An object with some of `fields` (mostly with all of `required`, now and then without) and, now
 * and then, one field nobody asked for.
 */
export function shapedObject(fields: Record<string, fc.Arbitrary<unknown>>, required: string[] = []): fc.Arbitrary<Record<string, unknown>> {
  const object = fc.oneof(
    { weight: required.length > 0 ? 6 : 0, arbitrary: fc.record(fields, { requiredKeys: required }) },
    { weight: 1, arbitrary: fc.record(fields, { requiredKeys: [] }) },
  );
  const extra = fc.oneof({ weight: 9, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.tuple(unknownKey, anyJson) });
  return fc
    .tuple(object, extra)
    .map(([object, extra]) => (extra ? { ...object, [extra[0]]: extra[1] } : (object as Record<string, unknown>)));
}

/** A request body: mostly JSON shaped like the endpoint's, sometimes any JSON, text or bytes at all. */
export const bodyFrom = (shaped: fc.Arbitrary<unknown>): fc.Arbitrary<Body> =>
  fc.oneof(
    { weight: 16, arbitrary: shaped.map((value) => ({ kind: "json" as const, value })) },
    { weight: 1, arbitrary: anyJson.map((value) => ({ kind: "json" as const, value })) },
    { weight: 1, arbitrary: fc.string({ unit: anyCodeUnit, maxLength: 40 }).map((text) => ({ kind: "raw" as const, text })) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 40 }).map((bytes) => ({ kind: "bytes" as const, bytes })) },
    { weight: 1, arbitrary: fc.constant({ kind: "none" as const }) },
  );

export const originFrom = (allowed: string, others: string[]) =>
  fc.oneof(
    { weight: 16, arbitrary: fc.constant(allowed) },
    { weight: 1, arbitrary: fc.constantFrom(...others) },
    { weight: 1, arbitrary: headerValue },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );

export const JSON_TYPES = ["application/json", "application/json; charset=utf-8"];
const NOT_JSON_TYPES = ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", "application/jsonp", "application/json; charset=latin1"];
export const contentTypeArb = fc.oneof(
  { weight: 16, arbitrary: fc.constantFrom(...JSON_TYPES) },
  { weight: 1, arbitrary: fc.constantFrom(...NOT_JSON_TYPES) },
  { weight: 1, arbitrary: headerValue },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

// Headers a client can write that the service must not be swayed by. (Content-Length, Host and
// the like belong to the HTTP layer, not to a route handler.)
const SIDE_HEADERS = ["x-forwarded-for", "x-real-ip", "forwarded", "x-http-method-override", "cookie", "referer", "user-agent", "accept", "x-requested-with"];
export const extraHeadersArb = fc.dictionary(fc.constantFrom(...SIDE_HEADERS), headerValue, { maxKeys: 3 });

/** Query pairs: known keys with plausible or hostile values, repeated keys, unknown keys. */
export function queryFrom(known: Record<string, fc.Arbitrary<string>>, unknownKeys: fc.Arbitrary<string>) {
  const knownPair = fc.constantFrom(...Object.keys(known)).chain((key) => known[key]!.map((value) => [key, value] as [string, string]));
  const pair = fc.oneof({ weight: 4, arbitrary: knownPair }, { weight: 1, arbitrary: fc.tuple(unknownKeys, fc.string({ unit: anyCodeUnit, maxLength: 12 })) });
  return fc.array(pair, { maxLength: 3 });
}

// --- Sending ----------------------------------------------------------------------------------

export function sendProbe(method: string, path: string, probe: Probe, authorization?: string): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...probe.extraHeaders };
  // Sent as a header of its own, so an empty Origin goes out empty rather than not at all.
  if (probe.origin !== undefined) headers.Origin = probe.origin;
  if (probe.contentType !== undefined) headers["Content-Type"] = probe.contentType;
  if (authorization !== undefined) headers.Authorization = authorization;
  const search = new URLSearchParams(probe.query).toString();
  const url = search ? `${path}?${search}` : path;
  const withBody = method !== "GET";
  const rawBody = !withBody
    ? undefined
    : probe.body.kind === "json"
      ? JSON.stringify(probe.body.value)
      : probe.body.kind === "raw"
        ? probe.body.text
        : probe.body.kind === "bytes"
          ? probe.body.bytes
          : undefined;
  // Without a Content-Type of its own, a body goes with none at all (the helper would add JSON's).
  if (rawBody !== undefined && probe.contentType === undefined) headers["Content-Type"] = "";
  return api[method.toLowerCase() as "get"](url, { rawBody, headers });
}

/** The body as the service receives it: JSON round-tripped, or undefined when it cannot be JSON. */
export function wireJson(probe: Probe): { parsed: true; value: unknown } | { parsed: false } {
  const { body } = probe;
  if (body.kind === "json") return { parsed: true, value: JSON.parse(JSON.stringify(body.value) ?? "null") };
  const text = body.kind === "raw" ? body.text : body.kind === "bytes" ? decodeUtf8(body.bytes) : "";
  if (text === undefined) return { parsed: false };
  try {
    // What the wire carries for a string body is its UTF-8 encoding, lone surrogates replaced.
    return { parsed: true, value: JSON.parse(new TextDecoder().decode(new TextEncoder().encode(text))) };
  } catch {
    return { parsed: false };
  }
}

function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

// --- Oracles ----------------------------------------------------------------------------------

const storable = (value: string) => !value.includes("\u0000") && value.isWellFormed();
// threats.md: names refuse controls and invisible format characters (Cc, Cf); issue 23: line and
// paragraph separators (Zl, Zp) and characters drawn blank (U+2800 braille blank and its kin). ZWJ
// and ZWNJ may stay where a script or an emoji sequence needs them, and other default-ignorables
// may go: unsure.
const DECEPTIVE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u2800\u{1D159}\u{16FE4}]/u;
// Issue 23: a single-line field (a subject) holds no control, line or paragraph separator.
const LINE_BREAK_OR_CONTROL = /[\p{Cc}\p{Zl}\p{Zp}]/u;
const JOINERS_AND_IGNORABLES = /[\u200C\u200D\p{Default_Ignorable_Code_Point}]/u;

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export const onlyKeys = (value: Record<string, unknown>, allowed: string[]) => Object.keys(value).every((key) => allowed.includes(key));

/** Any string field: storable, at most `max` UTF-16 units. */
export const text = (value: unknown, max: number): Verdict => when(typeof value === "string" && storable(value) && value.length <= max);

/** Free text that must say something: 1..max after trimming. */
export const requiredText = (value: unknown, max: number): Verdict =>
  when(typeof value === "string" && storable(value) && value.trim().length >= 1 && value.trim().length <= max);

/** A subject: required text on one line (checked once trimmed: what surrounds it is trimmed away). */
export const singleLine = (value: unknown, max: number): Verdict =>
  verdictOf(requiredText(value, max), when(typeof value === "string" && !LINE_BREAK_OR_CONTROL.test(value.trim())));

/** Names: as required text, without control or invisible characters ("trim names; reject control characters"). */
export const displayName = (value: unknown, max: number): Verdict =>
  verdictOf(
    requiredText(value, max),
    when(typeof value === "string" && !DECEPTIVE.test(value.trim().replace(/[\u200C\u200D]/gu, ""))),
    typeof value === "string" && JOINERS_AND_IGNORABLES.test(value) ? "unsure" : "valid",
  );

/** A file's name: normalised to NFC, then a display name (lib/core/validation/file-names.ts). */
export const fileName = (value: unknown, max: number): Verdict => displayName(typeof value === "string" ? value.normalize("NFC") : value, max);

/** A one-line value as sent (a page's title, a referrer, a URL): at most max, no control character or line/paragraph separator. */
export const oneLineText = (value: unknown, max: number): Verdict =>
  verdictOf(text(value, max), when(typeof value === "string" && !LINE_BREAK_OR_CONTROL.test(value)));

/** Client-chosen ids: 1..max, on one line (no control character, U+2028 or U+2029). */
export const clientId = (value: unknown, max = 100): Verdict =>
  when(typeof value === "string" && value.length >= 1 && value.length <= max && storable(value) && !LINE_BREAK_OR_CONTROL.test(value));

const PLAIN_EMAIL = /^[A-Za-z0-9_+-]+(\.[A-Za-z0-9_+-]+)*@([A-Za-z0-9]+(-+[A-Za-z0-9]+)*\.)+[A-Za-z]{2,}$/;
/** Valid when plainly so, invalid when plainly not, unsure for the exotic forms RFC 5322 allows. */
export function email(value: unknown): Verdict {
  if (typeof value !== "string" || !storable(value)) return "invalid";
  const trimmed = value.trim();
  if (trimmed.length > 254 || !/^[^@\s]+@[^@\s]+$/.test(trimmed)) return "invalid";
  return PLAIN_EMAIL.test(trimmed) ? "valid" : "unsure";
}

export const httpUrl = (value: unknown, max: number): Verdict =>
  verdictOf(oneLineText(value, max), when(typeof value === "string" && URL.canParse(value) && ["http:", "https:"].includes(new URL(value).protocol)));

/** A keyset cursor as the inbox hands it out: `<epoch ms>_<id>`, the time at most 9999-12-31T23:59:59.999Z. */
export const keysetCursor = (value: string): Verdict => {
  const match = /^(\d{1,15})_[A-Za-z0-9._-]{1,100}$/.exec(value);
  return when(match !== null && Number(match[1]) <= 253_402_300_799_999);
};

/** A query integer: digits only (no sign, exponent or fraction), within [min, max]. */
export const queryInteger = (value: string, min: number, max: number): Verdict =>
  when(/^\d{1,10}$/.test(value) && Number(value) >= min && Number(value) <= max);

/** Query pairs against a table of known keys; a repeated key is an error, not a silent pick. */
export function queryVerdict(query: [string, string][], rules: Record<string, (value: string) => Verdict>): Verdict {
  const keys = query.map(([key]) => key);
  if (new Set(keys).size !== keys.length) return "invalid";
  return verdictOf(...query.map(([key, value]) => (rules[key] ? rules[key]!(value) : "invalid")));
}

/** JSON by its Content-Type: the two usual spellings are; others naming JSON may be (media types are case-insensitive). */
export function jsonContentType(contentType: string | undefined): Verdict {
  if (contentType === undefined) return "invalid";
  if (JSON_TYPES.includes(contentType.trim())) return "valid";
  if (NOT_JSON_TYPES.includes(contentType)) return "invalid";
  return /json/i.test(contentType) ? "unsure" : "invalid";
}
