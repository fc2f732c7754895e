import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { ascending, percentile } from "./stats";

// What the tag costs the page that embeds it, as Lighthouse scores it (issue #26: performance-score
// delta 0, Total Blocking Time delta ≤ 10 ms). The demo page is measured with its widget tag and
// without it (the same page, widget.js blocked), taking turns, RUNS times each, with Lighthouse's
// default mobile settings (simulated throttling) in Debian's Chromium; medians are reported.

const RUNS = 5;
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export interface HostPageScore {
  runs: number;
  /** Performance score 0..100 and Total Blocking Time in ms, medians. */
  withTag: { score: number; tbtMs: number };
  withoutTag: { score: number; tbtMs: number };
}

const median = (values: number[]) => percentile(ascending(values), 0.5);

export async function measureHostPageScore(pageUrl: string): Promise<HostPageScore> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu"] });
  const samples = { withTag: [] as { score: number; tbtMs: number }[], withoutTag: [] as { score: number; tbtMs: number }[] };
  try {
    for (let run = 0; run < RUNS; run++) {
      for (const variant of ["withTag", "withoutTag"] as const) {
        const result = await lighthouse(pageUrl, {
          port: chrome.port,
          output: "json",
          logLevel: "error",
          onlyCategories: ["performance"],
          blockedUrlPatterns: variant === "withoutTag" ? ["*/widget.js"] : [],
        });
        if (!result) throw new Error("Lighthouse returned no result");
        const { lhr } = result;
        if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
        samples[variant].push({
          score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
          tbtMs: Math.round(lhr.audits["total-blocking-time"]?.numericValue ?? 0),
        });
      }
    }
  } finally {
    chrome.kill();
  }
  const summary = (list: { score: number; tbtMs: number }[]) => ({ score: median(list.map((s) => s.score)), tbtMs: median(list.map((s) => s.tbtMs)) });
  return { runs: RUNS, withTag: summary(samples.withTag), withoutTag: summary(samples.withoutTag) };
}
