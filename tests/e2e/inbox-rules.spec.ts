import { CUSTOMER_URL, SERVICE_URL } from "./support/env";
import { expect as baseExpect, test } from "./support/fixtures";
import { axeScan, inboxScreenshot, signedInStaff } from "./support/inbox";

// The owners' rules page (docs/rules.md): a rule made in the editor reads as a sentence, a
// visitor on /pricing is labelled and routed to Sales by it, the dry run says what it would do,
// recent runs show, axe-clean at 1280 and 390 px, light and dark. Agents are told it is for owners.

test.describe.configure({ timeout: 180_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

test("an owner writes a rule in the editor; a visitor on /pricing is labelled and routed to Sales", async ({ browser, site }) => {
  const owner = await signedInStaff(browser, "owner", "Rena Owner");
  const page = owner.page;
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await page.request.fetch(`${SERVICE_URL}${path}`, { method, data: body, headers: { Origin: SERVICE_URL } });
    expect(response.status(), await response.text()).toBeLessThan(300);
    return ((await response.json()) as { result: any }).result;
  };
  const suffix = Date.now().toString(36);
  const label = await call("POST", "/api/v1/inbox/labels", { name: `Sales ${suffix}`, color: "#336699" });
  const team = await call("POST", "/api/v1/inbox/teams", { name: `Sales ${suffix}` });

  await page.goto(`${SERVICE_URL}/inbox/settings`);
  await page.getByRole("link", { name: "Rules", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Rules", level: 1 })).toBeVisible();
  const form = page.getByRole("form", { name: "New rule" });
  await form.getByLabel("Name").fill(`Pricing ${suffix}`);
  await form.getByRole("button", { name: "Add a condition" }).click();
  await form.locator("#condition-0-value").fill("/pricing");
  await form.locator("#action-0-label_id").selectOption(label.id);
  await form.getByRole("button", { name: "Add an action" }).click();
  await form.locator("#action-1-type").selectOption("assign_team");
  await form.locator("#action-1-team_id").selectOption(team.id);
  await form.getByRole("button", { name: "Create rule" }).click();
  const card = page.locator("[data-rule]").filter({ hasText: `Pricing ${suffix}` });
  await expect(card.getByTestId("rule-sentence")).toHaveText(`When a conversation starts and the page is /pricing, add label Sales ${suffix} and assign team Sales ${suffix}.`);

  const started = await fetch(`${SERVICE_URL}/api/v1/chat/widget/${site.id}/conversations`, {
    method: "POST",
    headers: { Origin: CUSTOMER_URL, "Content-Type": "application/json" },
    body: JSON.stringify({ body: "How much for 20 seats?", client_id: `rules-${suffix}`, page_url: `${CUSTOMER_URL}/pricing` }),
  });
  expect(started.status).toBe(201);
  const conversationId = ((await started.json()) as { result: { conversation_id: string } }).result.conversation_id;
  await expect
    .poll(async () => {
      const read = await call("GET", `/api/v1/inbox/conversations/${conversationId}`);
      const conversation = read.conversation ?? read;
      return [conversation.team?.id ?? null, (conversation.labels ?? []).map((item: { id: string }) => item.id)];
    })
    .toEqual([team.id, [label.id]]);

  await page.reload();
  const reloaded = page.locator("[data-rule]").filter({ hasText: `Pricing ${suffix}` });
  await reloaded.getByText("Recent runs (1)").click();
  await reloaded.getByText("Edit or test").click();
  await reloaded.getByLabel("Conversation id").fill(conversationId);
  await reloaded.getByRole("button", { name: "Test on a conversation" }).click();
  await expect(reloaded.getByTestId("rule-test-result")).toContainText("It would act:");
  await expect(reloaded.getByTestId("rule-test-result")).toContainText("✓ page_url is /pricing");
  await expect(reloaded.getByTestId("rule-test-result")).toContainText(`add label Sales ${suffix}, then assign team Sales ${suffix}. Nothing was changed.`);

  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (const scheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.evaluate(() => window.scrollTo(0, 0));
      await inboxScreenshot(page, `inbox-rules-${width}-${scheme}`);
      await axeScan(page, `rules (${width} px, ${scheme})`);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }

  const agent = await signedInStaff(browser, "agent", "Arlo Agent");
  await agent.page.goto(`${SERVICE_URL}/inbox/settings/rules`);
  await expect(agent.page.getByText(/Only owners can manage rules/)).toBeVisible();
  await agent.context.close();
  await owner.context.close();
});
