import { SERVICE_URL } from "./support/env";
import { expect as baseExpect, test } from "./support/fixtures";
import { axeScan, signedInStaff } from "./support/inbox";

// The owners' audit log page (docs/security.md, "Audit log"): the rows of the team's own changes,
// a filter by action, the CSV link carrying the same filter, axe-clean light and dark; agents are
// told it is for owners.

test.describe.configure({ timeout: 180_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

test("an owner reads and filters the audit log; the CSV link keeps the filter; an agent may not", async ({ browser }) => {
  const owner = await signedInStaff(browser, "owner", "Audra Owner");
  const page = owner.page;
  await page.goto(`${SERVICE_URL}/inbox/settings`);
  await page.getByRole("link", { name: "Audit log" }).click();
  await expect(page.getByRole("heading", { name: "Audit log", level: 1 })).toBeVisible();
  // Accepting the invite (the owner's own sign-up) is in the log.
  await expect(page.locator(`[data-action="invite.accepted"]`).filter({ hasText: `member:${owner.id}` })).toHaveCount(1);

  await page.getByLabel("Action").fill("invite.*");
  await page.getByRole("button", { name: "Filter" }).click();
  await page.waitForURL(/action=invite/);
  const actions = await page.locator("[data-action]").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-action")));
  expect(actions.length).toBeGreaterThan(0);
  expect(actions.every((action) => action!.startsWith("invite."))).toBe(true);
  await expect(page.getByTestId("audit-csv")).toHaveAttribute("href", /^\/api\/v1\/inbox\/audit\.csv\?action=invite\.\*$/);

  const csv = await page.request.get(`${SERVICE_URL}${await page.getByTestId("audit-csv").getAttribute("href")}`);
  expect(csv.status()).toBe(200);
  expect(await csv.text()).toMatch(/^at,actor,action,target,ip,details,id\r\n/);

  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await axeScan(page, `audit log (${scheme})`);
  }
  await page.setViewportSize({ width: 375, height: 740 });
  await axeScan(page, "audit log at 375 px");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

  const agent = await signedInStaff(browser, "agent", "Arno Agent");
  await agent.page.goto(`${SERVICE_URL}/inbox/settings/audit`);
  await expect(agent.page.getByText(/Only owners can read the audit log/)).toHaveAttribute("role", "alert");
  await agent.context.close();
  await owner.context.close();
});
