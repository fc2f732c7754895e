import { CUSTOMER_URL, SERVICE_URL } from "./support/env";
import { expect as baseExpect, test } from "./support/fixtures";
import { axeScan, inboxScreenshot, signedInStaff } from "./support/inbox";

// The agent's workspace (issue #25): a saved reply picked with `/` in the composer, its
// placeholders filled; a label put on a conversation, shown as a chip, and the list filtered by it.

// Inbox pages re-render on the server at each live event; on a loaded machine under `next dev`
// that can take seconds (as in inbox.spec.ts).
test.describe.configure({ timeout: 180_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

async function startConversation(siteId: string, body: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${SERVICE_URL}/api/v1/chat/widget/${siteId}/conversations`, {
    method: "POST",
    headers: { Origin: CUSTOMER_URL, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { result: { conversation_id: string } }).result.conversation_id;
}

test("an agent types / and a saved reply expands with the visitor's name; a label is applied and the list filtered by it", async ({ browser, site }) => {
  const vera = await startConversation(site.id, { name: "Vera Visitor", body: "Where is my parcel?", client_id: "w1" });
  const other = await startConversation(site.id, { body: "Something else", client_id: "w2" });

  // An owner makes the label (owners manage labels; every member applies them).
  const owner = await signedInStaff(browser, "owner", "Olive Owner");
  await owner.page.getByRole("link", { name: "Settings" }).click();
  const labelName = `VIP ${Date.now().toString(36)}`;
  await owner.page.getByLabel("Label name").fill(labelName);
  await owner.page.getByRole("button", { name: "Create label" }).click();
  await expect(owner.page.getByRole("form", { name: `Label ${labelName}` })).toBeVisible();
  await owner.context.close();

  // The agent saves a reply of their own, with placeholders.
  const agent = await signedInStaff(browser, "agent", "Andy Agent");
  const inbox = agent.page;
  await inbox.getByRole("link", { name: "Saved replies" }).click();
  const form = inbox.getByRole("form", { name: "Add a saved reply" });
  await form.getByLabel("Shortcut").fill("parcel");
  await form.getByLabel("Title").fill("Parcel status");
  await form.getByLabel("Reply", { exact: true }).fill("Hi {{visitor.name|there}}, this is {{agent.name}} at {{site.name}}: your parcel ships today.");
  await form.getByRole("button", { name: "Create saved reply" }).click();
  await expect(inbox.getByTestId("saved-replies")).toContainText("/parcel");

  // In the conversation, `/` at the start opens the picker; Esc closes it and keeps the text.
  await inbox.goto(`${SERVICE_URL}/inbox/conversations/${vera}?site=${site.id}`);
  await expect(inbox.getByRole("heading", { name: "Vera Visitor", level: 1 })).toBeVisible();
  const composer = inbox.getByLabel("Reply to the visitor");
  const picker = inbox.getByRole("listbox", { name: "Saved replies" });
  await composer.pressSequentially("/");
  await expect(picker).toBeVisible();
  await composer.press("Escape");
  await expect(picker).toHaveCount(0);
  await expect(composer).toHaveValue("/");

  // Typing the shortcut filters; arrows choose; Enter expands it with the visitor's name.
  await composer.fill("");
  await composer.pressSequentially("/par");
  const option = picker.getByRole("option", { name: /\/parcel/ });
  await expect(option).toHaveAttribute("aria-selected", "true");
  await expect(picker.getByRole("option")).toHaveCount(1);
  await composer.press("ArrowDown");
  await expect(option).toHaveAttribute("aria-selected", "true");
  await axeScan(inbox, "the conversation with the saved-reply picker open");
  await inboxScreenshot(inbox, "inbox-05-saved-reply-picker");
  await composer.press("Enter");
  const expanded = "Hi Vera Visitor, this is Andy Agent at Customer shop: your parcel ships today.";
  await expect(composer).toHaveValue(expanded);
  await expect(picker).toHaveCount(0);
  await composer.press("Enter");
  await expect(inbox.getByTestId("messages")).toContainText(expanded);
  await expect(composer).toHaveValue("");

  // Labels: set from the conversation's header, shown as a chip there and on the list row.
  await inbox.locator("summary", { hasText: "Labels" }).click();
  await inbox.getByRole("checkbox", { name: labelName }).check();
  await expect(inbox.getByTestId("conversation-labels")).toContainText(labelName);
  await inbox.keyboard.press("Escape");

  await inbox.goto(`${SERVICE_URL}/inbox?site=${site.id}`);
  const rows = inbox.locator("[data-conversation]");
  await expect(rows).toHaveCount(2);
  await expect(inbox.locator(`[data-conversation="${vera}"]`)).toContainText(labelName);
  await expect(inbox.locator(`[data-conversation="${other}"]`)).not.toContainText(labelName);

  // The list filtered by the label at once (no Filter button), with the site filter kept, in the URL.
  await inbox.getByLabel("Label", { exact: true }).selectOption({ label: labelName });
  await inbox.waitForURL(new RegExp(`[?&]site=${site.id}.*[?&]?label=|label=.*site=${site.id}`));
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-conversation", vera);
  await expect(inbox.getByRole("button", { name: "Filter" })).toHaveCount(0);
  // A filter that hides everything says so, and offers the way back.
  await inbox.getByLabel("Status").selectOption("closed");
  await expect(inbox.getByText("No conversations match these filters.")).toBeVisible();
  await inbox.getByLabel("Status").selectOption("all");
  await expect(rows.first().getByText("Open", { exact: true })).toBeVisible();
  await inboxScreenshot(inbox, "inbox-06-label-filter");
  await agent.context.close();
});
