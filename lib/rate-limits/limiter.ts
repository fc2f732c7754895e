/** The outcome of counting one request against a limit. */
export interface LimitOutcome {
  success: boolean;
  limit: number;
  remaining: number;
  /** Unix time (ms) at which the current window ends. */
  reset: number;
}

export interface Limiter {
  limit(identifier: string): Promise<LimitOutcome>;
  /** The same outcome without counting anything (whether the next `limit` would pass). */
  peek(identifier: string): Promise<LimitOutcome>;
}
