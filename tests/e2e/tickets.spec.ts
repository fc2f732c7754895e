import { must } from "./support/admin";
import { expect, screenshot, test } from "./support/fixtures";
import { png } from "./support/png";

interface Ticket {
  number: number;
  email: string;
  subject: string;
  body: string;
  attachments: { name: string; content_type: string; bytes: number; uploaded: boolean }[];
}

test("a ticket with two files: both uploads complete, and the operator sees them uploaded", async ({ page, site, widget }) => {
  const picture = png(40, 30, (x, y) => [x * 6, y * 8, 200]);
  const notes = Buffer.from("Order 1042\nThe parcel arrived with a dent in the lid.\n");

  await page.goto(site.url);
  await widget.open();
  await page.getByRole("button", { name: "Prefer email? Leave a message" }).click();
  await expect(page.getByRole("heading", { name: "Leave a message" })).toBeVisible();
  await page.getByLabel("Name").fill("Ada Lovelace");
  await page.getByLabel("Email (required)").fill("ada@example.com");
  await page.getByLabel("Subject (required)").fill("Damaged parcel");
  await page.getByLabel("Message (required)").fill("The lamp arrived damaged; photos attached.");
  await page.getByLabel(/Attachments/).setInputFiles([
    { name: "parcel.png", mimeType: "image/png", buffer: picture },
    { name: "notes.txt", mimeType: "text/plain", buffer: notes },
  ]);
  const files = page.locator("parley-chat .fl li");
  await expect(files).toHaveCount(2);
  await expect(files.nth(0)).toContainText("parcel.png");
  await expect(files.nth(1)).toContainText("notes.txt");
  await page.getByRole("button", { name: "Send message" }).scrollIntoViewIfNeeded();
  await screenshot(page, "03-ticket-form", { x: 860, y: 0, width: 420, height: 720 });

  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByRole("heading", { name: "Thank you!" })).toBeVisible();
  await expect(page.locator("parley-chat #dm")).toHaveText(/We received your message \(request #1\) and will reply to ada@example\.com\./);
  await expect(files.locator(".fs")).toHaveText(["Uploaded", "Uploaded"]);
  await expect(page.locator("parley-chat #de")).toHaveText("");

  const tickets = await must<Ticket[]>("GET", `/tickets?site=${site.id}`);
  expect(tickets).toHaveLength(1);
  const [ticket] = tickets;
  expect(ticket).toMatchObject({ number: 1, email: "ada@example.com", subject: "Damaged parcel", body: "The lamp arrived damaged; photos attached." });
  expect(ticket!.attachments.map(({ name, content_type, bytes, uploaded }) => ({ name, content_type, bytes, uploaded })).sort((a, b) => a.name.localeCompare(b.name))).toEqual([
    { name: "notes.txt", content_type: "text/plain", bytes: notes.length, uploaded: true },
    { name: "parcel.png", content_type: "image/png", bytes: picture.length, uploaded: true },
  ]);

  // Back to chat: the form is empty again.
  await page.getByRole("button", { name: "Back to chat" }).click();
  await expect(widget.input).toBeFocused();
});

test("no \"Thank you\" while the ticket's files still upload: the panel says they are on their way", async ({ page, site, widget }) => {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname.includes("/uploads/"),
    async (route) => {
      if (route.request().method() !== "PUT") return route.continue();
      await released;
      await route.continue();
    },
  );
  await page.goto(site.url);
  await widget.open();
  await page.getByRole("button", { name: "Prefer email? Leave a message" }).click();
  await page.getByLabel("Email (required)").fill("ada@example.com");
  await page.getByLabel("Subject (required)").fill("Receipt");
  await page.getByLabel("Message (required)").fill("The receipt is attached.");
  await page.getByLabel(/Attachments/).setInputFiles([{ name: "receipt.txt", mimeType: "text/plain", buffer: Buffer.from("Order 1042\n") }]);
  await page.getByRole("button", { name: "Send message" }).click();

  await expect(page.getByRole("heading", { name: "Sending your files… Keep this page open." })).toBeVisible();
  await expect(page.locator("parley-chat .fl li .fs")).toHaveText("Uploading…");
  await expect(page.getByRole("heading", { name: "Thank you!" })).toHaveCount(0);
  release();
  await expect(page.getByRole("heading", { name: "Thank you!" })).toBeVisible();
  await expect(page.locator("parley-chat .fl li .fs")).toHaveText("Uploaded");
});
