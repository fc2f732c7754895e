import { CUSTOMER_URL, SERVICE_URL } from "./support/env";
import { expect as baseExpect, test } from "./support/fixtures";
import { axeScan, signedInStaff } from "./support/inbox";

// Ticket triage (issue #25): an agent filters the tickets (the filters apply at once and live in
// the URL), sets a ticket pending and assigns it on its page (each change a line of its thread),
// and at 375 px the list is cards with no horizontal overflow; axe clean, light and dark.

test.describe.configure({ timeout: 180_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

async function fileTicket(siteId: string, subject: string, priority = "normal") {
  const filed = await fetch(`${SERVICE_URL}/api/v1/chat/widget/${siteId}/tickets`, {
    method: "POST",
    headers: { Origin: CUSTOMER_URL, "Content-Type": "application/json" },
    body: JSON.stringify({ email: "tia.with.a.rather.long.address@example.com", subject, body: "Please help", priority }),
  });
  expect(filed.status).toBe(201);
}

test("an agent filters tickets, sets one pending and assigns it; at 375 px the list has no horizontal overflow", async ({ browser, site }) => {
  const tag = Math.random().toString(36).slice(2, 8);
  await fileTicket(site.id, `Refund ${tag} please`, "urgent");
  await fileTicket(site.id, `Invoice ${tag} question`, "low");
  // A name of this attempt's own: a retry's agent is another member, and assigning by a shared name picked the first.
  const name = `Tess ${tag}`;
  const agent = await signedInStaff(browser, "agent", name);
  const inbox = agent.page;
  await inbox.goto(`${SERVICE_URL}/inbox/tickets?site=${encodeURIComponent(site.id)}`);
  const list = inbox.getByTestId("ticket-list");
  await expect(list.getByRole("row", { name: /Refund/ })).toContainText("open");
  await expect(list.getByRole("row", { name: /Invoice/ })).toBeVisible();

  // A filter applies at once and is kept in the URL.
  await inbox.getByLabel("Priority").selectOption("urgent");
  await inbox.waitForURL(/priority=urgent/);
  await expect(list.getByRole("row", { name: /Invoice/ })).toHaveCount(0);
  await expect(list.getByRole("row", { name: /Refund/ })).toBeVisible();
  await axeScan(inbox, "tickets filtered by priority");

  // Set pending and assign on the ticket's page: each change is a line of the thread.
  await list.getByRole("link", { name: `Refund ${tag} please` }).click();
  await inbox.waitForURL(/\/inbox\/tickets\/[^?]+$/);
  await inbox.getByLabel("Status").selectOption("pending");
  await expect(inbox.getByTestId("ticket-thread")).toContainText(`${name} set status to pending`);
  await inbox.getByLabel("Assignee").selectOption({ label: name });
  await expect(inbox.getByTestId("ticket-thread")).toContainText(`${name} assigned this to ${name}`);
  await expect(inbox.getByLabel("Status")).toHaveValue("pending");
  await axeScan(inbox, "a ticket set pending and assigned");

  // Pending and mine: the list says so; open ones no longer include it.
  await inbox.goto(`${SERVICE_URL}/inbox/tickets?site=${encodeURIComponent(site.id)}&status=pending&assignee=me`);
  const row = list.getByRole("row", { name: /Refund/ });
  await expect(row).toContainText("pending");
  await expect(row).toContainText(name);
  await inbox.getByLabel("Status").selectOption("open");
  await inbox.waitForURL((url) => !url.searchParams.has("status"));
  await expect(inbox.getByText("No tickets match these filters.")).toBeVisible();

  // At 375 px: cards, no horizontal overflow; light and dark.
  await inbox.setViewportSize({ width: 375, height: 740 });
  await inbox.goto(`${SERVICE_URL}/inbox/tickets?site=${encodeURIComponent(site.id)}&status=all`);
  await expect(list.getByRole("row", { name: /Refund/ })).toBeVisible();
  expect(await inbox.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await axeScan(inbox, "tickets at 375 px");
  await inbox.emulateMedia({ colorScheme: "dark" });
  await axeScan(inbox, "tickets at 375 px, dark");
  await agent.context.close();
});

test("the ticket list is live: a ticket filed while it is open appears without a reload; the search applies when typing pauses", async ({ browser, site }) => {
  const tag = Math.random().toString(36).slice(2, 8);
  await fileTicket(site.id, `Earlier ${tag} ticket`);
  const agent = await signedInStaff(browser, "agent", "Liv Live");
  const inbox = agent.page;
  await inbox.goto(`${SERVICE_URL}/inbox/tickets?site=${encodeURIComponent(site.id)}`);
  const list = inbox.getByTestId("ticket-list");
  await expect(list.getByRole("row", { name: /Earlier/ })).toBeVisible();
  await expect(inbox.getByRole("status").filter({ hasText: "Live" })).toBeVisible();

  await fileTicket(site.id, `Arrived ${tag} live`);
  await expect(list.getByRole("row", { name: /Arrived/ })).toBeVisible();

  // No Enter: the search applies once typing pauses, and lives in the URL.
  await inbox.getByLabel("Search tickets").pressSequentially("arrived", { delay: 30 });
  await inbox.waitForURL(/q=arrived/);
  await expect(list.getByRole("row", { name: /Earlier/ })).toHaveCount(0);
  await expect(list.getByRole("row", { name: /Arrived/ })).toBeVisible();
  await agent.context.close();
});
