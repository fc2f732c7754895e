// When each conversation last had a wake-up signal, so that a long-poll can tell whether anything
// arrived since its token lookup (lib/conversations/visitor-messages.ts). Kept bounded without a timer
// per entry: two generations of maps; once the current one is `windowMs` old it becomes the
// previous one and the old previous one is dropped. A signal is therefore kept at least
// `windowMs`, and at most the keys signalled in the last two generations are held.

export interface RecentSignals {
  /** Notes a signal for `key`, now. */
  record(key: string): void;
  /**
   * Whether no signal for `key` was recorded at or after `since`. False when that cannot be told
   * (a signal at or after `since` may have been dropped with its generation).
   */
  quietSince(key: string, since: number): boolean;
  /** How many keys are held (tests). */
  readonly size: number;
}

export function recentSignals(windowMs: number, now: () => number = () => performance.now()): RecentSignals {
  let current = new Map<string, number>();
  let previous = new Map<string, number>();
  let currentStart = now();
  // Every signal recorded at or after this is still in one of the maps.
  let keptSince = -Infinity;

  function rotate(at: number): void {
    if (at - currentStart < windowMs) return;
    previous = current;
    keptSince = currentStart;
    current = new Map();
    currentStart = at;
  }

  return {
    record(key) {
      const at = now();
      rotate(at);
      current.set(key, at);
    },
    quietSince(key, since) {
      rotate(now());
      if (since < keptSince) return false;
      const last = current.get(key) ?? previous.get(key);
      return last === undefined || last < since;
    },
    get size() {
      return current.size + previous.size;
    },
  };
}
