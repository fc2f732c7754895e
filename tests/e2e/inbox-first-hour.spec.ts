import { must, staffSays } from "./support/admin";
import { SERVICE_URL, STAFF } from "./support/env";
import { expect as baseExpect, test } from "./support/fixtures";
import { axeScan, inboxScreenshot, signedInStaff } from "./support/inbox";
import { apiVisitor } from "./support/visitor-api";

// What a new team tripped on in its first hour in the inbox (issue 39): the agent's own reply,
// note and label show at once (pending, then reconciled, or marked with Retry); Arabic text reads
// right to left; an owner exports and erases an anonymous visitor from the visitor card.

test.describe.configure({ timeout: 180_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

test("a reply and a note show at once as pending, once each after the server answers; a failed one offers Retry", async ({ browser, site }) => {
  const visitor = await apiVisitor(site.id, { name: "Paula Pending", body: "Is the lamp dimmable?" });
  const agent = await signedInStaff(browser, "agent", "Otto Optimist");
  const inbox = agent.page;
  await inbox.goto(`${SERVICE_URL}/inbox/conversations/${visitor.conversationId}`);
  const thread = inbox.getByTestId("messages");
  await expect(thread).toContainText("Is the lamp dimmable?");

  // The send is held: the reply is in the thread at once, marked as sending, the composer empty.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await inbox.route("**/api/v1/inbox/conversations/*/messages", async (route) => {
    await held;
    await route.continue();
  });
  const composer = inbox.getByLabel("Reply to the visitor");
  await composer.fill("Yes, with any dimmer switch.");
  await composer.press("Enter");
  const pending = thread.locator('[data-pending="sending"]');
  await expect(pending).toContainText("Yes, with any dimmer switch.");
  await expect(pending).toContainText("Sending…");
  await expect(composer).toHaveValue("");
  await inboxScreenshot(inbox, "inbox-14-reply-pending");
  release();
  await expect(pending).toHaveCount(0);
  await expect(thread.locator("li", { hasText: "Yes, with any dimmer switch." })).toHaveCount(1);
  await inbox.unroute("**/api/v1/inbox/conversations/*/messages");

  // A live event arriving before the send's own answer does not show it twice.
  await visitor.say("Great, thanks!");
  await expect(thread).toContainText("Great, thanks!");
  await expect(thread.locator("li", { hasText: "Yes, with any dimmer switch." })).toHaveCount(1);

  // A note that fails: marked "Not sent" with Retry; the retry stores it once.
  await inbox.route("**/api/v1/inbox/conversations/*/messages", (route) => route.abort(), { times: 1 });
  await inbox.getByRole("radio", { name: "Private note" }).check();
  const note = inbox.getByLabel("Private note (only your team sees it)");
  await note.fill("Customer asked about dimmers twice.");
  await note.press("Enter");
  const failed = thread.locator('[data-pending="failed"]');
  await expect(failed).toContainText("Customer asked about dimmers twice.");
  await expect(failed).toContainText("Not sent");
  await inbox.emulateMedia({ colorScheme: "dark" });
  await inboxScreenshot(inbox, "inbox-15-note-not-sent-dark");
  await inbox.emulateMedia({ colorScheme: "light" });
  await failed.getByRole("button", { name: "Retry" }).click();
  await expect(failed).toHaveCount(0);
  await expect(thread.locator('li[data-kind="note"]', { hasText: "Customer asked about dimmers twice." })).toHaveCount(1);
  const stored = await must<{ messages: { body: string }[] }>("GET", `/conversations/${visitor.conversationId}`);
  expect(stored.messages.filter((message) => message.body === "Customer asked about dimmers twice.")).toHaveLength(1);
  await agent.context.close();
});

test("a label shows at once, pending until saved; a failed save says so with Retry", async ({ browser, site }) => {
  const name = `Refund ${Date.now().toString(36)}`;
  const visitor = await apiVisitor(site.id, { name: "Lars Label", body: "I want my money back." });
  const agent = await signedInStaff(browser, "owner", "Lea Labeller");
  const inbox = agent.page;
  const label = await inbox.evaluate(async (body) => {
    const response = await fetch("/api/v1/inbox/labels", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    return (await response.json()).result as { id: string };
  }, { name, color: "#0f766e" });
  await inbox.goto(`${SERVICE_URL}/inbox/conversations/${visitor.conversationId}`);

  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await inbox.route("**/api/v1/inbox/conversations/*/labels", async (route) => {
    await held;
    await route.continue();
  });
  await inbox.getByText("Labels", { exact: true }).click();
  await inbox.getByRole("checkbox", { name }).check();
  const chip = inbox.getByTestId("conversation-labels").locator(`[data-label="${label.id}"]`);
  await expect(chip).toHaveAttribute("data-pending", "true");
  release();
  await expect(chip).not.toHaveAttribute("data-pending", "true");
  await inbox.unroute("**/api/v1/inbox/conversations/*/labels");

  await inbox.route("**/api/v1/inbox/conversations/*/labels", (route) => route.abort(), { times: 1 });
  await inbox.getByRole("checkbox", { name }).uncheck();
  const alert = inbox.getByRole("alert").filter({ hasText: "Labels not saved" });
  await expect(alert).toBeVisible();
  await alert.getByRole("button", { name: "Retry" }).click();
  await expect(alert).toBeHidden();
  await expect(chip).toHaveCount(0);
  await inbox.reload();
  await expect(inbox.getByTestId("messages")).toContainText("I want my money back.");
  await expect(chip).toHaveCount(0);
  await agent.context.close();
});

test("Arabic text reads right to left in the inbox: the visitor's and the agent's messages, and the list's preview", async ({ browser, site }) => {
  const visitor = await apiVisitor(site.id, { name: "Omar", body: "مرحبا، أين طلبي؟" });
  await staffSays(visitor.conversationId, STAFF.id, "طلبك في الطريق وسيصل غدا.");
  const agent = await signedInStaff(browser, "agent", "Rana Rtl");
  const inbox = agent.page;
  await inbox.goto(`${SERVICE_URL}/inbox/conversations/${visitor.conversationId}?site=${site.id}`);
  const direction = (text: string) =>
    inbox
      .getByTestId("messages")
      .locator("p", { hasText: text })
      .evaluate((element) => getComputedStyle(element).direction);
  await expect.poll(() => direction("مرحبا")).toBe("rtl");
  await expect.poll(() => direction("طلبك في الطريق")).toBe("rtl");
  const preview = inbox.getByTestId("conversation-list").locator(`[data-conversation="${visitor.conversationId}"] span`, { hasText: "طلبك" });
  await expect.poll(() => preview.evaluate((element) => getComputedStyle(element).direction)).toBe("rtl");
  await agent.context.close();
});

test("an owner exports and erases an anonymous visitor from the visitor card, confirming in the page", async ({ browser, site, pageProblems }) => {
  const visitor = await apiVisitor(site.id, { body: "Please delete my data." });
  const owner = await signedInStaff(browser, "owner", "Olga Owner");
  const inbox = owner.page;
  inbox.on("dialog", (dialog) => pageProblems.push(`dialog: ${dialog.message()}`));
  await inbox.goto(`${SERVICE_URL}/inbox/conversations/${visitor.conversationId}`);
  const card = inbox.getByTestId("visitor-card");
  const visitorId = (await card.getByTestId("visitor-id").textContent())!.trim();
  expect(visitorId).not.toBe("");

  const [download] = await Promise.all([inbox.waitForEvent("download"), card.getByRole("button", { name: "Export" }).click()]);
  expect(download.suggestedFilename()).toMatch(/\.zip$/);
  await expect(card.getByRole("status").filter({ hasText: "The export is downloaded." })).toBeVisible();

  // Erase asks in the page: Cancel keeps everything; "Erase for good" erases.
  await card.getByRole("button", { name: "Erase…" }).click();
  const confirm = card.getByRole("group", { name: /Erase everything about/ });
  await expect(confirm).toBeVisible();
  await axeScan(inbox, "the erase confirmation", '[data-testid="visitor-card"]');
  await confirm.scrollIntoViewIfNeeded();
  await inboxScreenshot(inbox, "inbox-16-visitor-erase-confirm");
  await inbox.setViewportSize({ width: 390, height: 760 });
  await inbox.emulateMedia({ colorScheme: "dark" });
  await confirm.scrollIntoViewIfNeeded();
  await inboxScreenshot(inbox, "inbox-17-visitor-erase-confirm-mobile-dark");
  await inbox.setViewportSize({ width: 1280, height: 720 });
  await inbox.emulateMedia({ colorScheme: "light" });
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toBeHidden();
  await expect(card.getByRole("button", { name: "Erase…" })).toBeFocused();
  await card.getByRole("button", { name: "Erase…" }).click();
  await card.getByRole("button", { name: "Erase for good" }).click();
  await expect(card.getByRole("status").filter({ hasText: /Erased: .*\b1 conversation\b(?!s)/ })).toBeVisible();
  const gone = await fetch(`${SERVICE_URL}/api/v1/admin/conversations/${visitor.conversationId}`, { headers: { Authorization: `Bearer ${process.env.E2E_ADMIN_TOKEN}` } });
  expect(gone.status).toBe(404);
  await owner.context.close();
});

test("an agent's visitor card shows no privacy actions", async ({ browser, site }) => {
  const visitor = await apiVisitor(site.id, { body: "Hello" });
  const agent = await signedInStaff(browser, "agent", "Abe Agent");
  await agent.page.goto(`${SERVICE_URL}/inbox/conversations/${visitor.conversationId}`);
  const card = agent.page.getByTestId("visitor-card");
  await expect(card).toContainText("First seen");
  await expect(card.getByRole("button", { name: "Erase…" })).toHaveCount(0);
  await agent.context.close();
});

test("the sign-in and setup pages paint the whole window: no band of another colour above the card", async ({ page }) => {
  for (const path of ["/inbox/sign-in", "/inbox/setup"]) {
    await page.goto(`${SERVICE_URL}${path}`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    // The page's own background, not the body's, at the top-left corner of the window.
    const topLeft = await page.evaluate(() => document.elementFromPoint(4, 4)?.closest("main, div")?.tagName ?? "none");
    expect(topLeft, path).toBe("DIV");
  }
});
