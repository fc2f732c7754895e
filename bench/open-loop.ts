import type http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { send, type LoadSamples, type RequestSpec } from "./load";

// An open-loop load generator: `visitors` clients each send a request at their own pace, whether
// or not their last one has been answered (as the widget does: one lookup per pause in typing,
// the earlier answer dropped), so the rate offered does not fall when the server slows down and
// the latency is what a visitor waits, not the length of a queue the loop itself keeps full (a
// closed loop of 200 measures 200 ÷ throughput). A latency counts from when the request was due,
// so a late send by this process counts against the figure, not for it.

export interface OpenLoopOptions {
  port: number;
  visitors: number;
  durationMs: number;
  /** The wait before a visitor's next request, ms (drawn for each). */
  pauseMs: () => number;
  /** The visitor's next request, or null when it asks nothing this time (text too short); a `label` sorts its latency into `labelled` as well. */
  next: (visitor: number) => (RequestSpec & { label?: string }) | null;
  agent: http.Agent;
}

export type OpenLoopSamples = LoadSamples & { sent: number; labelled: Map<string, number[]> };

export async function openLoopSamples(options: OpenLoopOptions): Promise<OpenLoopSamples> {
  const latencies: number[] = [];
  const labelled = new Map<string, number[]>();
  const inFlight = new Set<Promise<void>>();
  let errors = 0;
  let non2xx = 0;
  let sent = 0;
  const startedAt = performance.now();
  const deadline = startedAt + options.durationMs;
  const fire = (spec: RequestSpec & { label?: string }, dueAt: number) => {
    sent++;
    const request = send(options.port, spec, options.agent)
      .then((answer) => {
        if (answer.status < 200 || answer.status >= 300) non2xx++;
      })
      .catch(() => {
        errors++;
      })
      .finally(() => {
        const latency = performance.now() - dueAt;
        latencies.push(latency);
        if (spec.label !== undefined) {
          const samples = labelled.get(spec.label) ?? [];
          labelled.set(spec.label, samples);
          samples.push(latency);
        }
        inFlight.delete(request);
      });
    inFlight.add(request);
  };
  await Promise.all(
    Array.from({ length: options.visitors }, async (_, visitor) => {
      // Visitors start spread over one pause, not all at once.
      let dueAt = startedAt + Math.random() * options.pauseMs();
      while (dueAt < deadline) {
        const wait = dueAt - performance.now();
        if (wait > 0) await sleep(wait);
        const spec = options.next(visitor);
        if (spec) fire(spec, dueAt);
        dueAt += options.pauseMs();
      }
    }),
  );
  const elapsedMs = performance.now() - startedAt;
  await Promise.all(inFlight);
  return { latencies, elapsedMs, errors, non2xx, sent, labelled };
}
