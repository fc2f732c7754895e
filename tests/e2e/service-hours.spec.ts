import { expect, test } from "./support/fixtures";
import { SERVICE_URL } from "./support/env";
import { signedInStaff } from "./support/inbox";

// Service hours (issue #27): an owner sets hours in the inbox Settings so the team is closed now,
// and a visitor in another time zone reads in the widget when it opens, in their own time.

const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const VISITOR_ZONE = "America/New_York";
const dateIn = (zone: string, at: Date) => at.toLocaleDateString("en-CA", { timeZone: zone });

test("an owner closes the team until tomorrow; the widget says when it is back, in the visitor's zone", async ({ browser, site }) => {
  const owner = await signedInStaff(browser, "owner", "Hours Owner");
  const page = owner.page;
  await page.goto(`${SERVICE_URL}/inbox/settings`);
  const card = page.getByRole("region", { name: `Service hours (${site.id})` });
  await card.getByRole("button", { name: "Edit service hours" }).click();
  const form = card.getByRole("form", { name: `Service hours of ${site.id}` });
  await form.getByLabel("Limit to service hours").check();
  await form.getByLabel("Time zone").selectOption("UTC");
  // Office hours are offered; keep only tomorrow (UTC), 09:00-17:00
  for (const day of DAYS.slice(1, 6)) await form.getByRole("button", { name: `Remove ${day} period 1` }).click();
  const now = new Date();
  const tomorrow = new Date(now.getTime() + 86_400_000);
  await form.getByRole("button", { name: `Add a period on ${DAYS[tomorrow.getUTCDay()]}` }).click();
  await form.getByLabel("Away message").fill("The team is out; leave us a note.");
  await form.getByRole("button", { name: "Save service hours" }).click();
  await expect(form.getByRole("status")).toHaveText("Service hours saved.");

  const visitor = await browser.newContext({ timezoneId: VISITOR_ZONE, locale: "en-GB" });
  const shop = await visitor.newPage();
  await shop.goto(site.url);
  await shop.locator("parley-chat button.l").click();
  const opens = new Date(`${tomorrow.toISOString().slice(0, 10)}T09:00:00Z`);
  const days = Math.round((Date.parse(dateIn(VISITOR_ZONE, opens)) - Date.parse(dateIn(VISITOR_ZONE, now))) / 86_400_000);
  const time = opens.toLocaleTimeString("en-GB", { timeZone: VISITOR_ZONE, hour: "2-digit", minute: "2-digit" });
  const day = days === 1 ? "tomorrow" : opens.toLocaleDateString("en-GB", { timeZone: VISITOR_ZONE, weekday: "long" });
  await expect(shop.locator("parley-chat #su")).toHaveText(`We're back ${day} at ${time}.`);
  await expect(shop.locator("parley-chat #n")).toHaveText("The team is out; leave us a note. We're offline right now. We'll reply by email.");
  await visitor.close();
  await owner.context.close();
});
