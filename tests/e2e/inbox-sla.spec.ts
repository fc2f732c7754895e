import { onlyConversation } from "./support/admin";
import { SERVICE_URL } from "./support/env";
import { expect, test } from "./support/fixtures";
import { axeScan, inboxScreenshot, signedInStaff } from "./support/inbox";

// SLA policies (issue 44, the SLA half; docs/sla.md): an owner adds a policy on the settings page,
// a visitor writes, and the inbox shows "first response due in 5 min" in the list and the due
// times in the conversation's sidebar. Screenshots at 1280 and 390 px, light and dark.

test("an owner adds a five-minute policy; the list says 'first response due in 5 min' and the sidebar shows the due times", async ({ browser, page, site, widget }) => {
  test.setTimeout(240_000); // a sign-in, the settings page, a visitor flow and two inbox pages on `next dev`
  const owner = await signedInStaff(browser, "owner", "Sally SLA");
  const consoleErrors: string[] = [];
  owner.page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text().slice(0, 400));
  });
  await owner.page.goto(`${SERVICE_URL}/inbox/settings/sla`);
  await expect(owner.page.getByRole("heading", { name: "SLA policies", level: 1 })).toBeVisible();
  const form = owner.page.getByRole("form", { name: "Add a policy" });
  await form.getByLabel("Name").fill(`Five minutes ${site.id}`);
  await form.getByLabel("First response (min)").fill("5");
  await form.getByLabel("Resolution (min)").fill("240");
  await form.locator('select[name="sites"]').selectOption(site.id);
  await form.getByRole("button", { name: "Create policy" }).click();
  await expect(form.getByRole("status")).toHaveText("SLA policy created.");
  await expect(owner.page.getByRole("form", { name: `SLA policy Five minutes ${site.id}` })).toBeVisible();
  await axeScan(owner.page, "the SLA policies page");
  for (const [width, scheme] of [[1280, "light"], [1280, "dark"], [390, "light"], [390, "dark"]] as const) {
    await owner.page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await owner.page.emulateMedia({ colorScheme: scheme });
    await inboxScreenshot(owner.page, `sla-settings-${width}-${scheme}`);
  }
  await owner.page.setViewportSize({ width: 1280, height: 800 });
  await owner.page.emulateMedia({ colorScheme: "light" });

  await page.goto(site.url);
  await widget.open();
  await widget.said("Is the blue one in stock?");
  const conversation = await onlyConversation(site.id);

  await owner.page.goto(`${SERVICE_URL}/inbox?site=${encodeURIComponent(site.id)}&sort=sla`);
  const row = owner.page.locator(`[data-conversation="${conversation.id}"]`);
  await expect(row.getByTestId("sla-due")).toHaveText(/first response due in [45] min/);
  await inboxScreenshot(owner.page, "sla-list-1280-light");

  await owner.page.goto(`${SERVICE_URL}/inbox/conversations/${encodeURIComponent(conversation.id)}`);
  const sidebar = owner.page.getByTestId("conversation-sla");
  await expect(sidebar).toContainText(`SLA: Five minutes ${site.id}`);
  await expect(sidebar.getByTestId("sla-first_response")).not.toHaveText("—");
  await expect(sidebar.getByTestId("sla-resolution")).not.toHaveText("—");
  await expect(sidebar.getByTestId("sla-next_response")).toHaveText("—");
  for (const [width, scheme] of [[1280, "dark"], [390, "light"]] as const) {
    await owner.page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await owner.page.emulateMedia({ colorScheme: scheme });
    await inboxScreenshot(owner.page, `sla-conversation-${width}-${scheme}`);
  }
  // "due in 5 min" is drawn from the clock: the server's and the browser's render may differ by a minute, never a hydration error.
  expect(consoleErrors.filter((text) => /hydrat/i.test(text))).toEqual([]);
  await owner.context.close();
});
