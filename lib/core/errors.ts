// The code → status table of decisions.md, plus the operator API's own codes. Services throw
// AppError; the pipeline (lib/api/route.ts) turns any throw into the envelope exactly once.

export const statusOfCode = {
  invalid_request: 400,
  email_required: 400,
  note_rejected: 400,
  invite_invalid: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  token_expired: 401,
  origin_not_allowed: 403,
  origin_mismatch: 403,
  identity_invalid: 403,
  upload_url_invalid: 403,
  upload_url_expired: 403,
  forbidden: 403,
  site_not_found: 404,
  member_not_found: 404,
  conversation_not_found: 404,
  not_found: 404,
  client_id_conflict: 409,
  conversation_closed: 409,
  idempotency_conflict: 409,
  already_exists: 409,
  already_uploaded: 409,
  upload_incomplete: 409,
  last_owner: 409,
  rating_closed: 409,
  payload_too_large: 413,
  rate_limited: 429,
  daily_allowance_exhausted: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof statusOfCode;

export interface FieldProblem {
  path: string;
  problem: string;
}

export interface AppErrorOptions {
  fields?: FieldProblem[];
  /** Seconds, sent as Retry-After. */
  retryAfter?: number;
  headers?: Record<string, string>;
}

export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: AppErrorOptions = {},
  ) {
    super(message);
    this.status = statusOfCode[code];
  }
}

export const invalidRequest = (message: string, fields?: FieldProblem[]) =>
  new AppError("invalid_request", message, { fields });

/**
 * The client went away before its request body arrived in full (Node reports ECONNRESET, which
 * would otherwise read as a lost database): answered 400 if anyone still listens, logged as a
 * client abort, never as an outage.
 */
export class ClientAbortError extends AppError {
  constructor() {
    super("invalid_request", "The request body could not be read to the end.");
  }
}

/** A validation error lists at most this many problems; `fields_omitted` counts the rest. */
export const MAX_FIELD_PROBLEMS = 20;
/** A problem's path (an unknown key can be as long as the body) is cut to this many characters. */
export const MAX_FIELD_PATH_LENGTH = 100;

export const shortPath = (path: string) => (path.length > MAX_FIELD_PATH_LENGTH ? `${path.slice(0, MAX_FIELD_PATH_LENGTH - 1)}…` : path);

/** The listed problems and how many more were left out. */
export function capFields(fields: FieldProblem[]): { fields: FieldProblem[]; omitted: number } {
  return {
    fields: fields.slice(0, MAX_FIELD_PROBLEMS).map(({ path, problem }) => ({ path: shortPath(path), problem })),
    omitted: Math.max(0, fields.length - MAX_FIELD_PROBLEMS),
  };
}
