import { onlyConversation } from "./support/admin";
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
