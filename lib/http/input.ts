import type { z } from "zod";
import { AppError, ClientAbortError, invalidRequest, MAX_FIELD_PROBLEMS, shortPath, type FieldProblem } from "../core/errors";

export const MAX_BODY_BYTES = 1024 * 1024;
export const MAX_PATH_ID_LENGTH = 100;

const JSON_MEDIA_TYPE = /^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/** Reads a JSON body: right Content-Type, at most 1 MiB (counted while reading), valid UTF-8 and JSON. */
export async function readJsonBody(request: Request): Promise<unknown> {
  checkJsonContentType(request.headers.get("content-type"));
  const declaredLength = Number(request.headers.get("content-length") ?? "0");
  if (declaredLength > MAX_BODY_BYTES) throw bodyTooLarge();
  return parseJsonBytes(await readCapped(request, MAX_BODY_BYTES, bodyTooLarge));
}

/**
 * Reads a raw body of at most `maxBytes` (counted while reading): 413 `payload_too_large` beyond.
 * With `discardUpTo`, a body over the limit is first read to its end and dropped, up to that many
 * bytes in all, so that a client still sending reads the 413 instead of a connection reset.
 */
export async function readRawBody(request: Request, maxBytes: number, options: { discardUpTo?: number } = {}): Promise<Uint8Array> {
  const tooLarge = () => new AppError("payload_too_large", `The request body exceeds ${maxBytes} bytes.`);
  if (Number(request.headers.get("content-length") ?? "0") > maxBytes) {
    await discardBody(request, options.discardUpTo ?? 0);
    throw tooLarge();
  }
  return readCapped(request, maxBytes, tooLarge, options.discardUpTo ?? 0);
}

/**
 * Reads what is left of a body and drops it, up to `maxBytes` (then stops reading): an answer
 * given before the body has all arrived (a 401, a 413) then reaches a client that is still
 * sending, where closing on unread bytes would reset the connection under the answer.
 */
export async function discardBody(request: Request, maxBytes: number): Promise<void> {
  if (!request.body || request.body.locked) return;
  await dropRest(request.body.getReader(), 0, maxBytes);
}

/** Reads and drops until the end or past `maxBytes` read in all (counting `alreadyRead`); a stream left unfinished is cancelled. */
async function dropRest(reader: ReadableStreamDefaultReader<Uint8Array>, alreadyRead: number, maxBytes: number): Promise<void> {
  let total = alreadyRead;
  while (total <= maxBytes) {
    const next = await reader.read().catch(() => null);
    if (next === null || next.done) return;
    total += next.value.byteLength;
  }
  await reader.cancel().catch(() => {});
}

export function checkJsonContentType(contentType: string | null): void {
  if (!JSON_MEDIA_TYPE.test((contentType ?? "").trim())) {
    throw invalidRequest("Content-Type must be application/json.");
  }
}

/** A body's bytes as JSON: valid UTF-8 and JSON, or 400. */
export function parseJsonBytes(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw invalidRequest("The request body is not valid UTF-8.");
  }
  try {
    return JSON.parse(text);
  } catch {
    throw invalidRequest("The request body is not valid JSON.");
  }
}

const bodyTooLarge = () => invalidRequest(`The request body exceeds ${MAX_BODY_BYTES} bytes.`);

async function readCapped(request: Request, maxBytes: number, tooLarge: () => AppError, discardUpTo = 0): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      // The client hung up mid-body (Node reports it as ECONNRESET): its problem, not the database's.
      throw new ClientAbortError();
    });
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      chunks.length = 0;
      await dropRest(reader, total, discardUpTo);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

// Like every string field: no U+0000 (PostgreSQL cannot take it: a lookup would fail with a 500)
// and no unpaired surrogates.
const storable = (value: string) => !value.includes("\u0000") && value.isWellFormed();

/** Query parameters as a plain object; a parameter given twice is an error, not a silent pick. */
export function readQuery(params: URLSearchParams): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of params) {
    if (Object.hasOwn(query, key)) throw invalidRequest(`Query parameter '${key}' is given more than once.`);
    if (!storable(key) || !storable(value)) {
      throw invalidRequest("Query parameters must not contain U+0000.", [{ path: storable(key) ? key : "query", problem: "must not contain U+0000" }]);
    }
    query[key] = value;
  }
  return query;
}

export function parsePathId(value: unknown, name: string): string {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_PATH_ID_LENGTH) {
    throw invalidRequest(`Path parameter '${name}' must be 1 to ${MAX_PATH_ID_LENGTH} characters.`, [
      { path: name, problem: `must be 1 to ${MAX_PATH_ID_LENGTH} characters` },
    ]);
  }
  if (!storable(value)) {
    throw invalidRequest(`Path parameter '${name}' must not contain U+0000.`, [{ path: name, problem: "must not contain U+0000" }]);
  }
  return value;
}

/** Validates with a zod schema; failures become 400 invalid_request listing each field's problem. */
export function parseWith<Schema extends z.ZodType>(schema: Schema, input: unknown, what: string): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const fields = result.error.issues.flatMap(toFieldProblems);
  const first = fields[0];
  const more = fields.length > MAX_FIELD_PROBLEMS ? ` (${fields.length} problems; the first ${MAX_FIELD_PROBLEMS} are listed)` : "";
  const summary = first ? `${shortPath(first.path) || what}: ${first.problem.slice(0, 100)}${more}` : "invalid";
  throw invalidRequest(`Invalid ${what}. ${summary}`, fields); // the list is capped where it is sent (respond.ts)
}

function toFieldProblems(issue: z.core.$ZodIssue): FieldProblem[] {
  const path = issue.path.map(String).join(".");
  if (issue.code === "unrecognized_keys") {
    return issue.keys.map((key) => ({ path: path ? `${path}.${key}` : key, problem: "unknown field" }));
  }
  return [{ path, problem: issue.message }];
}
