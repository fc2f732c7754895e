import { must, onlyConversation, staffSays } from "./support/admin";
import { SERVICE_URL } from "./support/env";
import { expect, test } from "./support/fixtures";
import { axeScan, signedInStaff } from "./support/inbox";

// Reports (issue #27, item 5): the owners' Reports page draws its charts with a table beside each,
// and a conversation's sidebar says how its response times were counted.

test("the Reports page draws its charts and tables, axe clean; the sidebar explains a conversation's metrics", async ({ browser, page, site, widget }) => {
  test.setTimeout(240_000); // a visitor flow, a sign-in, two inbox pages and an axe scan on `next dev`
  await page.goto(site.url);
  await widget.open();
  await widget.said("Is the blue one in stock?");
  const conversation = await onlyConversation(site.id);
  const owner = await signedInStaff(browser, "owner", "Rhea Reports");
  // Issue 39: opening a chart's table right after the page loads (before hydration, a quick click on
  // a slow page) made React report a mismatch on <details open>.
  const hydrationErrors: string[] = [];
  owner.page.on("console", (message) => {
    if (message.type() === "error" && /hydrat/i.test(message.text())) hydrationErrors.push(message.text().slice(0, 300));
  });
  await staffSays(conversation.id, owner.id, "Yes, ships today.");
  await must("POST", `/conversations/${conversation.id}/close`);

  await owner.page.goto(`${SERVICE_URL}/inbox/conversations/${encodeURIComponent(conversation.id)}`);
  const metrics = owner.page.getByTestId("conversation-metrics");
  await expect(metrics).toContainText("First response");
  await expect(metrics).toContainText("the site has no service hours");

  await owner.page.getByRole("link", { name: "Reports" }).click();
  await expect(owner.page.getByRole("heading", { name: "Reports", level: 1 })).toBeVisible();
  await owner.page.getByLabel("Site").selectOption(site.id);
  await owner.page.getByRole("button", { name: "Show" }).click();
  await expect(owner.page).toHaveURL(new RegExp(`site=${site.id}`));
  await expect(owner.page.getByTestId("report-summary")).toContainText("Started1Closed1");
  for (const chart of ["conversations", "first-response", "resolution", "ratings"]) {
    const figure = owner.page.getByTestId(`chart-${chart}`);
    await expect(figure.getByRole("img")).toBeVisible();
    expect(await figure.locator("rect").count()).toBeGreaterThan(0);
  }
  await owner.page.getByText("Table of “Conversations started and closed”").click();
  await expect(owner.page.getByTestId("chart-conversations").getByRole("table")).toBeVisible();
  await expect(owner.page.getByTestId("member-table")).toContainText("Unassigned");
  await expect(owner.page.getByRole("link", { name: /Download CSV/ })).toHaveAttribute("href", new RegExp(`^/api/v1/inbox/reports\\.csv\\?.*site=${site.id}`));
  await axeScan(owner.page, "the Reports page");
  expect(hydrationErrors).toEqual([]);
  await owner.context.close();
});
