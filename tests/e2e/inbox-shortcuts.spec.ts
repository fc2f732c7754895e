import { SERVICE_URL } from "./support/env";
import { expect as baseExpect, test } from "./support/fixtures";
import { axeScan, signedInStaff } from "./support/inbox";
import { apiVisitor } from "./support/visitor-api";

// The keyboard-first inbox (issue #25 item 4, docs/inbox.md "Keyboard"): j/k and Enter in the
// list, r and n in the composer, a assign to me, e close, `?` the shortcuts, Ctrl-K the command
// palette; no single key fires while the agent types.

// Each close, reopen and assignment re-renders the page on the server: on a loaded 2-core machine
// under `next dev` that has taken over 20 s.
test.describe.configure({ timeout: 240_000 });
const expect = baseExpect.configure({ timeout: 45_000 });

test("an agent works a conversation from the keyboard alone, and typing never fires a shortcut", async ({ browser, site }) => {
  await apiVisitor(site.id, { name: "Kim Older", body: "First question" });
  const newer = await apiVisitor(site.id, { name: "Kai Newer", body: "Second question" });
  const agent = await signedInStaff(browser, "agent", "Kit Keys");
  const inbox = agent.page;
  await inbox.goto(`${SERVICE_URL}/inbox?site=${site.id}`);

  // `?`: the list of shortcuts (once the page has hydrated); Esc closes it.
  const help = inbox.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(async () => {
    await inbox.keyboard.press("?");
    await expect(help).toBeVisible({ timeout: 1_000 });
  }).toPass();
  await expect(help.getByRole("row", { name: /Command palette/ })).toBeVisible();
  await axeScan(inbox, "the shortcuts dialog");
  await inbox.keyboard.press("Escape");
  await expect(help).toBeHidden();

  // j / k move in the list (newest first), Enter opens.
  const rows = inbox.getByTestId("conversation-list").getByRole("link");
  await inbox.keyboard.press("j");
  await expect(rows.filter({ hasText: "Kai Newer" })).toBeFocused();
  await inbox.keyboard.press("j");
  await expect(rows.filter({ hasText: "Kim Older" })).toBeFocused();
  await inbox.keyboard.press("k");
  await expect(rows.filter({ hasText: "Kai Newer" })).toBeFocused();
  await inbox.keyboard.press("Enter");
  await inbox.waitForURL(new RegExp(`/inbox/conversations/${newer.conversationId}`));
  await expect(inbox.getByRole("heading", { name: "Kai Newer", level: 1 })).toBeVisible();

  // r focuses the reply box; there, letters are text (no close, no assignment, no navigation).
  const reply = inbox.getByLabel("Reply to the visitor");
  await expect(async () => {
    await inbox.keyboard.press("r");
    await expect(reply).toBeFocused({ timeout: 1_000 });
  }).toPass();
  await inbox.keyboard.type("jkeasl/?n");
  await expect(reply).toHaveValue("jkeasl/?n");
  await expect(inbox.getByRole("button", { name: "Close conversation" })).toBeVisible();
  await expect(inbox.getByLabel("Assigned to")).toHaveValue("");
  await reply.fill("");
  await reply.blur();

  // n switches to a private note; r back to a reply.
  await inbox.keyboard.press("n");
  await expect(inbox.getByLabel("Private note (only your team sees it)")).toBeFocused();
  await inbox.getByLabel("Private note (only your team sees it)").blur();
  await inbox.keyboard.press("r");
  await expect(inbox.getByLabel("Reply to the visitor")).toBeFocused();
  await inbox.getByLabel("Reply to the visitor").blur();

  // a assigns to me; e closes (the thread says who did).
  await inbox.keyboard.press("a");
  await expect(inbox.getByLabel("Assigned to")).toHaveValue(agent.id);
  await inbox.keyboard.press("e");
  await expect(inbox.getByRole("button", { name: "Reopen conversation" })).toBeVisible();
  await expect(inbox.getByTestId("messages")).toContainText("Closed by Kit Keys");

  // Ctrl-K: the palette filters what can be done here; Enter runs the choice.
  const palette = inbox.getByRole("dialog", { name: "Command palette" });
  await inbox.keyboard.press("Control+k");
  await expect(palette).toBeVisible();
  const box = palette.getByRole("combobox", { name: "Type a command" });
  await expect(box).toBeFocused();
  await expect(palette.getByRole("option", { name: "Close conversation" })).toHaveCount(0);
  await box.fill("reop");
  await expect(palette.getByRole("option")).toHaveText(["Reopen conversation"]);
  await axeScan(inbox, "the command palette");
  await box.press("Enter");
  await expect(palette).toBeHidden();
  await expect(inbox.getByRole("button", { name: "Close conversation" })).toBeVisible();
  await expect(inbox.getByTestId("messages")).toContainText("Reopened by Kit Keys");

  // The palette also navigates; Ctrl-K opens it even from a field.
  await inbox.getByLabel("Reply to the visitor").click();
  await inbox.keyboard.press("Control+k");
  await box.fill("go to tick");
  await expect(palette.getByRole("option", { name: "Go to Tickets" })).toHaveAttribute("aria-selected", "true");
  await box.press("Enter");
  await inbox.waitForURL(/\/inbox\/tickets$/);

  // Mouse: the header's buttons open the same dialogs.
  await inbox.getByRole("button", { name: "Shortcuts" }).click();
  await expect(help).toBeVisible();
  await help.getByRole("button", { name: "Close" }).click();
  await inbox.getByRole("button", { name: "Commands" }).click();
  await expect(palette).toBeVisible();
  await inbox.keyboard.press("Escape");
  await expect(palette).toBeHidden();
  await agent.context.close();
});
