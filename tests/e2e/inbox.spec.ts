import { must, onlyConversation } from "./support/admin";
import { ADMIN_TOKEN, CUSTOMER_URL, SERVICE_URL } from "./support/env";
import { expect as baseExpect, test } from "./support/fixtures";
import { axeScan, inboxScreenshot, signedInStaff } from "./support/inbox";
import { png } from "./support/png";

// The staff inbox against a visitor on the customer page (another origin): two browser contexts.

// Inbox pages re-render on the server at each live event; on a loaded CI machine under `next dev`
// that can take seconds, so these tests wait longer than the widget's.
test.describe.configure({ timeout: 120_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

test("a visitor writes, the agent sees it live, types, replies, adds a note and closes", async ({ browser, page, site, widget }) => {
  const agent = await signedInStaff(browser, "agent", "Andy Agent");
  const inbox = agent.page;
  await inbox.goto(`${SERVICE_URL}/inbox?site=${site.id}`);
  await expect(inbox.getByText("No conversations here yet.")).toBeVisible();
  await expect(inbox.getByRole("status").filter({ hasText: "Live" })).toBeVisible();

  // The visitor writes: the conversation appears without a reload, bold with its unread count.
  await page.goto(site.url);
  await widget.open();
  await widget.said("Hello, is my order on its way?");
  const row = inbox.locator("[data-conversation]").first();
  // An anonymous visitor has a stable generated name ("Amber Fox"), the same in the list and the thread.
  const visitorName = (await must<{ visitor: { display_name: string } }>("GET", `/conversations/${(await onlyConversation(site.id)).id}`)).visitor.display_name;
  await expect(row).toContainText(visitorName);
  await expect(row).toContainText("Hello, is my order on its way?");
  await expect(row.getByTestId("unread-count")).toHaveText("1");
  await expect(inbox).toHaveTitle(/^\(\d+\) Parley inbox$/);
  await inboxScreenshot(inbox, "inbox-01-list-unread");

  await row.getByRole("link").click();
  await expect(inbox.getByRole("heading", { name: visitorName, level: 1 })).toBeVisible();
  await expect(inbox.getByTestId("current-page")).toHaveText(/./);
  await expect(inbox.getByTestId("messages")).toContainText("Hello, is my order on its way?");
  await expect(row.getByTestId("unread-count")).toHaveCount(0);

  // The visitor types: the agent sees it.
  await widget.input.fill("One more");
  await expect(inbox.getByTestId("visitor-typing")).toHaveText(`${visitorName} is typing…`);
  await widget.input.fill("");

  // The agent types: the visitor sees it; then replies with Enter.
  const composer = inbox.getByLabel("Reply to the visitor");
  await composer.fill("Let me check");
  await composer.pressSequentially(" that for you.");
  await expect(widget.typing).toHaveText(/is typing…/);
  await inboxScreenshot(inbox, "inbox-02-conversation");
  await composer.press("Enter");
  await expect(widget.message("Let me check that for you.")).toBeVisible();
  await expect(widget.message("Let me check that for you.").locator(".nm")).toHaveText("Andy Agent");

  // A private note stays in the inbox, never reaches the visitor.
  await inbox.getByText("Private note", { exact: true }).click();
  await inbox.getByLabel("Private note (only your team sees it)").fill("Customer is a VIP");
  await inbox.getByLabel("Private note (only your team sees it)").press("Enter");
  await expect(inbox.locator('[data-kind="note"]')).toContainText("Customer is a VIP");
  await inbox.getByText("Reply", { exact: true }).click();
  await composer.fill("It ships today.");
  await composer.press("Enter");
  await expect(widget.message("It ships today.")).toBeVisible();
  await expect(page.locator("parley-chat")).not.toContainText("Customer is a VIP");

  // Seen: the visitor's widget has fetched the replies.
  await expect(inbox.getByTestId("seen")).toHaveText("The visitor has seen the last reply");
  await inboxScreenshot(inbox, "inbox-03-note-and-seen");

  // Closing tells the visitor.
  await inbox.getByRole("button", { name: "Close conversation" }).click();
  await expect(inbox.getByRole("button", { name: "Reopen conversation" })).toBeVisible();
  await expect(page.locator("parley-chat")).toContainText("This conversation was closed.");
  expect((await onlyConversation(site.id)).status).toBe("closed");
  await agent.context.close();
});

test("the inbox fills the page; after a note the composer is a reply again; closing says it is working", async ({ browser, page, site, widget }) => {
  const agent = await signedInStaff(browser, "agent", "Andy Agent");
  const inbox = agent.page;
  await page.goto(site.url);
  await widget.open();
  await widget.said("Is the lamp dimmable?");
  const conversation = await onlyConversation(site.id);
  await inbox.goto(`${SERVICE_URL}/inbox/conversations/${conversation.id}`);
  await expect(inbox.getByTestId("messages")).toContainText("Is the lamp dimmable?");
  expect(await inbox.evaluate(() => getComputedStyle(document.body).margin)).toBe("0px"); // no white frame in dark mode

  await inbox.getByText("Private note", { exact: true }).click();
  const note = inbox.getByLabel("Private note (only your team sees it)");
  await note.fill("Check the spec sheet");
  await note.press("Enter");
  await expect(inbox.locator('[data-kind="note"]')).toContainText("Check the spec sheet");
  await expect(inbox.getByRole("radio", { name: "Reply" })).toBeChecked();
  await expect(inbox.getByLabel("Reply to the visitor")).toBeVisible();

  // The close is held until the test lets it go: meanwhile the button says what it is doing.
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await inbox.route(/\/close$/, async (route) => {
    await released;
    await route.continue();
  });
  await inbox.getByRole("button", { name: "Close conversation" }).click();
  await expect(inbox.getByRole("button", { name: "Closing…" })).toBeDisabled();
  release();
  await expect(inbox.getByRole("button", { name: "Reopen conversation" })).toBeEnabled();
  await agent.context.close();
});

test("an agent cannot open settings; an owner can, and invites a member", async ({ browser }) => {
  const agent = await signedInStaff(browser, "agent", "Ann Agent");
  await expect(agent.page.getByRole("link", { name: "Settings" })).toHaveCount(0);
  await agent.page.goto(`${SERVICE_URL}/inbox/settings`);
  await expect(agent.page.getByText(/Only owners can change settings/)).toHaveAttribute("role", "alert");
  const refused = await agent.page.evaluate(async () => {
    const response = await fetch("/api/v1/inbox/sites", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ id: "x", origins: [] }) });
    return { status: response.status, code: (await response.json()).result.code };
  });
  expect(refused).toEqual({ status: 403, code: "forbidden" });
  await agent.context.close();

  const owner = await signedInStaff(browser, "owner", "Olive Owner");
  await owner.page.getByRole("link", { name: "Settings" }).click();
  await expect(owner.page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
  const siteId = `owner-${Date.now().toString(36)}`;
  await owner.page.getByLabel("Site id").fill(siteId);
  await owner.page.getByLabel("Allowed origins (one per line)").first().fill("https://Shop.Example:443/path");
  await owner.page.getByRole("button", { name: "Create site" }).click();
  await expect(owner.page.getByText(/origins\.0 must be an http\(s\) origin/)).toBeVisible();
  await owner.page.getByLabel("Allowed origins (one per line)").first().fill("https://Shop.Example:443");
  await owner.page.getByRole("button", { name: "Create site" }).click();
  await expect(owner.page.getByRole("heading", { name: new RegExp(`^${siteId} \\(${siteId}\\)$`) })).toBeVisible();
  await expect(owner.page.locator(`#embed-${siteId}-snippet`)).toHaveValue(`<script src="${SERVICE_URL}/widget.js" data-site="${siteId}" async></script>`);
  const sites = await must<{ id: string; origins: string[] }[]>("GET", "/sites");
  expect(sites.find((site) => site.id === siteId)?.origins).toEqual(["https://shop.example"]);

  const invite = owner.page.getByRole("form", { name: "Invite a team member" });
  await invite.getByLabel("Name", { exact: true }).fill("Nina New");
  await invite.getByLabel("Email", { exact: true }).fill("nina@team.example");
  await owner.page.getByRole("button", { name: "Create invite link" }).click();
  await expect(owner.page.getByLabel("Send this link (valid 7 days, one use)")).toHaveValue(/\/inbox\/invite\?code=in_/);
  await expect(invite.getByRole("button", { name: "Copy link" })).toBeVisible();
  await invite.evaluate((form) => form.scrollIntoView({ block: "center" }));
  await inboxScreenshot(owner.page, "inbox-04-settings");
  // Emailed through the outbox, listed as pending, then revoked.
  await invite.getByLabel("Name", { exact: true }).fill("Eve Emailed");
  await invite.getByLabel("Email", { exact: true }).fill("eve@team.example");
  await invite.getByLabel("Also email the link to them (through the outbox)").check();
  await owner.page.getByRole("button", { name: "Create invite link" }).click();
  await expect(owner.page.getByLabel(/^Emailed \(see the outbox\)/)).toHaveValue(/\/inbox\/invite\?code=in_/);
  const pending = owner.page.getByTestId("pending-invites");
  await expect(pending).toContainText("Eve Emailed · eve@team.example · agent");
  owner.page.once("dialog", (dialog) => void dialog.accept());
  await pending.getByRole("button", { name: "Revoke the invite to eve@team.example" }).click();
  await expect(pending.getByText("eve@team.example")).toHaveCount(0);
  await owner.context.close();
});

test("ticket files download only with a session; an agent replies and the reply is emailed to the filer", async ({ browser, site }) => {
  const bytes = png(4, 4, () => [10, 200, 10]);
  const filed = await fetch(`${SERVICE_URL}/api/v1/chat/widget/${site.id}/tickets`, {
    method: "POST",
    headers: { Origin: CUSTOMER_URL, "Content-Type": "application/json" },
    body: JSON.stringify({ email: "f@example.com", subject: "With a file", body: "See attached", files: [{ name: "proof.png", content_type: "image/png", bytes: bytes.length }] }),
  }).then((response) => response.json());
  const upload = await fetch(filed.result.uploads[0].upload_url, { method: "PUT", headers: { "Content-Type": "image/png" }, body: new Uint8Array(bytes) });
  expect(upload.status).toBe(200);
  const [ticket] = await must<{ attachments: { id: string }[] }[]>("GET", `/tickets?site=${site.id}`);
  const attachmentId = ticket!.attachments[0]!.id;

  const anonymous = await fetch(`${SERVICE_URL}/api/v1/inbox/attachments/${attachmentId}`);
  expect(anonymous.status).toBe(401);
  const withToken = await fetch(`${SERVICE_URL}/api/v1/admin/attachments/${attachmentId}`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(withToken.status).toBe(200);
  expect(withToken.headers.get("content-disposition")).toMatch(/^attachment; filename="proof.png"/);
  expect(Buffer.from(await withToken.arrayBuffer())).toEqual(bytes);

  const agent = await signedInStaff(browser, "agent", "Tia Tickets");
  await agent.page.getByRole("link", { name: "Tickets" }).click();
  await agent.page.getByRole("link", { name: "With a file" }).first().click();
  const downloadPromise = agent.page.waitForEvent("download");
  await agent.page.getByRole("link", { name: "proof.png" }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe("proof.png");

  // The reply: Shift+Enter breaks the line, Enter sends; the thread shows it, the filer gets it by email.
  await expect(agent.page.getByText("No replies yet.")).toBeVisible();
  await expect(agent.page.getByText("Sent by email to f@example.com (the subject keeps the ticket number); each reply above says whether it went.")).toBeVisible();
  const reply = agent.page.getByLabel("Reply to f@example.com");
  await reply.fill("Thanks for the file.");
  await reply.press("Shift+Enter");
  await reply.pressSequentially("It is fixed now.");
  await reply.press("Enter");
  const thread = agent.page.getByRole("list", { name: "Replies" });
  await expect(thread.getByRole("listitem")).toHaveCount(1);
  await expect(thread.getByRole("listitem")).toContainText("Tia Tickets");
  await expect(thread.getByRole("listitem")).toContainText("Thanks for the file.\nIt is fixed now.");
  await expect(reply).toHaveValue("");
  await inboxScreenshot(agent.page, "inbox-05-ticket");
  await agent.page.setViewportSize({ width: 375, height: 740 });
  await agent.page.emulateMedia({ colorScheme: "dark" });
  await axeScan(agent.page, "a ticket with a reply (dark, 375 px)");
  await inboxScreenshot(agent.page, "inbox-12-ticket-reply-mobile-dark");
  expect(await agent.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await agent.context.close();

  const owner = await signedInStaff(browser, "owner", "Tom Outbox");
  await owner.page.goto(`${SERVICE_URL}/inbox/outbox`);
  const email = owner.page.getByTestId("outbox").getByRole("listitem").filter({ hasText: `Re: [#${filed.result.number}] With a file` });
  await expect(async () => {
    await owner.page.reload();
    await expect(email).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 40_000, intervals: [500, 1_000, 2_000] });
  await expect(email).toContainText("To f@example.com · Ticket reply");
  await owner.context.close();
});

// axe over every inbox page, in three tests that run side by side: each page's scan takes 5-10 s
// (the settings page lists every site the suite has made), and one test over all of them ran past
// four minutes on a loaded 2-core machine. The budget is time, not any of the checks.
async function startAxeConversation(siteID: string): Promise<string> {
  const started = await fetch(`${SERVICE_URL}/api/v1/chat/widget/${siteID}/conversations`, {
    method: "POST",
    headers: { Origin: CUSTOMER_URL, "Content-Type": "application/json" },
    body: JSON.stringify({ body: "Accessible?", client_id: "a1", name: "Axe Visitor" }),
  }).then((response) => response.json());
  return started.result.conversation_id;
}

test("axe finds no serious or critical issue on the sign-in page and an unusable invite link", async ({ browser }) => {
  const context = await browser.newContext();
  const signIn = await context.newPage();
  await signIn.goto(`${SERVICE_URL}/inbox/sign-in`);
  await axeScan(signIn, "sign-in");
  await signIn.goto(`${SERVICE_URL}/inbox/invite?code=nope`);
  await axeScan(signIn, "an unusable invite link");
  await context.close();
});

for (const scheme of ["light", "dark"] as const) {
  test(`axe finds no serious or critical issue on the inbox pages (${scheme})`, async ({ browser, site }) => {
    test.setTimeout(180_000);
    const conversationID = await startAxeConversation(site.id);
    const owner = await signedInStaff(browser, "owner", `Axel ${scheme}`);
    await owner.page.emulateMedia({ colorScheme: scheme });
    for (const path of [`/inbox?site=${site.id}`, `/inbox/conversations/${conversationID}`, "/inbox/tickets", "/inbox/settings"]) {
      await owner.page.goto(`${SERVICE_URL}${path}`);
      await axeScan(owner.page, `${path} (${scheme})`);
    }
    await owner.context.close();
  });
}

test("axe finds no serious or critical issue on a conversation at 375 px, and nothing overflows", async ({ browser, site }) => {
  const conversationID = await startAxeConversation(site.id);
  const owner = await signedInStaff(browser, "owner", "Axel Phone");
  const page = owner.page;
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto(`${SERVICE_URL}/inbox/conversations/${conversationID}`);
  await axeScan(page, "conversation at 375 px");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await inboxScreenshot(page, "inbox-06-mobile");
  await owner.context.close();
});
