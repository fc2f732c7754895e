import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { expect, test } from "vitest";

// The widget loads on every page of every customer site: it has a budget, measured as `gzip -9`
// measures it. (Node's zlib at level 9 comes out about 100 bytes larger on this file; it is the
// fallback only where no gzip program exists.)
const WIDGET = path.resolve(import.meta.dirname, "../public/widget.js");
const BUDGET = 12_288;

function gzippedSize(file: string): { bytes: number; by: string } {
  try {
    return { bytes: execFileSync("gzip", ["-9c", file]).length, by: "gzip -9" };
  } catch {
    return { bytes: gzipSync(readFileSync(file), { level: 9 }).length, by: "node:zlib level 9" };
  }
}

test("the widget script stays within 12,288 bytes gzipped", () => {
  const { bytes, by } = gzippedSize(WIDGET);
  expect(bytes, `public/widget.js is ${bytes} bytes (${by})`).toBeLessThanOrEqual(BUDGET);
});
