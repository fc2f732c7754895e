import { SERVICE_URL } from "./support/env";
import { expect, test } from "./support/fixtures";

// What the widget costs the page that embeds it (docs/performance.md, "Host-page cost"), on the
// plain customer page: before the visitor does anything, the loader may read the site config and
// record the page view — nothing else — with no long task and no layout shift.

interface Cost {
  /** durations (ms) of long tasks that started once widget.js had arrived: the widget's share */
  longTasks: number[];
  /** long tasks before that: the page's own loading (and a busy machine), reported only */
  pageLongTasks: number[];
  layoutShift: number;
}

test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => {
    const cost: Cost = { longTasks: [], pageLongTasks: [], layoutShift: 0 };
    (window as unknown as { __cost: Cost }).__cost = cost;
    const widgetArrived = () => (performance.getEntriesByType("resource").find((r) => r.name.endsWith("/widget.js")) as PerformanceResourceTiming | undefined)?.responseEnd ?? Infinity;
    new PerformanceObserver((list) =>
      list.getEntries().forEach((e) => (e.startTime >= widgetArrived() ? cost.longTasks : cost.pageLongTasks).push(Math.round(e.duration))),
    ).observe({ type: "longtask", buffered: true });
    new PerformanceObserver((list) =>
      list.getEntries().forEach((e) => (cost.layoutShift += (e as unknown as { value: number }).value)),
    ).observe({ type: "layout-shift", buffered: true });
  });
});

async function watch(page: import("@playwright/test").Page) {
  const api: string[] = [];
  const files: { path: string; bytes: number }[] = [];
  page.on("requestfinished", async (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith("/api/")) api.push(`${request.method()} ${url.pathname}`);
    else if (url.origin === SERVICE_URL) files.push({ path: url.pathname, bytes: (await request.sizes()).responseBodySize });
  });
  return { api, files };
}

test("before the visitor acts: at most the config and the page view, no long task, no layout shift", async ({ page, site, widget }) => {
  const seen = await watch(page);
  await page.goto(site.url);
  await expect(widget.launcher).toBeVisible();
  await page.waitForTimeout(6_000); // past load and idle: the panel chunk has come by now
  const cost = await page.evaluate(() => (window as unknown as { __cost: Cost }).__cost);
  expect(seen.api.sort()).toEqual([`GET /api/v1/chat/widget/${site.id}/config`, `POST /api/v1/chat/widget/${site.id}/visitors`]);
  expect(cost.longTasks, "long tasks (ms)").toEqual([]);
  expect(cost.layoutShift).toBe(0);
  expect(seen.files.map((f) => f.path.replace(/-[0-9a-f]{10}\.js$/, "-HASH.js")).sort()).toEqual(["/widget.js", "/widget/panel-HASH.js"]);
  const figures = JSON.stringify({ ...cost, api: seen.api, files: seen.files });
  test.info().annotations.push({ type: "host-page cost", description: figures });
  console.log(`host-page cost: ${figures}`);

  // Opening is the visitor's act: the panel is already there, and still nothing shifts the page.
  await widget.open();
  expect(await page.evaluate(() => (window as unknown as { __cost: Cost }).__cost.layoutShift)).toBe(0);
});

test("consent mode: not one request to the service's API, and no panel code, before consent", async ({ page, site, widget }) => {
  const seen = await watch(page);
  await page.goto(`${site.url}&consent=required`);
  await expect(widget.launcher).toBeVisible();
  await page.waitForTimeout(4_000);
  const cost = await page.evaluate(() => (window as unknown as { __cost: Cost }).__cost);
  expect(seen.api).toEqual([]);
  expect(seen.files.map((f) => f.path)).toEqual(["/widget.js"]);
  expect(cost.longTasks).toEqual([]);
  expect(cost.layoutShift).toBe(0);
});

test("caching: widget.js briefly and with a validator, hashed chunks for good", async ({ page, site }) => {
  const seen = await watch(page);
  await page.goto(site.url);
  await expect.poll(() => seen.files.some((f) => f.path.startsWith("/widget/panel-"))).toBe(true);
  const loader = await page.request.get(`${SERVICE_URL}/widget.js`);
  expect(loader.headers()["cache-control"]).toBe("public, max-age=300, must-revalidate");
  const etag = loader.headers()["etag"];
  expect(etag).toBeTruthy();
  const again = await page.request.get(`${SERVICE_URL}/widget.js`, { headers: { "If-None-Match": etag! } });
  expect(again.status()).toBe(304);
  const chunk = await page.request.get(`${SERVICE_URL}${seen.files.find((f) => f.path.startsWith("/widget/panel-"))!.path}`);
  expect(chunk.status()).toBe(200);
  expect(chunk.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
});
