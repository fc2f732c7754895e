import type { Page } from "@playwright/test";
import { SERVICE_URL } from "./support/env";
import { expect, test } from "./support/fixtures";

// Costs nothing until clicked (issue 26, decisions.md "Visitor identity and context"), on a host
// page of another origin with the default embed: before the visitor's first click the widget
// stores nothing in the browser (cookies, localStorage, sessionStorage, IndexedDB) and holds no
// connection open (no pending long poll, no EventSource, no WebSocket); with
// data-consent="required" it sends nothing to the service at all. (host-page.spec.ts measures the
// time it costs; messenger.spec.ts what consent then starts.)

interface Traffic {
  /** every request to the service: method and path */
  service: string[];
  /** requests begun and not yet finished or failed (a long poll would stay here) */
  pending: Set<string>;
  /** long-lived kinds seen: WebSocket, EventSource */
  longLived: string[];
}

function watch(page: Page): Traffic {
  const traffic: Traffic = { service: [], pending: new Set(), longLived: [] };
  const key = (r: import("@playwright/test").Request) => `${r.method()} ${r.url()}`;
  page.on("request", (r) => {
    if (new URL(r.url()).origin === SERVICE_URL) traffic.service.push(`${r.method()} ${new URL(r.url()).pathname}`);
    if (r.resourceType() === "eventsource" || r.resourceType() === "websocket") traffic.longLived.push(key(r));
    traffic.pending.add(key(r));
  });
  page.on("requestfinished", (r) => traffic.pending.delete(key(r)));
  page.on("requestfailed", (r) => traffic.pending.delete(key(r)));
  page.on("websocket", (ws) => traffic.longLived.push(`WebSocket ${ws.url()}`));
  return traffic;
}

/** What the page's origin holds in the browser, and the cookies of both origins. */
async function stored(page: Page) {
  const inPage = await page.evaluate(async () => ({
    local: Object.keys(localStorage),
    session: Object.keys(sessionStorage),
    indexedDB: (await indexedDB.databases()).map((db) => db.name),
    cookie: document.cookie,
  }));
  return { ...inPage, cookies: (await page.context().cookies()).map((c) => `${c.domain} ${c.name}`) };
}

const NOTHING = { local: [], session: [], indexedDB: [], cookie: "", cookies: [] };

test("the default embed, before the first click: nothing stored, no connection held open; the click then stores the visitor id", async ({ page, site, widget }) => {
  const traffic = watch(page);
  await page.goto(site.url);
  await expect(widget.launcher).toBeVisible();
  // Past load and idle: the config, the page view and the panel chunk have come and gone.
  await expect.poll(() => traffic.service.some((r) => r.includes("/widget/panel-")), { timeout: 15_000 }).toBe(true);
  await page.waitForTimeout(3_000);
  expect(await stored(page)).toEqual(NOTHING);
  expect([...traffic.pending], "requests still open before the first click").toEqual([]);
  expect(traffic.longLived).toEqual([]);
  expect(traffic.service.filter((r) => r.includes("/messages") || r.includes("/presence"))).toEqual([]);

  // The check sees what the widget stores: the visitor's click makes the id.
  await widget.open();
  await expect.poll(async () => (await stored(page)).local).toEqual([`parley:${site.id}:vid`]);
});

test('data-consent="required": not one request to the service besides the loader itself, and nothing stored', async ({ page, site, widget }) => {
  const traffic = watch(page);
  await page.goto(`${site.url}&consent=required`);
  await expect(widget.launcher).toBeVisible();
  await page.waitForTimeout(5_000);
  expect(traffic.service).toEqual(["GET /widget.js"]);
  expect(await stored(page)).toEqual(NOTHING);
  expect([...traffic.pending]).toEqual([]);
  expect(traffic.longLived).toEqual([]);
});
