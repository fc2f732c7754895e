// What every bench measures with: a timer, one percentile scale (a fraction of 1) and repeated
// samples. No database here: the load generators' processes import it too.

/** `work`'s result and how long it took, in ms. */
export async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
}

/**
 * The nearest-rank percentile: the smallest value with at least `fraction` (0.5 = the median,
 * 0.99 = p99) of the values at or below it, of values sorted ascending; 0 when there are none.
 */
export function percentile(sorted: Float64Array | readonly number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * fraction) - 1))]!;
}

/** Sorts a copy ascending (numbers, not their text). */
export const ascending = (values: Iterable<number>): Float64Array => Float64Array.from(values).sort();

/** `work` once to plan and warm the cache, then `samples` timed runs: their p50 and p99 in ms. */
export async function sampled(work: (i: number) => Promise<unknown>, samples: number): Promise<{ p50: number; p99: number }> {
  await work(0);
  const times: number[] = [];
  for (let i = 0; i < samples; i++) times.push((await timed(() => work(i)))[1]);
  const sorted = ascending(times);
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
}

/** sampled(), as text. */
export async function percentiles(work: (i: number) => Promise<unknown>, samples: number, digits = 1): Promise<string> {
  const { p50, p99 } = await sampled(work, samples);
  return `p50 ${p50.toFixed(digits)} ms, p99 ${p99.toFixed(digits)} ms (${samples} samples)`;
}
