// Watches the database work in flight — queries on pooled connections, waits for a pooled
// connection — for answers that come too late, with one shared interval instead of timers per
// query. Node creates an async resource for every timer (and, with Next.js's AsyncLocalStorage in
// the process, runs the async-hook init for it): three timers per query had made the pool's own
// bookkeeping cost several times a bare pool's. A watch is an entry in a Set, added when the work
// starts and deleted when it is answered; the sweep looks at each one every `everyMs`.

export interface QueryWatchOptions {
  /** A watch unanswered this long is suspect: isAlive() is asked, and again this long after each "yes". */
  suspectAfterMs: number;
  /** A watch given an onTimeout gets it this long after it started, whatever isAlive() says. */
  timeoutAfterMs: number;
  /** Whether the database still answers (the liveness probe, shared by everything suspect). */
  isAlive(): Promise<boolean>;
  /** How often the sweep looks: a watch is acted on up to this much after its time. */
  everyMs: number;
  /** The clock; tests drive it by hand, with `repeat`. */
  now?: () => number;
  /** Runs `sweep` every `everyMs` until the returned stop is called. */
  repeat?: (sweep: () => void, everyMs: number) => () => void;
}

export interface QueryWatch {
  /**
   * Watches one query or wait from now. onUnresponsive runs if it is still unanswered when the
   * database fails the liveness probe; onTimeout, if given, after timeoutAfterMs. At most one of
   * them runs, once, and neither after settle().
   */
  watch(onUnresponsive: () => void, onTimeout?: () => void): Watch;
  /** Stops the sweep (the pool is closing). */
  stop(): void;
}

export interface Watch {
  /** The work was answered (or failed): stop watching it. */
  settle(): void;
}

class Watched implements Watch {
  /** When to ask isAlive() next; Infinity while an answer is awaited. */
  suspectAt: number;

  constructor(
    private readonly watches: Set<Watched>,
    readonly startedAt: number,
    suspectAfterMs: number,
    readonly onUnresponsive: () => void,
    readonly onTimeout: (() => void) | undefined,
  ) {
    this.suspectAt = startedAt + suspectAfterMs;
  }

  settle(): void {
    this.watches.delete(this);
  }
}

// Always running while the pool is open, rather than started by the first watch and stopped when
// none remain: at a trickle of traffic that would create a new interval for nearly every query,
// the very cost this saves. A sweep over an empty Set costs next to nothing.
const unrefInterval = (sweep: () => void, everyMs: number) => {
  const interval = setInterval(sweep, everyMs);
  interval.unref();
  return () => clearInterval(interval);
};

export function queryWatch(options: QueryWatchOptions): QueryWatch {
  const { suspectAfterMs, timeoutAfterMs, isAlive, everyMs, now = () => performance.now(), repeat = unrefInterval } = options;
  const watches = new Set<Watched>();

  const decide = (suspects: Watched[], alive: boolean) => {
    for (const watch of suspects) {
      if (!watches.has(watch)) continue; // answered (or timed out) meanwhile
      if (alive) watch.suspectAt = now() + suspectAfterMs;
      else {
        watches.delete(watch);
        watch.onUnresponsive();
      }
    }
  };

  const sweep = () => {
    const at = now();
    const suspects: Watched[] = [];
    for (const watch of watches) {
      if (watch.onTimeout && at - watch.startedAt >= timeoutAfterMs) {
        watches.delete(watch);
        watch.onTimeout();
      } else if (at >= watch.suspectAt) {
        watch.suspectAt = Infinity;
        suspects.push(watch);
      }
    }
    if (suspects.length > 0) void isAlive().then((alive) => decide(suspects, alive));
  };

  const stop = repeat(sweep, everyMs);
  return {
    watch: (onUnresponsive, onTimeout) => {
      const watch = new Watched(watches, now(), suspectAfterMs, onUnresponsive, onTimeout);
      watches.add(watch);
      return watch;
    },
    stop,
  };
}
