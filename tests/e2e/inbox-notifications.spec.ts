import { createHmac } from "node:crypto";
import type { Page } from "@playwright/test";
import { WebhookReceiver } from "../support/webhook-receiver";
import { must } from "./support/admin";
import { CUSTOMER_URL, SERVICE_URL } from "./support/env";
import { expect as baseExpect, test } from "./support/fixtures";
import { axeScan, inboxScreenshot, signedInStaff } from "./support/inbox";

// The inbox's notification settings (owners): webhooks with the secret shown once and the delivery
// log, the email outbox, and verified visitor identities. The service runs with
// WEBHOOK_ALLOW_PRIVATE_TARGETS=on (playwright.config.ts), so it delivers to a receiver here.

test.describe.configure({ timeout: 120_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

/** Reloads `page` until `check` passes: delivery attempts and emails change no live event. */
async function reloadUntil(page: Page, check: () => Promise<void>) {
  await expect(async () => {
    await page.reload();
    await check();
  }).toPass({ timeout: 40_000, intervals: [500, 1_000, 2_000] });
}

const startConversation = (siteId: string, body: Record<string, unknown>) =>
  fetch(`${SERVICE_URL}/api/v1/chat/widget/${siteId}/conversations`, {
    method: "POST",
    headers: { Origin: CUSTOMER_URL, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  }).then(async (response) => {
    expect(response.status).toBe(201);
    return (await response.json()).result.conversation_id as string;
  });

test("an owner adds a webhook, sees its secret once, watches a delivery arrive and retries it", async ({ browser, site }) => {
  const receiver = await new WebhookReceiver().start();
  const owner = await signedInStaff(browser, "owner", "Wendy Webhooks");
  await owner.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: SERVICE_URL });
  const inbox = owner.page;
  try {
    await inbox.getByRole("link", { name: "Settings" }).click();
    const form = inbox.getByRole("form", { name: "Add a webhook" });
    // Every event is ticked by default; untick two.
    await form.getByLabel(/ticket\.created/).uncheck();
    await form.getByLabel(/attachment\.uploaded/).uncheck();
    await form.getByLabel("Endpoint URL").fill("ftp://example.com/hook");
    await form.getByRole("button", { name: "Create webhook" }).click();
    await expect(form.getByRole("alert")).toContainText("must be an https URL");
    await form.getByLabel("Endpoint URL").fill(receiver.url);
    await form.getByLabel("Description (optional)").fill("Our CRM");
    await form.getByRole("button", { name: "Create webhook" }).click();

    const secretBox = inbox.getByTestId("webhook-secret");
    await expect(secretBox).toContainText("Copy it now: you will not see it again.");
    const secret = await secretBox.getByRole("textbox", { name: "Signing secret" }).inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    receiver.useSecret(secret);
    await secretBox.getByRole("button", { name: "Copy secret" }).click();
    await expect(secretBox.getByRole("status")).toHaveText("Copied to the clipboard.");
    expect(await inbox.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await inboxScreenshot(inbox, "inbox-07-webhook-secret");

    // Shown once: after a reload the webhook is listed, its secret nowhere.
    await inbox.reload();
    await expect(inbox.getByTestId("webhook-secret")).toHaveCount(0);
    expect(await inbox.content()).not.toContain(secret);
    const listed = inbox.getByTestId("webhooks").getByRole("listitem").filter({ hasText: receiver.url });
    await expect(listed).toContainText("conversation.started, message.created, conversation.closed, conversation.rated, privacy.erased, sla.breached · Our CRM");
    await listed.getByRole("link").click();
    await expect(inbox.getByRole("heading", { level: 1 })).toHaveText(`Webhook to ${receiver.url}`);

    // A visitor writes: the service posts signed events; the log shows them delivered.
    const conversationId = await startConversation(site.id, { body: "Is anyone hooked up?", client_id: "w1" });
    await expect.poll(() => receiver.received.filter((event) => event.payload.data?.conversation_id === conversationId).map((event) => event.payload.type).sort()).toEqual([
      "conversation.started",
      "message.created",
    ]);
    expect(receiver.received.every((event) => event.verified)).toBe(true);
    const started = receiver.received.find((event) => event.payload.type === "conversation.started" && event.payload.data.conversation_id === conversationId)!;

    const deliveries = inbox.getByTestId("deliveries");
    const row = deliveries.locator("[data-delivery]").filter({ has: inbox.locator("code", { hasText: /^conversation\.started$/ }) }).filter({ hasText: started.id });
    await reloadUntil(inbox, async () => {
      await expect(row).toHaveAttribute("data-status", "succeeded", { timeout: 1_000 });
    });
    await expect(row).toContainText("attempt 1");
    await expect(row).toContainText("HTTP 200");

    // Retry: one more attempt, the same webhook-id.
    receiver.received.length = 0;
    await row.getByRole("button", { name: /^Retry conversation\.started delivery/ }).click();
    await expect(row.getByRole("status")).toHaveText("Queued again.");
    await expect.poll(() => receiver.received.map((event) => event.id)).toContain(started.id);
    await reloadUntil(inbox, async () => {
      await expect(row).toContainText("attempt 2", { timeout: 1_000 });
      await expect(row).toHaveAttribute("data-status", "succeeded", { timeout: 1_000 });
    });
    await inboxScreenshot(inbox, "inbox-08-webhook-deliveries");

    // Edit, then delete (after confirming).
    const endpoint = inbox.getByRole("form", { name: "Endpoint" });
    await endpoint.getByLabel("Description (optional)").fill("CRM, renamed");
    await endpoint.getByRole("button", { name: "Save webhook" }).click();
    await expect(endpoint.getByRole("status")).toHaveText("Saved.");
    inbox.once("dialog", (dialog) => void dialog.accept());
    await endpoint.getByRole("button", { name: "Delete webhook" }).click();
    await inbox.waitForURL(/\/inbox\/settings#webhooks-title$/);
    await expect(inbox.getByRole("heading", { name: "Webhooks", exact: true })).toBeVisible();
    await expect(inbox.getByText(receiver.url)).toHaveCount(0);
  } finally {
    // Leave no webhook behind for the other tests' events.
    for (const webhook of await must<{ id: string; url: string }[]>("GET", "/webhooks")) {
      if (webhook.url === receiver.url) await must("DELETE", `/webhooks/${webhook.id}`);
    }
    await receiver.stop();
    await owner.context.close();
  }
});

test("an owner sees a webhook's health and sends it a test event", async ({ browser }) => {
  const receiver = await new WebhookReceiver().start();
  // Webhooks take every site's events, and other specs file tickets meanwhile: an event no browser
  // test causes keeps "Not attempted yet" true until the test event.
  const webhook = await must<{ id: string; secret: string }>("POST", "/webhooks", { url: receiver.url, events: ["privacy.erased"] });
  receiver.useSecret(webhook.secret);
  const owner = await signedInStaff(browser, "owner", "Hana Health");
  try {
    await owner.page.goto(`${SERVICE_URL}/inbox/settings/webhooks/${webhook.id}`);
    const health = owner.page.getByTestId("webhook-health");
    await expect(health).toContainText("Not attempted yet");
    await owner.page.getByRole("button", { name: "Send a test event" }).click();
    await expect.poll(() => receiver.received.map((event) => [event.payload.type, event.verified])).toEqual([["webhook.test", true]]);
    await reloadUntil(owner.page, async () => {
      await expect(health).toHaveAttribute("data-result", "succeeded", { timeout: 1_000 });
    });
    await expect(health).toContainText("Healthy");
    await expect(health).toContainText("(HTTP 200)");
  } finally {
    await must("DELETE", `/webhooks/${webhook.id}`);
    await receiver.stop();
    await owner.context.close();
  }
});

test("the outbox shows an email as not sent, with its text; agents cannot open it", async ({ browser, site }) => {
  const subject = `Outbox ${Date.now().toString(36)}`;
  const filed = await fetch(`${SERVICE_URL}/api/v1/chat/widget/${site.id}/tickets`, {
    method: "POST",
    headers: { Origin: CUSTOMER_URL, "Content-Type": "application/json" },
    body: JSON.stringify({ email: "reader@example.com", subject, body: "Where is my parcel?" }),
  }).then((response) => response.json());

  const owner = await signedInStaff(browser, "owner", "Otto Outbox");
  await owner.page.getByRole("link", { name: "Outbox" }).click();
  await expect(owner.page.getByRole("heading", { name: "Email outbox", level: 1 })).toBeVisible();
  const email = owner.page.getByTestId("outbox").getByRole("listitem").filter({ hasText: subject });
  await reloadUntil(owner.page, async () => {
    await expect(email).toHaveCount(1, { timeout: 1_000 });
  });
  await expect(email).toContainText(`[#${filed.result.number}] ${subject}`);
  await expect(email.getByTestId("email-status")).toHaveText("Not sent");
  await expect(email).toContainText("To reader@example.com · Ticket acknowledgement");
  await email.getByText("Text of the email").click();
  await expect(email.locator("pre")).toContainText("Where is my parcel?");
  await inboxScreenshot(owner.page, "inbox-09-outbox");
  // Filtered by state; resending waits for SMTP (this service has none).
  await owner.page.getByRole("navigation", { name: "Filter by state" }).getByRole("link", { name: "Not sent" }).click();
  await expect(owner.page).toHaveURL(/\/inbox\/outbox\?status=not_sent$/);
  await email.getByRole("button", { name: `Resend [#${filed.result.number}] ${subject}` }).click();
  await expect(email.getByRole("alert")).toContainText("SMTP_URL is not set");
  await owner.page.getByRole("navigation", { name: "Filter by state" }).getByRole("link", { name: "Sent", exact: true }).click();
  await expect(email).toHaveCount(0);
  await owner.context.close();

  const agent = await signedInStaff(browser, "agent", "Andy Agent");
  await expect(agent.page.getByRole("link", { name: "Outbox" })).toHaveCount(0);
  await agent.page.goto(`${SERVICE_URL}/inbox/outbox`);
  await expect(agent.page.getByText(/Only owners can read the email outbox/)).toHaveAttribute("role", "alert");
  await agent.context.close();
});

test("verified visitors are marked, and their other conversations are one click away", async ({ browser, site }) => {
  const { identity_secret } = await must<{ identity_secret: string }>("POST", `/sites/${site.id}/identity-secret`);
  const verified = (userId: string) => ({ user_id: userId, user_hash: createHmac("sha256", identity_secret).update(userId).digest("hex") });
  const earlier = await startConversation(site.id, { body: "My first question", client_id: "v1", name: "Vic Verified", ...verified("customer-1") });
  const later = await startConversation(site.id, { body: "Me again", client_id: "v2", name: "Vic Verified", ...verified("customer-1") });
  await startConversation(site.id, { body: "Just browsing", client_id: "a1", name: "Anne Anonymous" });

  const agent = await signedInStaff(browser, "agent", "Vera Verifier");
  const inbox = agent.page;
  await inbox.goto(`${SERVICE_URL}/inbox?site=${site.id}`);
  await expect(inbox.locator(`[data-conversation="${later}"]`).getByTestId("verified")).toHaveText("✓ Verified");
  await expect(inbox.locator(`[data-conversation="${earlier}"]`).getByTestId("verified")).toHaveCount(1);
  await expect(inbox.locator("[data-conversation]").filter({ hasText: "Anne Anonymous" }).getByTestId("verified")).toHaveCount(0);

  await inbox.locator(`[data-conversation="${later}"]`).getByRole("link").click();
  await expect(inbox.getByTestId("identity")).toHaveText("Verified user customer-1");
  const others = inbox.getByRole("complementary").getByRole("region", { name: "Other conversations of this visitor" });
  await expect(others.getByRole("link")).toHaveCount(1);
  await inboxScreenshot(inbox, "inbox-10-verified");
  await others.getByRole("link").click();
  await inbox.waitForURL(new RegExp(`/inbox/conversations/${earlier}$`));
  await expect(inbox.getByTestId("messages")).toContainText("My first question");
  await agent.context.close();
});

test("the new pages: refuse framing, no serious axe issue light and dark, readable at 375 px", async ({ browser, site }) => {
  // Nine pages, each scanned by axe in light and dark, on `next dev` beside the other worker's axe
  // test: 57 s alone, 110–130 s beside it on a 2-core machine (traces: no step over 11 s; the
  // settings page's scan alone 7–9 s, as it lists every site the suite has made), over the 120 s
  // default. The budget is time, not any of the checks.
  test.setTimeout(240_000);
  const webhook = await must<{ id: string }>("POST", "/webhooks", { url: "https://hooks.e2e.invalid/axe", events: ["ticket.created"], description: "Axe" });
  await fetch(`${SERVICE_URL}/api/v1/chat/widget/${site.id}/tickets`, {
    method: "POST",
    headers: { Origin: CUSTOMER_URL, "Content-Type": "application/json" },
    body: JSON.stringify({ email: "axe@example.com", subject: "Axe ticket", body: "For the outbox and a delivery." }),
  });
  const owner = await signedInStaff(browser, "owner", "Axel Owner");
  const page = owner.page;
  try {
    const paths = ["/inbox/settings", `/inbox/settings/webhooks/${webhook.id}`, "/inbox/outbox"];
    for (const path of [...paths, "/inbox", "/inbox/sign-in"]) {
      const response = await page.request.get(`${SERVICE_URL}${path}`);
      expect(response.headers()["x-frame-options"], path).toBe("DENY");
      expect(response.headers()["content-security-policy"], path).toContain("frame-ancestors 'none'");
    }
    await reloadUntil(page, async () => {
      await page.goto(`${SERVICE_URL}/inbox/settings/webhooks/${webhook.id}`);
      await expect(page.getByTestId("deliveries")).toBeVisible({ timeout: 1_000 });
    });
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const path of paths) {
        await page.goto(`${SERVICE_URL}${path}`);
        await axeScan(page, `${path} (${scheme})`);
      }
    }
    await page.setViewportSize({ width: 375, height: 740 });
    for (const path of paths) {
      await page.goto(`${SERVICE_URL}${path}`);
      await axeScan(page, `${path} at 375 px`);
      const wide = await page.evaluate(() =>
        [...document.querySelectorAll("body *")].filter((element) => element.getBoundingClientRect().right > 376).map((element) => `${element.tagName} ${element.className} ${element.textContent?.slice(0, 40)}`),
      );
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${path}: ${wide.slice(0, 5).join(" | ")}`).toBeLessThanOrEqual(375);
    }
    await page.getByText("Text of the email").first().click();
    await inboxScreenshot(page, "inbox-11-outbox-mobile-dark");
  } finally {
    await must("DELETE", `/webhooks/${webhook.id}`);
    await owner.context.close();
  }
});
