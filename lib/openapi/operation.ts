import type { z } from "zod";
import type { RouteContract } from "../api/route";
import type { ErrorCode } from "../core/errors";

// One operation of the API document: what a route takes and answers (operations.ts lists them).

export type Family = RouteContract["family"];
type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

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
