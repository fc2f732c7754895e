import { must } from "./support/admin";
import { CUSTOMER_URL, SERVICE_URL } from "./support/env";
import { expect as baseExpect, test } from "./support/fixtures";
import { axeScan, signedInStaff } from "./support/inbox";

// The owners' suppression list on the Outbox page (issue 28): a visitor unsubscribes with the
// one-click link of their ticket acknowledgement (the outbox keeps its text: this service has no
// SMTP), the owner finds the address on the list — readable at 375 px in dark mode, no serious axe
// issue — and removes it with the keyboard.

test.describe.configure({ timeout: 120_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

test("an owner finds an unsubscribed address on the suppression list and removes it with the keyboard", async ({ browser, site }) => {
  const address = `leaver-${Date.now().toString(36)}@example.com`;
  const filed = await fetch(`${SERVICE_URL}/api/v1/chat/widget/${site.id}/tickets`, {
    method: "POST",
    headers: { Origin: CUSTOMER_URL, "Content-Type": "application/json" },
    body: JSON.stringify({ email: address, subject: "Please stop", body: "One question, then no more email." }),
  });
  expect(filed.status).toBe(201);
  let link = "";
  await expect(async () => {
    const emails = await must<{ to: string; text: string }[]>("GET", "/outbox");
    link = emails.find((email) => email.to === address)?.text.match(/\/api\/v1\/email\/unsubscribe\?\S+/)?.[0] ?? "";
    expect(link).not.toBe("");
  }).toPass({ timeout: 20_000 });
  const unsubscribed = await fetch(`${SERVICE_URL}${link}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: "List-Unsubscribe=One-Click",
  });
  expect(unsubscribed.status).toBe(200);

  const owner = await signedInStaff(browser, "owner", "Sue Suppressions");
  const page = owner.page;
  try {
    await page.goto(`${SERVICE_URL}/inbox/outbox`);
    const filter = page.getByRole("form", { name: "Filter the suppression list" });
    await filter.getByLabel("Address contains").fill(address.slice(0, 16).toUpperCase());
    await filter.getByLabel("Reason").selectOption("unsubscribe");
    await filter.getByRole("button", { name: "Filter" }).click();
    const entries = page.getByTestId("suppressions").getByRole("listitem");
    await expect(entries).toHaveCount(1);
    await expect(entries.first()).toContainText(address);
    await expect(entries.first()).toContainText("Unsubscribed");
    await expect(entries.first()).toContainText(`Site ${site.id}`);

    await page.emulateMedia({ colorScheme: "dark" });
    await page.setViewportSize({ width: 375, height: 740 });
    await axeScan(page, "outbox with a suppression at 375 px (dark)");
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    const remove = entries.first().getByRole("button", { name: `Remove ${address} from the suppression list` });
    await remove.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("status").filter({ hasText: "Removed" })).toBeVisible();
    await expect(page.getByTestId("suppressions")).toHaveCount(0);
    await expect(page.getByText("No entries match.")).toBeVisible();
  } finally {
    await owner.context.close();
  }
});
