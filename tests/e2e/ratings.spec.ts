import { conversations, must, onlyConversation } from "./support/admin";
import { SERVICE_URL } from "./support/env";
import { expect, test } from "./support/fixtures";
import { signedInStaff } from "./support/inbox";

// Ratings (issue #27, item 4): after a close the widget asks with five faces; the rating shows in
// the inbox thread.

test("a visitor rates a closed conversation with a face and a comment; the inbox thread shows it", async ({ browser, page, site, widget }) => {
  test.setTimeout(120_000); // two flows: the visitor's, then a member signing in to the thread
  await page.goto(site.url);
  await widget.open();
  await widget.said("Does the lamp come with a bulb?");
  const conversation = await onlyConversation(site.id);
  await must("POST", `/conversations/${conversation.id}/close`);

  await expect(page.getByRole("group", { name: "How was this conversation?" })).toBeVisible();
  await page.getByRole("button", { name: "Good", exact: true }).click();
  await expect(page.getByRole("button", { name: "Good", exact: true })).toHaveAttribute("aria-pressed", "true");
  await page.getByRole("textbox", { name: "Anything to add? (optional)" }).fill("Quick answer, thanks.");
  await page.getByRole("button", { name: "Send rating" }).click();
  await expect(page.locator("parley-chat #rd")).toHaveText("Thank you for your rating!");
  await expect(page.getByRole("group", { name: "How was this conversation?" })).toBeHidden();

  const agent = await signedInStaff(browser, "agent", "Rita Rated");
  await agent.page.goto(`${SERVICE_URL}/inbox/conversations/${encodeURIComponent(conversation.id)}`);
  await expect(agent.page.getByTestId("ratings")).toContainText("4 out of 5 · “Quick answer, thanks.”");
  await agent.context.close();
});

// The transcript offer (decisions.md, round 3): POST /api/v1/chat/visitor/transcript.
const TRANSCRIPT = "**/api/v1/chat/visitor/transcript";

test("after a close, a visitor who gave an email gets the transcript by keyboard; the outcome is announced", async ({ page, site, widget }) => {
  await page.goto(site.url);
  await page.evaluate(() => (window as unknown as { Parley: { identify(o: object): void } }).Parley.identify({ name: "Tess", email: "tess@example.com" }));
  await widget.open();
  await widget.said("Can you send me what we said?");
  const conversation = await onlyConversation(site.id);
  await must("POST", `/conversations/${conversation.id}/close`);

  const offer = page.getByRole("button", { name: "Email me this conversation" });
  await expect(offer).toBeVisible();
  await offer.focus();
  await page.keyboard.press("Enter");
  // Its own polite live region inside the closed notice's (the innermost one speaks, alone)
  const status = page.locator("parley-chat #ts");
  await expect(status).toHaveRole("status");
  await expect(status).toHaveText("Sent to your email");
  await expect(offer).toBeHidden();
  await expect(status).toBeFocused();
  // The real route queued it: the service runs without SMTP, so the outbox keeps it as not sent.
  const outbox = await must<{ kind: string; to: string; conversation_id: string | null; text: string }[]>("GET", "/outbox");
  const transcripts = outbox.filter((email) => email.kind === "visitor_transcript" && email.conversation_id === conversation.id);
  expect(transcripts).toHaveLength(1);
  expect(transcripts[0]).toMatchObject({ to: "tess@example.com" });
  expect(transcripts[0]!.text).toContain("Can you send me what we said?");

  // Remembered with the conversation: after a reload the notice still says it was sent
  await page.reload();
  await widget.open();
  await expect(page.locator("parley-chat #ts")).toHaveText("Sent to your email");
  await expect(page.getByRole("button", { name: "Email me this conversation" })).toBeHidden();
});

test("no offer without an email; a refusal (email_required) and a failure are said plainly", async ({ page, site, widget }) => {
  // What the real service cannot be made to do here: first the network fails, then the service
  // refuses (it would, had the conversation lost its email since the widget last looked).
  let refuse = false;
  await page.route(TRANSCRIPT, (route) =>
    refuse
      ? route.fulfill({ status: 400, contentType: "application/json", body: JSON.stringify({ success: false, result: { code: "email_required" }, message: "No email." }) })
      : route.abort("connectionrefused"),
  );
  await page.goto(site.url);
  await widget.open();
  await widget.said("No email from me.");
  const conversation = await onlyConversation(site.id);
  await must("POST", `/conversations/${conversation.id}/close`);
  await expect(page.getByRole("group", { name: "How was this conversation?" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Email me this conversation" })).toBeHidden();

  // A second conversation, started with an email: the offer comes back for it
  await page.evaluate(() => (window as unknown as { Parley: { identify(o: object): void } }).Parley.identify({ email: "late@example.com" }));
  await widget.said("Now with my email.");
  const second = (await conversations(site.id)).find((c) => c.id !== conversation.id)!;
  await must("POST", `/conversations/${second.id}/close`);
  const offer = page.getByRole("button", { name: "Email me this conversation" });
  await expect(offer).toBeVisible();
  await offer.click();
  await expect(page.locator("parley-chat #ts")).toHaveText("Not sent: can't reach the server.");
  await expect(offer).toBeVisible(); // a failure can be retried
  refuse = true;
  await offer.click();
  await expect(page.locator("parley-chat #ts")).toHaveText("We have no email address for this conversation.");
  await expect(offer).toBeHidden();
});
