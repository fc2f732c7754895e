// The code → status table of decisions.md, plus the operator API's own codes. Services throw
// AppError; the pipeline (lib/http/route.ts) turns any throw into the envelope exactly once.

export const statusOfCode = {
  invalid_request: 400,
  email_required: 400,
  note_rejected: 400,
  unauthorized: 401,
  token_expired: 401,
  origin_not_allowed: 403,
  origin_mismatch: 403,
  identity_invalid: 403,
  upload_url_invalid: 403,
  upload_url_expired: 403,
  site_not_found: 404,
  member_not_found: 404,
  conversation_not_found: 404,
  not_found: 404,
  client_id_conflict: 409,
  conversation_closed: 409,
  idempotency_conflict: 409,
  already_exists: 409,
  already_uploaded: 409,
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
