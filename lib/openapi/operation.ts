import type { z } from "zod";
import type { RouteContract } from "../api/route";
import type { ErrorCode } from "../core/errors";

// One operation of the API document: what a route takes and answers (operations.ts lists them).

export type Family = RouteContract["family"];
export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface Operation {
  method: Method;
  /** OpenAPI path template: `/api/v1/chat/widget/{siteID}/conversations`. */
  path: string;
  family: Family;
  summary: string;
  description?: string;
  /** Not in the visitor-service spec: a Parley extension (decisions.md, docs/api.md). */
  extension?: boolean;
  body?: z.ZodType;
  query?: z.ZodType;
  /** A raw (non-JSON) body: the upload PUT. */
  rawBody?: readonly string[];
  headers?: { name: string; description: string; schema: Record<string, unknown> }[];
  /** Success statuses and their `result` (null: `result` is null). */
  answers: Partial<Record<200 | 201 | 202, z.ZodType | null>>;
  /** A success that is not the JSON envelope: a file download, the inbox's event stream. */
  rawAnswer?: { status: 200; contentType: string; description: string };
  /** A browser navigation answered with 302 and a Location (single sign-on), described. */
  redirect?: string;
  /** Error codes beyond the family's common ones (see FAMILY_ERRORS). */
  errors?: ErrorCode[];
}

/** An operation as its file writes it: the method, path and family come from where its route file lives. */
export type OperationSpec = Omit<Operation, "method" | "path" | "family">;

/** A route file's folder under app/api (`v1/inbox/conversations/[id]`), then its operations by method. */
export type RouteOperations = Record<string, Partial<Record<Method, OperationSpec>>>;

// The family each part of the API belongs to, as its route files' wrappers say (widgetRoute,
// visitorRoute…; tests/contract/openapi.test.ts checks each operation's against its route's).
const FAMILY_BY_PREFIX: [string, Family][] = [
  ["/api/v1/chat/widget", "widget"],
  ["/api/v1/chat/visitor", "visitor"],
  ["/api/v1/admin", "admin"],
  ["/api/v1/inbox", "inbox"],
  ["/api/v1/uploads", "upload"],
  ["/api/v1/cron", "cron"],
  ["/api/v1/inbound", "inbound"],
  ["/api/health", "probe"],
  ["/api/ready", "probe"],
];

/** The OpenAPI path of a route folder: `[param]` becomes `{param}`, as the contract test reads app/api. */
export const pathOf = (folder: string): string =>
  `/api/${folder
    .split("/")
    .map((segment) => segment.replace(/^\[(?:\.\.\.)?(\w+)\]$/, "{$1}"))
    .join("/")}`;

export function familyOf(path: string): Family {
  const found = FAMILY_BY_PREFIX.find(([prefix]) => path === prefix || path.startsWith(`${prefix}/`));
  if (!found) throw new Error(`No API family for ${path}`);
  return found[1];
}

/** The operations of some route files, each given its method, path and family by its place. */
export function routes(byFolder: RouteOperations): Operation[] {
  return Object.entries(byFolder).flatMap(([folder, methods]) => {
    const path = pathOf(folder);
    const family = familyOf(path);
    return Object.entries(methods).map(([method, spec]) => ({ method: method as Method, path, family, ...spec }));
  });
}
