import { CUSTOMER_URL, SERVICE_URL } from "./support/env";
import { expect as baseExpect, test } from "./support/fixtures";
import { signedInStaff } from "./support/inbox";

// Triage (issue #25 items 5–6): snoozing hides a conversation from the open list and a visitor
// message brings it back (with the staff-only timeline lines); an @mention in a note reaches the
// other agent's inbox.

test.describe.configure({ timeout: 180_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

async function visitorCall(path: string, body: Record<string, unknown>, token?: string) {
  const response = await fetch(`${SERVICE_URL}${path}`, {
    method: "POST",
    headers: { Origin: CUSTOMER_URL, "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { result: { conversation_id: string; visitor_token: string } }).result;
}

test("snooze hides the conversation from the open list and the visitor's message brings it back; a mention shows for the other agent", async ({ browser, site }) => {
  const started = await visitorCall(`/api/v1/chat/widget/${site.id}/conversations`, { name: "Sam Snooze", body: "Any update?", client_id: "t1" });
  const id = started.conversation_id;

  const ada = await signedInStaff(browser, "agent", "Ada Agent");
  const ben = await signedInStaff(browser, "agent", "Ben Agent");
  const inbox = ada.page;
  await inbox.goto(`${SERVICE_URL}/inbox/conversations/${id}?site=${site.id}`);
  await expect(inbox.getByRole("heading", { name: "Sam Snooze", level: 1 })).toBeVisible();

  await inbox.getByRole("button", { name: "Snooze", exact: true }).click();
  await inbox.getByRole("button", { name: "In 1 hour" }).click();
  await expect(inbox.getByTestId("conversation-status")).toContainText("Snoozed until");
  await expect(inbox.getByTestId("timeline-event").filter({ hasText: "Snoozed until" })).toContainText("by Ada Agent");
  await inbox.goto(`${SERVICE_URL}/inbox?site=${site.id}`);
  await expect(inbox.locator(`[data-conversation="${id}"]`)).toHaveCount(0);

  await visitorCall("/api/v1/chat/visitor/messages", { body: "Hello again?", client_id: "t2" }, started.visitor_token);
  await inbox.reload();
  await expect(inbox.locator(`[data-conversation="${id}"]`)).toBeVisible();
  await expect(inbox.locator(`[data-conversation="${id}"]`)).toContainText("waiting");

  // A private note mentioning Ben, picked with @ and the keyboard.
  await inbox.goto(`${SERVICE_URL}/inbox/conversations/${id}?site=${site.id}`);
  await expect(inbox.getByTestId("timeline-event").filter({ hasText: "the visitor wrote" })).toBeVisible();
  await inbox.getByText("Private note", { exact: true }).click();
  const composer = inbox.getByLabel("Private note (only your team sees it)");
  await composer.pressSequentially("Can you take this @Be");
  const picker = inbox.getByRole("listbox", { name: "Mention a teammate" });
  await expect(picker.getByRole("option", { name: "@Ben Agent" })).toHaveAttribute("aria-selected", "true");
  await composer.press("Enter");
  await expect(composer).toHaveValue("Can you take this @Ben Agent ");
  await composer.press("Enter");
  await expect(inbox.getByTestId("messages")).toContainText("Can you take this @Ben Agent");

  await expect(ben.page.getByTestId("mentions-button")).toContainText("1");
  await ben.page.getByTestId("mentions-button").click();
  await expect(ben.page.getByTestId("mention-item")).toContainText("Ada Agent mentioned you");
});
