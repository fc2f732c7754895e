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
  /**
   * Gives back one request counted by `limit` (a reservation that turned out not to be what the
   * limit counts, e.g. a sign-in that succeeded). Call it only for a request `limit` let through.
   */
  release(identifier: string): Promise<void>;
}
