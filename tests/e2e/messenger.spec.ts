import { createHmac } from "node:crypto";
import { conversations, must, onlyConversation, staffSays } from "./support/admin";
import { STAFF } from "./support/env";
import { expect, screenshot, test } from "./support/fixtures";
import { setHidden } from "./support/page-visibility";
import { gracePicture, png } from "./support/png";

// The messenger's features (issue 12): site config, grouping, typing, the closed notice, safe
// markdown, unread signals, the ticket form, languages, consent and identity.

const PANEL_CLIP = { x: 860, y: 0, width: 420, height: 720 };

test("site config: title, greeting, brand colour with readable text, team faces, offline notice", async ({ page, site, widget }) => {
  // The team (Team Face One with a picture, Team Face Two without) is made by global-setup.ts.
  await must("PATCH", `/sites/${site.id}`, { title: "Acme Support", greeting: "Hey there! Ask us anything about your order.", brand_color: "#ffd400" });
  await page.goto(site.url);
  // A light brand colour gets dark text; the launcher shows it before the panel has loaded.
  await expect.poll(() => widget.launcher.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(255, 212, 0)");
  expect(await widget.launcher.evaluate((el) => getComputedStyle(el).color)).toBe("rgb(17, 17, 17)");
  await widget.open();
  await expect(page.getByRole("dialog", { name: "Acme Support" })).toBeVisible();
  await expect(page.locator("parley-chat #gr")).toHaveText("Hey there! Ask us anything about your order.");
  await expect(page.locator("parley-chat").getByText("We usually reply within a few minutes.")).toHaveCount(1); // the header says it, once
  const faces = page.locator("parley-chat #fc .av");
  await expect(faces.first()).toBeVisible();
  expect(await faces.count()).toBeGreaterThanOrEqual(2);
  await expect(page.locator("parley-chat #fc .av img").first()).toHaveAttribute("src", /^data:image\/png;base64,/);
  await expect(page.locator("parley-chat #fc")).toContainText("TF"); // initials where there is no picture
  await widget.input.blur();
  await screenshot(page, "06-empty-state-team", PANEL_CLIP);

  // A dark brand colour gets white text; offline shows its notice before anything is sent.
  await must("PATCH", `/sites/${site.id}`, { brand_color: "#1a7f37", offline: true });
  // (this page's browser may keep the config for 60 s, as the service allows: a new visitor sees it at once)
  const fresh = await page.context().browser()!.newContext({ colorScheme: "light", reducedMotion: "reduce" });
  const other = await fresh.newPage();
  await other.goto(site.url);
  const launcher = other.locator("parley-chat button.l");
  await expect.poll(() => launcher.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(26, 127, 55)");
  expect(await launcher.evaluate((el) => getComputedStyle(el).color)).toBe("rgb(255, 255, 255)");
  await launcher.click();
  await expect(other.locator("parley-chat #n")).toHaveText("We're offline right now. We'll reply by email.");
  await expect(other.locator("parley-chat #su")).toHaveText("We're away. We'll reply by email.");
  await fresh.close();
});

test("consecutive messages are grouped: name and picture once per run of one author", async ({ page, site, widget }) => {
  await page.goto(site.url);
  await widget.open();
  await widget.said("First line");
  await widget.said("Second line");
  const conversation = await onlyConversation(site.id);
  await staffSays(conversation.id, STAFF.id, "Reply one");
  await staffSays(conversation.id, STAFF.id, "Reply two");
  await staffSays(conversation.id, STAFF.id, "Reply three");
  await expect(widget.message("Reply three")).toBeVisible();
  await expect(widget.message("Second line")).toHaveClass(/\bg\b/);
  await expect(widget.message("First line")).not.toHaveClass(/\bg\b/);
  await expect(widget.message("Reply one")).not.toHaveClass(/\bg\b/);
  await expect(widget.message("Reply two")).toHaveClass(/\bg\b/);
  await expect(widget.message("Reply three")).toHaveClass(/\bg\b/);
  // One visible name and picture for the run (the others are there for screen readers only).
  const nameWidth = (text: string) => widget.message(text).locator(".nm").evaluate((el) => el.getBoundingClientRect().width);
  expect(await nameWidth("Reply one")).toBeGreaterThan(20);
  expect(await nameWidth("Reply two")).toBeLessThanOrEqual(1); // visually hidden, still read out
  await expect(widget.message("Reply one").locator(".av img")).toBeVisible();
  await expect(widget.message("Reply three").locator(".av img")).toBeHidden();
  await widget.input.blur();
  await screenshot(page, "07-grouped-messages", PANEL_CLIP);
});

test("typing dots name who is typing, and stand still under reduced motion", async ({ browser, site }) => {
  for (const motion of ["reduce", "no-preference"] as const) {
    const context = await browser.newContext({ reducedMotion: motion });
    const page = await context.newPage();
    await page.goto(site.url);
    await page.locator("parley-chat button.l").click();
    if (motion === "reduce") {
      await page.getByRole("textbox", { name: "Message" }).fill("Anyone?");
      await page.getByRole("textbox", { name: "Message" }).press("Enter");
      await expect.poll(() => conversations(site.id).then((list) => list.length)).toBe(1);
    } else {
      await page.evaluate((key) => localStorage.getItem(key), `parley:${site.id}`);
    }
    const conversation = (await conversations(site.id))[0]!;
    if (motion === "no-preference") {
      // same browser storage is not shared across contexts: this one starts its own conversation
      await page.getByRole("textbox", { name: "Message" }).fill("Me too");
      await page.getByRole("textbox", { name: "Message" }).press("Enter");
      await expect.poll(() => conversations(site.id).then((list) => list.length)).toBe(2);
    }
    const mine = motion === "reduce" ? conversation : (await conversations(site.id)).find((c) => c.id !== conversation.id)!;
    await must("POST", `/conversations/${mine.id}/presence`, { actor_id: STAFF.id, typing: true });
    const line = page.locator("parley-chat .ty");
    await expect(line).toHaveText(`${STAFF.name} is typing…`);
    await expect(line.locator(".dt")).toHaveAttribute("aria-hidden", "true");
    const animation = await line.locator(".dt i").first().evaluate((el) => getComputedStyle(el).animationName);
    expect(animation).toBe(motion === "reduce" ? "none" : "dot");
    if (motion === "no-preference") await screenshot(page, "08-typing-dots", PANEL_CLIP);
    await context.close();
  }
});

test("a closed conversation says so (409 or the closing system message) and offers a new one", async ({ page, site, widget }) => {
  // The closing message reaches the held long-poll within milliseconds; to see the 409 path, the
  // page gets the polls' answers only once the send after the close was refused.
  let pollsDelivered: Promise<void> = Promise.resolve();
  let deliverPolls = () => {};
  await page.route(
    (url) => url.pathname === "/api/v1/chat/visitor/messages",
    async (route) => {
      if (route.request().method() !== "GET") return route.continue();
      const response = await route.fetch().catch(() => null);
      if (!response) return route.abort().catch(() => {}); // a dropped poll, as the network would: the widget polls again
      await pollsDelivered;
      await route.fulfill({ response }).catch(() => {}); // the page may have aborted the poll meanwhile
    },
  );
  await page.goto(site.url);
  await widget.open();
  await widget.said("Question before closing");
  const first = await onlyConversation(site.id);
  pollsDelivered = new Promise((resolve) => (deliverPolls = resolve));
  await must("POST", `/conversations/${first.id}/close`);
  await widget.say("After the close");
  await expect(widget.message("After the close").locator(".mt")).toHaveText("Not sent: the conversation has ended. Retry");
  deliverPolls();
  const notice = page.locator("parley-chat #cl");
  await expect(notice).toContainText("This conversation was closed.");
  const startNew = page.getByRole("button", { name: "Start a new conversation" });
  await expect(startNew).toBeVisible();
  await widget.input.blur();
  await screenshot(page, "09-closed-notice", PANEL_CLIP);

  // The clear way out: an empty chat with the greeting, and the next message is a new conversation.
  await startNew.click();
  await expect(widget.messages).toHaveCount(0);
  await expect(page.locator("parley-chat #e0")).toBeVisible();
  await expect(notice).toBeHidden();
  await expect(widget.input).toBeFocused();
  await widget.said("A fresh start");
  await expect.poll(() => conversations(site.id).then((list) => list.length)).toBe(2);

  // The service's closing message (a public system message) shows the notice without a failed send.
  const second = (await conversations(site.id)).find((c) => c.id !== first.id)!;
  let injected = false;
  await page.route(/\/api\/v1\/chat\/visitor\/messages\?/, async (route) => {
    if (injected || route.request().method() !== "GET") return route.continue();
    const response = await route.fetch({ url: route.request().url().replace("&wait=25", "") }); // answer at once
    const json = await response.json();
    const next = json.result.next_cursor + 1;
    json.result.items.push({
      id: "m-closed", sequence: next, conversation_id: second.id, client_id: "system-close", author_id: "system", author_type: "system",
      kind: "message", body: "This conversation was closed.", created_at: new Date().toISOString(), author_name: null, author_avatar: null,
      event: "conversation_closed",
    });
    json.result.next_cursor = next;
    injected = true;
    await route.fulfill({ response, json });
  });
  await staffSays(second.id, STAFF.id, "Closing now, thanks!");
  // The thread marks the close with a short tag in the widget's language; the card says the sentence, once.
  await expect(widget.message("Closed")).toBeVisible();
  await expect(widget.message("This conversation was closed.")).toHaveCount(0);
  await expect(notice).toBeVisible();
  await expect(notice).toContainText("This conversation was closed.");  await page.unrouteAll({ behavior: "ignoreErrors" }); // polls still held by the routes above
});

test("a reopened conversation leaves the closed state by itself, and the next message lands in it", async ({ page, site, widget }) => {
  await page.goto(site.url);
  await widget.open();
  await widget.said("Before the close");
  const conversation = await onlyConversation(site.id);
  await must("POST", `/conversations/${conversation.id}/close`);
  const notice = page.locator("parley-chat #cl");
  await expect(notice).toBeVisible();
  await expect(notice).toContainText("Send a message to start a new one");

  await must("POST", `/conversations/${conversation.id}/reopen`);
  await expect(widget.message("This conversation was reopened.")).toBeVisible();
  await expect(notice).toBeHidden();
  await widget.said("After the reopen");
  expect((await conversations(site.id)).map((c) => c.id)).toEqual([conversation.id]);
  const thread = await must<{ messages: { body: string }[] }>("GET", `/conversations/${conversation.id}`);
  expect(thread.messages.map((message) => message.body)).toEqual([
    "Before the close",
    "This conversation was closed.",
    "This conversation was reopened.",
    "After the reopen",
  ]);
});

test("links and a minimal markdown render as elements, never as HTML", async ({ page, site, widget }) => {
  await page.goto(site.url);
  await widget.open();
  await widget.said("Formatting?");
  const conversation = await onlyConversation(site.id);
  const text = "**Bold** then *italic*, _also italic_ and `npm start`\nsnake_case_name stays, 2*3*4 too, <b>not bold</b>\nSee https://example.com/help.";
  await staffSays(conversation.id, STAFF.id, text);
  const tx = widget.messages.last().locator(".tx");
  await expect(tx.locator("strong")).toHaveText("Bold");
  await expect(tx.locator("em")).toHaveText(["italic", "also italic"]);
  await expect(tx.locator("code")).toHaveText("npm start");
  await expect(tx).toContainText("snake_case_name stays, 2*3*4 too, <b>not bold</b>");
  await expect(tx.locator("b")).toHaveCount(0);
  const link = tx.locator("a");
  await expect(link).toHaveCount(1);
  await expect(link).toHaveAttribute("href", "https://example.com/help");
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(link).toHaveAttribute("rel", "noopener noreferrer nofollow");
  expect(await tx.evaluate((el) => (el as HTMLElement).innerText.split("\n").length)).toBe(3); // line breaks kept
});

test("unread: a badge, the tab title while hidden, and a short sound when asked for", async ({ page, site, widget }) => {
  await page.addInitScript(() => {
    const w = window as unknown as { __chimes: number; AudioContext: unknown };
    w.__chimes = 0;
    const Real = window.AudioContext;
    w.AudioContext = class extends Real {
      constructor() {
        super();
        w.__chimes++;
      }
    };
  });
  await page.goto(`${site.url}&sound=on`);
  await widget.open();
  await widget.said("Ping me when you answer");
  const conversation = await onlyConversation(site.id);
  await widget.launcher.click();
  await expect(widget.panel).toBeHidden();
  await staffSays(conversation.id, STAFF.id, "Answered!");
  await expect(widget.badge).toHaveText("1");
  await expect(widget.launcher).toHaveAccessibleName("Open chat, 1 unread");
  await expect(page).toHaveTitle("Customer shop"); // the tab is in view: its title is the page's
  await setHidden(page, true);
  await expect(page).toHaveTitle("(1) New message");
  expect(await page.evaluate(() => (window as unknown as { __chimes: number }).__chimes)).toBe(1);
  await setHidden(page, false);
  await expect(page).toHaveTitle("Customer shop");
  await widget.open();
  await expect(widget.badge).toBeHidden();
});

test("the ticket form: file chips with size and remove, inline validation, the site's email promise", async ({ page, site, widget }) => {
  await page.goto(site.url);
  await widget.open();
  await page.getByRole("button", { name: "Prefer email? Leave a message" }).click();
  await expect(page.locator("parley-chat #tp")).toHaveText("We'll reply by email.");

  // Nothing filled in: each required field says so, and focus goes to the first.
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByLabel("Email (required)")).toBeFocused();
  await expect(page.getByLabel("Email (required)")).toHaveAttribute("aria-invalid", "true");
  await expect(page.locator("parley-chat #te-e")).toHaveText("Please fill in this field.");
  await expect(page.locator("parley-chat #ts-e")).toHaveText("Please fill in this field.");
  await page.getByLabel("Email (required)").fill("not-an-email");
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.locator("parley-chat #te-e")).toHaveText("Please enter a valid email address.");
  expect(await must("GET", `/tickets?site=${site.id}`)).toEqual([]);

  await page.getByLabel(/Attachments/).setInputFiles([
    { name: "photo.png", mimeType: "image/png", buffer: png(30, 20, () => [1, 2, 3]) },
    { name: "invoice.txt", mimeType: "text/plain", buffer: Buffer.alloc(3000, 97) },
    { name: "setup.exe", mimeType: "application/x-msdownload", buffer: Buffer.from("MZ") },
  ]);
  const chips = page.locator("parley-chat .fl li");
  await expect(chips).toHaveCount(3);
  await expect(chips.nth(1)).toContainText("invoice.txt 3 KB");
  await expect(chips.nth(2)).toContainText("“setup.exe” can't be attached");
  await page.getByLabel("Email (required)").fill("ada@example.com");
  await page.getByLabel("Subject (required)").fill("Invoice");
  await page.getByLabel("Message (required)").fill("Please see the attached files.");
  await screenshot(page, "10-ticket-chips", PANEL_CLIP);
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.locator("parley-chat #er")).toContainText("setup.exe");
  await page.getByRole("button", { name: "Remove setup.exe" }).click();
  await expect(chips).toHaveCount(2);
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByRole("heading", { name: "Thank you!" })).toBeVisible();
  await expect(chips.locator(".fs")).toHaveText(["Uploaded", "Uploaded"]);

  // Offline, the form makes the same promise as the site's email settings.
  await must("PATCH", `/sites/${site.id}`, { offline: true });
  const fresh = await page.context().browser()!.newContext();
  const other = await fresh.newPage();
  await other.goto(site.url);
  await other.locator("parley-chat button.l").click();
  await other.getByRole("button", { name: "Prefer email? Leave a message" }).click();
  await expect(other.locator("parley-chat #tp")).toHaveText("We're away. We'll reply by email.");
  await fresh.close();
});

test("languages: data-locale, the browser's language, and Arabic right to left", async ({ browser, site }) => {
  const cases = [
    { url: `${site.url}&locale=de`, locale: "en-GB", launcher: "Chat öffnen", input: "Nachricht", dir: "ltr" },
    { url: site.url, locale: "fr-FR", launcher: "Ouvrir le chat", input: "Message", dir: "ltr" },
    { url: `${site.url}&locale=es`, locale: "en-GB", launcher: "Abrir chat", input: "Mensaje", dir: "ltr" },
    { url: `${site.url}&locale=ar`, locale: "en-GB", launcher: "فتح المحادثة", input: "رسالة", dir: "rtl" },
  ];
  await must("PATCH", `/sites/${site.id}`, { title: "Lumen & Co." });
  for (const c of cases) {
    const context = await browser.newContext({ locale: c.locale, reducedMotion: "reduce", colorScheme: "light" });
    const page = await context.newPage();
    await page.goto(c.url);
    const launcher = page.locator("parley-chat button.l");
    await launcher.click();
    await expect(page.locator("parley-chat").getByRole("textbox", { name: c.input })).toBeVisible();
    await expect(page.locator("parley-chat #r")).toHaveAttribute("dir", c.dir);
    await launcher.click();
    await expect(launcher).toHaveAccessibleName(c.launcher);
    if (c.dir === "rtl") {
      await launcher.click();
      const box = await page.locator("parley-chat #p").boundingBox();
      expect(box!.x).toBe(20); // the panel sits on the left
      // The shop's Latin name keeps its own order inside the right-to-left panel (not ".Lumen & Co").
      const title = page.locator("parley-chat #ti");
      await expect(title).toHaveText("Lumen & Co.");
      expect(await title.evaluate((el) => getComputedStyle(el).direction)).toBe("ltr");
      await page.locator("parley-chat #tx").fill("مرحبا، أين طلبي؟");
      await page.locator("parley-chat #tx").press("Enter");
      await expect(page.locator("parley-chat .me .mt")).toHaveText(/\d/);
      expect(await page.locator("parley-chat .me .tx").evaluate((el) => getComputedStyle(el).direction)).toBe("rtl");
      await page.locator("parley-chat #tx").blur();
      await screenshot(page, "11-arabic-rtl", { x: 0, y: 0, width: 420, height: 720 });
    }
    await context.close();
  }
});

test("consent mode: nothing stored and nothing sent before consent; Parley.consent() or the visitor's click starts both", async ({ page, site, widget }) => {
  const api: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/api/")) api.push(`${request.method()} ${new URL(request.url()).pathname}`);
  });
  const storage = () =>
    page.evaluate(() => ({ local: Object.keys(localStorage), session: Object.keys(sessionStorage), cookies: document.cookie }));

  await page.goto(`${site.url}&consent=required`);
  await expect(widget.launcher).toBeVisible();
  await page.waitForTimeout(2_000);
  expect(api, "no request to the service before consent").toEqual([]);
  expect(await storage()).toEqual({ local: [], session: [], cookies: "" });
  expect(await must("GET", `/page-views?site=${site.id}`)).toEqual([]);

  await page.evaluate(() => (window as unknown as { Parley: { consent(): void } }).Parley.consent());
  await expect.poll(() => must("GET", `/page-views?site=${site.id}`).then((list) => list.length)).toBe(1);
  expect((await storage()).local).toEqual([`parley:${site.id}:vid`]);

  // Another page load, and this time the visitor's own click is the consent.
  api.length = 0;
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.waitForTimeout(1_000);
  expect(api).toEqual([]);
  await widget.open();
  await expect.poll(() => must("GET", `/page-views?site=${site.id}`).then((list) => list.length)).toBe(2);
  await widget.said("Hello after consent");
  // The conversation, this browser's list of conversations (returning visitors), the visitor id.
  expect((await storage()).local.sort()).toEqual([`parley:${site.id}`, `parley:${site.id}:h`, `parley:${site.id}:vid`]);
});

test("privacy first: a page view on load links to no one; once the visitor opens the widget their pages and start carry one id", async ({ page, site, widget }) => {
  await page.goto(site.url);
  await expect.poll(() => must<{ visitor_id: string | null }[]>("GET", `/page-views?site=${site.id}`).then((list) => list.length)).toBe(1);
  expect((await must<{ visitor_id: string | null }[]>("GET", `/page-views?site=${site.id}`))[0]!.visitor_id).toBeNull();
  expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([]);

  await widget.open();
  await widget.said("Which lamp fits a reading nook?");
  const vid = await page.evaluate((key) => localStorage.getItem(key), `parley:${site.id}:vid`);
  expect(vid).toBeTruthy();
  const conversation = await onlyConversation(site.id);
  const read = await must<{ visitor: Record<string, unknown> }>("GET", `/conversations/${conversation.id}`);
  expect(read.visitor).toMatchObject({
    visitor_id: vid,
    timezone: await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone),
    current_page: { url: page.url(), title: await page.title() },
    named: false,
  });

  await page.reload();
  await expect.poll(() => must<{ visitor_id: string | null }[]>("GET", `/page-views?site=${site.id}`).then((list) => list[0]?.visitor_id)).toBe(vid);
});

test("identity verification: Parley.identify with a valid hash starts a verified conversation", async ({ page, site, widget }) => {
  const secret = (await must<{ identity_secret: string }>("POST", `/sites/${site.id}/identity-secret`)).identity_secret;
  const hash = createHmac("sha256", secret).update("customer-7").digest("hex");
  await page.goto(site.url);
  await page.evaluate(
    ([userHash]) => (window as unknown as { Parley: { identify(o: object): void } }).Parley.identify({ user_id: "customer-7", user_hash: userHash, name: "Dana", email: "dana@example.com" }),
    [hash],
  );
  await widget.open();
  await widget.said("I'm signed in");
  const conversation = await onlyConversation(site.id);
  expect(await must("GET", `/conversations/${conversation.id}`)).toMatchObject({ user_id: "customer-7", identity_verified: true, visitor_email: "dana@example.com" });
  await expect(widget.message("I'm signed in").locator(".nm")).toHaveText("Dana");
});

test("dark mode follows the visitor's system setting", async ({ browser, site }) => {
  const context = await browser.newContext({ colorScheme: "dark", reducedMotion: "reduce", viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  await page.goto(site.url);
  await page.locator("parley-chat button.l").click();
  const input = page.locator("parley-chat").getByRole("textbox", { name: "Message" });
  await input.fill("Is there a dark theme?");
  await input.press("Enter");
  await expect.poll(() => conversations(site.id).then((list) => list.length)).toBe(1);
  const conversation = await onlyConversation(site.id);
  await staffSays(conversation.id, STAFF.id, "There is — you're looking at it. **Enjoy!**");
  await expect(page.locator("parley-chat .th .tx strong")).toHaveText("Enjoy!");
  await expect(page.locator("parley-chat .th .av img")).toBeVisible();
  expect(await page.locator("parley-chat #p").evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(23, 25, 29)");
  await input.blur();
  await screenshot(page, "12-dark-mode", PANEL_CLIP);
  await context.close();
});

test("an upload sends the headers the ticket reply asks for (upload_headers, e.g. S3's If-None-Match)", async ({ page, site, widget }) => {
  const origin = new URL(site.url).origin;
  const puts: Record<string, string>[] = [];
  await page.route(/\/api\/v1\/chat\/widget\/[^/]+\/tickets$/, async (route) => {
    if (route.request().method() !== "POST") return route.continue();
    const response = await route.fetch();
    const json = await response.json();
    for (const upload of json.result.uploads) upload.upload_headers = { "If-None-Match": "*" };
    await route.fulfill({ response, json });
  });
  await page.route(/\/api\/v1\/uploads\//, async (route) => {
    const cors = { "Access-Control-Allow-Origin": origin, "Access-Control-Allow-Methods": "PUT", "Access-Control-Allow-Headers": "content-type, if-none-match" };
    if (route.request().method() === "OPTIONS") return route.fulfill({ status: 204, headers: cors });
    puts.push(route.request().headers());
    await route.fulfill({ status: 200, headers: cors, body: "" });
  });
  await page.goto(site.url);
  await widget.open();
  await page.getByRole("button", { name: "Prefer email? Leave a message" }).click();
  await page.getByLabel("Email (required)").fill("ada@example.com");
  await page.getByLabel("Subject (required)").fill("Headers");
  await page.getByLabel("Message (required)").fill("One file.");
  await page.getByLabel(/Attachments/).setInputFiles([{ name: "a.txt", mimeType: "text/plain", buffer: Buffer.from("hello") }]);
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.locator("parley-chat .fl li .fs")).toHaveText(["Uploaded"]);
  expect(puts).toHaveLength(1);
  expect(puts[0]).toMatchObject({ "if-none-match": "*", "content-type": "text/plain" });
});
