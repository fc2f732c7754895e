// A cap on concurrent expensive work: at most `running` at once, at most `queued` waiting (first
// come, first served), anything beyond refused at once. Refusing early is the point: a flood of
// requests must not turn into an unbounded queue of CPU- and memory-hungry jobs.

/** Thrown by `run` when every running and queued place is taken. */
export class WorkGateFull extends Error {
  override name = "WorkGateFull";
}

export class WorkGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limits: { running: number; queued: number }) {}

  /** How many run and wait now. */
  get load(): { running: number; queued: number } {
    return { running: this.running, queued: this.waiting.length };
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.limits.running) this.running += 1;
    else if (this.waiting.length < this.limits.queued) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else throw new WorkGateFull("Every place for this work is taken.");
    try {
      return await work();
    } finally {
      // The place passes straight to the next in line, so `running` never goes over the cap.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
