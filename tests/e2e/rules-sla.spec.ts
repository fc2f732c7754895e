import { onlyConversation } from "./support/admin";
import { SERVICE_URL } from "./support/env";
import { expect, test } from "./support/fixtures";
import { asStaff, inboxScreenshot, signedInStaff } from "./support/inbox";

// Issue 44's "done when": a visitor on /pricing is labelled and routed to Sales by a rule, and the
// Sales agent sees "first response due in 5 min" from the Sales team's SLA policy. The rule and the
// policy are made through the API (their pages have their own tests); the visitor uses the real
// widget on the customer's /pricing page; the agent's inbox is the real list.

test("a visitor on /pricing is labelled and routed to Sales, the agent sees 'first response due in 5 min'", async ({ browser, page, site, widget }) => {
  test.setTimeout(240_000);
  const owner = await signedInStaff(browser, "owner", "Priya Owner");
  const agent = await signedInStaff(browser, "agent", "Sam Sales");
  const suffix = site.id;
  const sales = await asStaff<{ id: string }>(owner, "POST", "/teams", { name: `Sales ${suffix}`, member_ids: [agent.id] });
  const label = await asStaff<{ id: string }>(owner, "POST", "/labels", { name: `Pricing ${suffix}`, color: "#336699" });
  await asStaff(owner, "POST", "/rules", {
    name: `Pricing to Sales ${suffix}`,
    event: "conversation.created",
    conditions: [
      { field: "site", op: "eq", value: site.id },
      { field: "page_url", op: "starts_with", value: "/pricing" },
    ],
    actions: [
      { type: "add_label", label_id: label.id },
      { type: "assign_team", team_id: sales.id },
    ],
  });
  const policy = await asStaff<{ id: string }>(owner, "POST", "/sla-policies", { name: `Sales ${suffix}`, first_response_minutes: 5, teams: [sales.id] });

  await page.goto(site.url.replace("/?", "/pricing?"));
  await widget.open();
  await widget.said("How much for 20 seats?");
  const conversation = await onlyConversation(site.id);

  // The rule runs after the start commits (the notification worker): the agent's list shows it once routed.
  const list = `${SERVICE_URL}/inbox?site=${encodeURIComponent(site.id)}&sort=sla`;
  const row = agent.page.locator(`[data-conversation="${conversation.id}"]`);
  await expect(async () => {
    await agent.page.goto(list);
    await expect(row.getByTestId("sla-due")).toHaveText(/first response due in [45] min/, { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  const read = await asStaff<{ team: { id: string } | null; labels: { id: string }[] }>(agent, "GET", `/conversations/${conversation.id}`);
  expect(read.team?.id).toBe(sales.id);
  expect(read.labels.map((item) => item.id)).toEqual([label.id]);

  // The team view (docs/teams.md): the agent's list narrowed to Sales.
  await agent.page.goto(`${SERVICE_URL}/inbox?team=${encodeURIComponent(sales.id)}&sort=sla`);
  await expect(row).toBeVisible();
  for (const [width, scheme] of [[1280, "light"], [1280, "dark"], [390, "light"], [390, "dark"]] as const) {
    await agent.page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await agent.page.emulateMedia({ colorScheme: scheme });
    await inboxScreenshot(agent.page, `team-view-${width}-${scheme}`);
  }

  await asStaff(owner, "DELETE", `/sla-policies/${policy.id}`);
  await agent.context.close();
  await owner.context.close();
});
