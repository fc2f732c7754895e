import type { Page } from "@playwright/test";
import { must, onlyConversation } from "./support/admin";
import { SERVICE_URL } from "./support/env";
import { expect as baseExpect, screenshot, test } from "./support/fixtures";
import { inboxScreenshot, signedInStaff } from "./support/inbox";

// Departments and the pre-chat form in the widget (issue #41, items 3 and 5; docs/attributes.md):
// a visitor picks "Sales", fills the form and consents; the conversation lands in Sales with the
// visitor's name, the plan attribute and the exact consent text; a Sales agent answers; a Support
// agent's inbox never shows it.

test.describe.configure({ timeout: 240_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

const CONSENT = "I agree that Customer shop keeps this chat to answer me.";

/** An inbox API call as the signed-in member of `page` (the session cookie, the inbox's Origin). */
async function inboxCall<T>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  const response = await page.request.fetch(`${SERVICE_URL}/api/v1/inbox${path}`, { method, data: body, headers: { Origin: SERVICE_URL } });
  const json = (await response.json()) as { success: boolean; result: T };
  expect(json.success, JSON.stringify(json)).toBe(true);
  return json.result;
}

test("a visitor picks Sales, fills the form and consents; a Sales agent answers; a Support agent never sees it", async ({ browser, page, site, widget }) => {
  const [owner, sales, support] = [
    await signedInStaff(browser, "owner", "Olga Owner"),
    await signedInStaff(browser, "agent", "Sam Sales"),
    await signedInStaff(browser, "agent", "Sue Support"),
  ];
  const salesTeam = await inboxCall<{ id: string }>(owner.page, "POST", "/teams", { name: `Sales ${site.id}`, member_ids: [sales.id] });
  const supportTeam = await inboxCall<{ id: string }>(owner.page, "POST", "/teams", { name: `Support ${site.id}`, member_ids: [support.id] });
  const plans = await inboxCall<{ key: string }[]>(owner.page, "GET", "/attributes");
  if (!plans.some((definition) => definition.key === "plan")) {
    // Defined in Settings, as an owner would.
    await owner.page.goto(`${SERVICE_URL}/inbox/settings`);
    const form = owner.page.getByRole("form", { name: "Add an attribute" });
    await form.getByLabel("Key (a-z, 0-9, _)").fill("plan");
    await form.getByLabel("Label").fill("Plan");
    await form.getByLabel("Type").selectOption("list");
    await form.getByLabel("Options (a list's, one a line)").fill("free\npro");
    await form.getByRole("button", { name: "Create attribute" }).click();
    await expect(owner.page.getByTestId("attribute-definitions")).toContainText("free, pro");
  }
  await must("PATCH", `/sites/${site.id}`, {
    departments: [
      { team_id: salesTeam.id, label: "Sales" },
      { team_id: supportTeam.id, label: "Support" },
    ],
    prechat: {
      fields: [
        { key: "name", required: true },
        { key: "plan", required: true },
      ],
      consent: { text: CONSENT, required: true },
    },
  });

  await page.goto(site.url);
  await widget.open();
  await widget.say("Can I get a quote?");
  const chat = page.locator("parley-chat");
  const department = chat.getByLabel("Who would you like to talk to?");
  await expect(department).toBeVisible();
  await department.selectOption({ label: "Sales" });
  await chat.getByLabel("Name", { exact: true }).fill("Ada Lovelace");
  await chat.getByRole("combobox", { name: "Plan" }).selectOption("pro");
  // The form at 1280 and 390 px, light and dark (docs/screenshots with E2E_SCREENSHOTS=1).
  await screenshot(page, "prechat-form-1280-light");
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, "prechat-form-1280-dark");
  await page.setViewportSize({ width: 390, height: 844 });
  await screenshot(page, "prechat-form-390-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await screenshot(page, "prechat-form-390-light");
  await page.setViewportSize({ width: 1280, height: 720 });
  await chat.getByLabel(CONSENT).check();
  await chat.getByRole("button", { name: "Start the chat" }).click();
  await expect(widget.message("Can I get a quote?").locator(".mt")).not.toHaveText(/Sending|Not sent|Waiting/);

  const started = await onlyConversation(site.id);
  const stored = await inboxCall<{ team: { id: string } | null; visitor_name: string; attributes: Record<string, unknown>; consent: { text: string } | null }>(
    owner.page,
    "GET",
    `/conversations/${started.id}`,
  );
  expect(stored.team?.id).toBe(salesTeam.id);
  expect(stored.visitor_name).toBe("Ada Lovelace");
  expect(stored.attributes).toEqual({ plan: "pro" });
  expect(stored.consent?.text).toBe(CONSENT);

  // The Sales agent sees it with the consent in the sidebar, and answers.
  await sales.page.goto(`${SERVICE_URL}/inbox/conversations/${started.id}`);
  await expect(sales.page.getByTestId("conversation-consent")).toContainText(CONSENT);
  await expect(sales.page.getByTestId("conversation-attributes")).toContainText("pro");
  await sales.page.getByTestId("conversation-attributes").scrollIntoViewIfNeeded();
  await inboxScreenshot(sales.page, "attributes-sidebar-1280-light");
  await sales.page.emulateMedia({ colorScheme: "dark" });
  await inboxScreenshot(sales.page, "attributes-sidebar-1280-dark");
  await sales.page.emulateMedia({ colorScheme: "light" });
  const composer = sales.page.getByLabel("Reply to the visitor");
  await composer.fill("Happy to help with a quote.");
  await composer.press("Enter");
  await expect(widget.message("Happy to help with a quote.")).toBeVisible();

  // The Support agent: not in the list, and its page is not found.
  await support.page.goto(`${SERVICE_URL}/inbox?status=all`);
  await expect(support.page.locator("body")).not.toContainText("Ada Lovelace");
  const hidden = await support.page.goto(`${SERVICE_URL}/inbox/conversations/${started.id}`);
  expect(hidden?.status()).toBe(404);

  for (const staff of [owner, sales, support]) await staff.context.close();
});
