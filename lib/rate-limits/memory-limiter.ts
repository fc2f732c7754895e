import type { Limiter, LimitOutcome } from "./limiter";

// The in-process limiter for embedded mode (one process, no Redis). Same sliding-window
// approximation as @upstash/ratelimit: the previous fixed window's count, weighted by how much
// of it still overlaps the sliding window, plus the current window's count.

interface Counts {
  window: number;
  current: number;
  previous: number;
}

const PRUNE_ABOVE_KEYS = 10_000;

export class MemoryLimiter implements Limiter {
  private readonly counts = new Map<string, Counts>();

  constructor(
    private readonly tokens: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async limit(identifier: string): Promise<LimitOutcome> {
    const now = this.now();
    const window = Math.floor(now / this.windowMs);
    const counts = this.shift(this.counts.get(identifier), window);
    const overlap = 1 - (now % this.windowMs) / this.windowMs;
    const weightedPrevious = Math.floor(overlap * counts.previous);
    const reset = (window + 1) * this.windowMs;
    if (weightedPrevious + counts.current >= this.tokens) {
      this.counts.set(identifier, counts);
      return { success: false, limit: this.tokens, remaining: 0, reset };
    }
    counts.current += 1;
    this.counts.set(identifier, counts);
    if (this.counts.size > PRUNE_ABOVE_KEYS) this.prune(window);
    return { success: true, limit: this.tokens, remaining: Math.max(0, this.tokens - weightedPrevious - counts.current), reset };
  }

  async peek(identifier: string): Promise<LimitOutcome> {
    const now = this.now();
    const window = Math.floor(now / this.windowMs);
    const counts = this.shift(this.counts.get(identifier), window);
    const used = Math.floor((1 - (now % this.windowMs) / this.windowMs) * counts.previous) + counts.current;
    const remaining = Math.max(0, this.tokens - used);
    return { success: remaining > 0, limit: this.tokens, remaining, reset: (window + 1) * this.windowMs };
  }

  async release(identifier: string): Promise<void> {
    const stored = this.counts.get(identifier);
    if (!stored) return;
    const counts = this.shift(stored, Math.floor(this.now() / this.windowMs));
    // Counted in this window, or just before it turned (then it is in the previous one).
    if (counts.current > 0) counts.current -= 1;
    else if (counts.previous > 0) counts.previous -= 1;
    this.counts.set(identifier, counts);
  }

  private shift(counts: Counts | undefined, window: number): Counts {
    if (!counts || counts.window < window - 1) return { window, current: 0, previous: 0 };
    if (counts.window === window - 1) return { window, current: 0, previous: counts.current };
    return counts;
  }

  /** Forgets identifiers idle for two windows: they count nothing any more. */
  private prune(window: number): void {
    for (const [identifier, counts] of this.counts) {
      if (counts.window < window - 1) this.counts.delete(identifier);
    }
  }
}
