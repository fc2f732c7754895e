import { SERVICE_URL } from "./support/env";
import { expect, test } from "./support/fixtures";

// What the widget costs the page that embeds it (docs/performance.md, "Host-page cost"), on the
// plain customer page: before the visitor does anything, the loader may read the site config and
// record the page view — nothing else — with no long task and no layout shift.

interface Cost {
  /** the widget's scripts (widget.js, its chunks) running 50 ms or more at a stretch: long tasks of its making */
  longTasks: string[];
  /** the longest run of any widget script (ms), and all widget script time (ms), from Long Animation Frames */
  longestWidgetScript: number;
  widgetScriptTotal: number;
  /** every long task on the page (ms), whoever caused it: the page's own parsing, a busy machine; reported only */
  pageLongTasks: number[];
  layoutShift: number;
}

// Long tasks are attributed with the Long Animation Frames API (Chromium 123+): each long frame
// lists the scripts that ran in it, with their source URL, so a slow frame caused by the page (or
// by this machine's other work) is not counted against the widget.
test.beforeEach(async ({ page }) => observe(page));

async function observe(page: import("@playwright/test").Page) {
  await page.addInitScript(() => {
    const cost: Cost = { longTasks: [], longestWidgetScript: 0, widgetScriptTotal: 0, pageLongTasks: [], layoutShift: 0 };
    (window as unknown as { __cost: Cost }).__cost = cost;
    const ours = (url: string) => /\/widget(\.js|\/)/.test(url);
    new PerformanceObserver((list) => list.getEntries().forEach((e) => cost.pageLongTasks.push(Math.round(e.duration)))).observe({ type: "longtask", buffered: true });
    new PerformanceObserver((list) =>
      list.getEntries().forEach((frame) => {
        for (const script of (frame as unknown as { scripts: { sourceURL: string; duration: number; invoker: string }[] }).scripts) {
          if (!ours(script.sourceURL)) continue;
          cost.widgetScriptTotal += script.duration;
          cost.longestWidgetScript = Math.max(cost.longestWidgetScript, Math.round(script.duration));
          if (script.duration >= 50) cost.longTasks.push(`${Math.round(script.duration)} ms ${script.sourceURL.split("/").pop()} (${script.invoker})`);
        }
      }),
    ).observe({ type: "long-animation-frame", buffered: true });
    new PerformanceObserver((list) =>
      list.getEntries().forEach((e) => (cost.layoutShift += (e as unknown as { value: number }).value)),
    ).observe({ type: "layout-shift", buffered: true });
  });
}

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

test("before the visitor acts: at most the config and the page view, no long task, no layout shift", async ({ browser, site }) => {
  // Five visitors, each a fresh browser context (nothing cached). On this shared 2-core machine a
  // cold load is sometimes descheduled mid-script (widget scripts of 55–278 ms were seen under the
  // other suites' load, 0–40 ms otherwise), so what is required is what a regression would break
  // on every load: most loads (3 of 5) clean of widget long tasks (≥ 50 ms), and the median load's
  // longest widget script under 50 ms. Every figure is reported (docs/performance.md).
  const LOADS = 5;
  test.setTimeout(120_000);
  const loads: (Cost & { api: string[]; files: { path: string; bytes: number }[] })[] = [];
  for (let i = 0; i < LOADS; i++) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await observe(page);
    const seen = await watch(page);
    await page.goto(site.url);
    await expect(page.locator("parley-chat button.l")).toBeVisible();
    await page.waitForTimeout(6_000); // past load and idle: the panel chunk has come by now
    const cost = await page.evaluate(() => (window as unknown as { __cost: Cost }).__cost);
    loads.push({ ...cost, api: seen.api.sort(), files: seen.files });
    expect(seen.api.sort()).toEqual([`GET /api/v1/chat/widget/${site.id}/config`, `POST /api/v1/chat/widget/${site.id}/visitors`]);
    expect(cost.layoutShift).toBe(0);
    expect(seen.files.map((f) => f.path.replace(/-[0-9a-f]{10}\.js$/, "-HASH.js")).sort()).toEqual(["/widget.js", "/widget/panel-HASH.js"]);
    // Opening is the visitor's act: the panel is already there, and still nothing shifts the page.
    await page.locator("parley-chat button.l").click();
    await expect(page.locator("parley-chat #p")).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { __cost: Cost }).__cost.layoutShift)).toBe(0);
    await context.close();
  }
  const figures = JSON.stringify(loads);
  test.info().annotations.push({ type: "host-page cost", description: figures });
  console.log(`host-page cost: ${figures}`);
  const majority = Math.ceil(LOADS / 2);
  expect(loads.filter((load) => load.longTasks.length === 0).length, `widget long tasks per load: ${figures}`).toBeGreaterThanOrEqual(majority);
  const longest = loads.map((load) => load.longestWidgetScript).sort((a, b) => a - b);
  expect(longest[majority - 1], `longest widget script per load (ms): ${longest}`).toBeLessThan(50);
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
