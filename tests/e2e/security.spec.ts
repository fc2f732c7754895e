import type { Page } from "@playwright/test";
import { must, onlyConversation, staffSays } from "./support/admin";
import { FOREIGN_URL, STAFF } from "./support/env";
import { expect, test, Widget } from "./support/fixtures";

const HOSTILE = "<img src=x onerror=alert(1)>";

test("message text that looks like HTML shows as literal text and runs nothing", async ({ page, site, widget, pageProblems }) => {
  const evil = { id: `evil-${site.id}`, name: "<img src=x onerror=alert(3)>" };
  await must("POST", "/members", evil);
  await page.goto(site.url);
  await page.evaluate(() => (window as any).Parley.identify({ name: "<b onmouseover=alert(4)>Bob</b>" }));
  await widget.open();

  await widget.said(HOSTILE);
  const conversation = await onlyConversation(site.id);
  const staffText = `<script>alert(2)</script><a href="javascript:alert(5)">click</a> ${HOSTILE}`;
  await staffSays(conversation.id, evil.id, staffText);
  await staffSays(conversation.id, STAFF.id, "See javascript:alert(6) and https://example.com/?q=<b>x</b>");

  await expect(widget.message(HOSTILE).locator(".tx")).toHaveText(HOSTILE);
  await expect(widget.message(HOSTILE).locator(".nm")).toHaveText("<b onmouseover=alert(4)>Bob</b>");
  const fromStaff = widget.message(staffText);
  await expect(fromStaff.locator(".tx")).toHaveText(staffText);
  await expect(fromStaff.locator(".nm")).toHaveText(evil.name);
  const linked = widget.message("See javascript:alert(6) and https://example.com/?q=<b>x</b>");
  await expect(linked.locator(".tx a")).toHaveCount(1); // only the https:// address became a link
  await expect(linked.locator(".tx a")).toHaveAttribute("href", "https://example.com/?q=");

  await expect(linked.locator(".av img")).toBeVisible(); // Grace's picture (the other member has none)
  // Nothing was parsed as markup: the only images are pictures, no element carries a handler.
  const inside = await page.evaluate(() => {
    const root = document.querySelector("parley-chat")!.shadowRoot!;
    return {
      // member pictures (and the team faces of the site config), all as data URLs
      images: [...new Set([...root.querySelectorAll("img")].map((img) => img.getAttribute("src")!.slice(0, 22)))],
      scripts: root.querySelectorAll("script").length,
      handlers: [...root.querySelectorAll("*")].filter((el) => [...el.attributes].some((a) => a.name.startsWith("on"))).length,
      javascriptLinks: root.querySelectorAll('a[href^="javascript:"]').length,
    };
  });
  expect(inside).toEqual({ images: ["data:image/png;base64,"], scripts: 0, handlers: 0, javascriptLinks: 0 });
  await page.waitForTimeout(500); // a failed <img src=x> would have fired onerror by now
  expect(pageProblems).toEqual([]);
});

/** What can be measured of the widget, from outside and inside its shadow root. */
async function measure(page: Page) {
  return page.evaluate(() => {
    const host = document.querySelector("parley-chat")!;
    const root = host.shadowRoot!;
    const box = (el: Element | null) => {
      if (!el) return null;
      const { x, y, width, height } = el.getBoundingClientRect();
      return { x, y, width, height };
    };
    const style = (selector: string) => {
      const el = root.querySelector(selector);
      if (!el) return null;
      const s = getComputedStyle(el);
      return { display: s.display, font: s.font, color: s.color, background: s.backgroundColor, margin: s.margin, padding: s.padding, border: s.border, letterSpacing: s.letterSpacing, visibility: s.visibility };
    };
    const hostStyle = getComputedStyle(host);
    return {
      host: { display: hostStyle.display, position: hostStyle.position, visibility: hostStyle.visibility, opacity: hostStyle.opacity, zIndex: hostStyle.zIndex, transform: hostStyle.transform },
      boxes: Object.fromEntries(["#l", "#p", ".hd", "#ti", "#ls", "#tx", ".sb", "#go", ".m"].map((s) => [s, box(root.querySelector(s))])),
      styles: Object.fromEntries(["#l", "#p", "#ti", "#su", "#tx", ".sb", "#go", ".tx", ".nm", ".e0"].map((s) => [s, style(s)])),
    };
  });
}

test("hostile page CSS leaves the widget as it is", async ({ browser, site }) => {
  const looks: { closed: Buffer; open: Buffer; metrics: unknown; openMetrics: unknown }[] = [];
  for (const hostile of [false, true]) {
    const context = await browser.newContext({ reducedMotion: "reduce", colorScheme: "light" });
    const page = await context.newPage();
    const widget = new Widget(page);
    await page.goto(`${site.url}${hostile ? "&hostile=1" : ""}`);
    await expect(widget.launcher).toBeVisible();
    if (hostile) await expect(page.getByRole("heading", { name: "Customer shop" })).toBeHidden(); // the page's CSS did apply
    const metrics = await measure(page);
    const closed = await widget.launcher.screenshot({ animations: "disabled" });
    await widget.open();
    await expect(page.locator("parley-chat #fc .av img").first()).toBeVisible(); // the site config's team faces are in
    await widget.input.blur();
    const openMetrics = await measure(page);
    const open = await widget.panel.screenshot({ animations: "disabled", caret: "hide" });
    looks.push({ closed, open, metrics, openMetrics });
    await context.close();
  }
  const [plain, hostile] = looks as [(typeof looks)[0], (typeof looks)[0]];
  expect(hostile.metrics).toEqual(plain.metrics);
  expect(hostile.openMetrics).toEqual(plain.openMetrics);
  expect((plain.openMetrics as any).boxes["#p"]).toMatchObject({ width: 376 });
  expect(hostile.closed.equals(plain.closed), "the launcher looks the same").toBe(true);
  expect(hostile.open.equals(plain.open), "the open panel looks the same").toBe(true);
});

test("on an origin the site does not allow, the widget stays quiet and the page keeps working", async ({ page, site, widget, pageProblems }) => {
  const toService: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/api/")) toService.push(`${request.method()} ${new URL(request.url()).pathname}`);
  });
  await page.goto(`${FOREIGN_URL}/?site=${site.id}`);
  await page.waitForLoadState("networkidle");

  // The page's own script still works.
  await page.getByRole("button", { name: "Clicked 0 times" }).click();
  await expect(page.getByRole("button", { name: "Clicked 1 times" })).toBeVisible();

  // The browser refuses the cross-origin answers (no CORS for this origin), so the widget cannot
  // tell a refusal from a network failure: it shows, but nothing it sends is stored, and it does
  // not retry in a loop.
  if (await widget.launcher.isVisible()) {
    await widget.open();
    await widget.say("Hello?");
    await expect(widget.message("Hello?").locator(".mt")).toHaveText(/^Not sent/);
  }
  await page.waitForTimeout(4_000);
  expect(toService.filter((r) => r.startsWith("POST")).length, toService.join("\n")).toBeLessThanOrEqual(2);
  // The site config (GET …/config) is the loader's one read; nothing polls without a conversation.
  expect(toService.filter((r) => r.startsWith("GET") && !r.endsWith("/config")), "no polling without a conversation").toEqual([]);
  expect(await must("GET", `/conversations?site=${site.id}`)).toEqual([]);
  expect(await must("GET", `/page-views?site=${site.id}`)).toEqual([]);
  expect(pageProblems).toEqual([]);
});
