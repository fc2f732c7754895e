import { must, onlyConversation } from "./support/admin";
import { SERVICE_URL } from "./support/env";
import { expect as baseExpect, test } from "./support/fixtures";
import { signedInStaff } from "./support/inbox";
import { png } from "./support/png";

// Files in chat, both ways, on the customer page (another origin) and in the inbox: the visitor
// attaches an image and the agent sees it; the agent attaches a PDF and the visitor downloads the
// same bytes. Images are fetched with the visitor token and shown from a blob URL.

test.describe.configure({ timeout: 120_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

const PDF = Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");

test("the visitor attaches an image, the agent sees it; the agent attaches a PDF, the visitor downloads it", async ({ browser, page, site, widget }) => {
  const agent = await signedInStaff(browser, "agent", "Fay Files");
  await page.goto(site.url);
  await widget.open();
  await widget.said("Here is the lamp");

  await page.locator("parley-chat").getByLabel("Add files").first().setInputFiles({
    name: "lamp.png",
    mimeType: "image/png",
    buffer: png(8, 8, () => [250, 200, 40]),
  });
  await expect(page.locator("parley-chat .me .at img")).toHaveAttribute("src", /^blob:/);

  const conversation = await onlyConversation(site.id);
  const inbox = agent.page;
  await inbox.goto(`${SERVICE_URL}/inbox/conversations/${conversation.id}`);
  const image = inbox.getByTestId("messages").getByRole("img", { name: "lamp.png" });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(8);

  await inbox.getByLabel("Attach files").setInputFiles({ name: "invoice.pdf", mimeType: "application/pdf", buffer: PDF });
  await inbox.getByRole("button", { name: "Send reply" }).click();
  await expect(inbox.getByTestId("messages").getByRole("link", { name: /invoice\.pdf/ })).toBeVisible();

  const chip = page.locator("parley-chat .th .fk", { hasText: "invoice.pdf" });
  await expect(chip).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent("download"), chip.click()]);
  expect(download.suggestedFilename()).toBe("invoice.pdf");
  const { readFile } = await import("node:fs/promises");
  expect(Buffer.from(await readFile((await download.path())!))).toEqual(PDF);
  await agent.context.close();
});

test("a file's upload can be cancelled (nothing is sent), and a failed one retried from its chip", async ({ page, site, widget }) => {
  await page.goto(site.url);
  await widget.open();
  await widget.said("Two tries");
  const attach = page.locator("parley-chat").getByLabel("Add files").first();
  const file = { name: "lamp.png", mimeType: "image/png", buffer: png(8, 8, () => [250, 200, 40]) };

  // An upload that hangs: Cancel aborts it, the chip and its row go, and no message is sent.
  let held = 0;
  await page.route("**/api/v1/uploads/**", () => void held++); // never answered
  await attach.setInputFiles(file);
  const cancel = page.locator("parley-chat").getByRole("button", { name: "Cancel lamp.png" });
  await expect(cancel).toBeVisible();
  await expect.poll(() => held).toBe(1);
  await cancel.click();
  await expect(page.locator("parley-chat .fl")).toHaveCount(0);
  await expect(widget.messages).toHaveCount(1);
  await page.waitForTimeout(1_000);
  const conversation = await onlyConversation(site.id);
  const thread = await must<{ messages: { attachments: unknown[] }[] }>("GET", `/conversations/${conversation.id}`);
  expect(thread.messages.flatMap((m) => m.attachments)).toEqual([]);

  // An upload that fails: the chip says so with "Retry upload"; the retry sends the file.
  await page.unroute("**/api/v1/uploads/**");
  await page.route("**/api/v1/uploads/**", (route) => route.abort(), { times: 1 });
  await attach.setInputFiles(file);
  const retry = page.locator("parley-chat").getByRole("button", { name: "Retry upload" });
  await expect(retry).toBeVisible();
  await expect(page.locator("parley-chat .fl li")).toContainText("Upload failed");
  await retry.click();
  await expect(page.locator("parley-chat .me .at img")).toHaveAttribute("src", /^blob:/);
  await expect(page.locator("parley-chat .fl")).toHaveCount(0);
});
