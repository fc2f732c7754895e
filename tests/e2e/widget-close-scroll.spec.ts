import { conversations, must, staffSays } from "./support/admin";
import { STAFF } from "./support/env";
import { expect as baseExpect, screenshot, test } from "./support/fixtures";

// The close card (issue 39, item 3): when it appears, and when its rating grows it, the thread
// stays pinned to its newest message, so the agent's last reply is never left below the fold.

const expect = baseExpect.configure({ timeout: 20_000 });

// It failed before widget/src/panel/thread-pin.ts: the scroll event of the list's own shrinking
// (dispatched before the ResizeObserver's callback, measured against the new layout) counted as
// the visitor leaving the end, so nothing pinned it.
for (const locale of ["en", "ar"] as const) {
  test(`the agent's last reply stays in view when the close card appears (${locale})`, async ({ page, site, widget }) => {
    await page.goto(`${site.url}&locale=${locale}`);
    await widget.open();
    // The composer by its id: its accessible name is in the page's language ("Message", "رسالة").
    const composer = page.locator("parley-chat #tx");
    await composer.fill("Does the lamp come with a bulb?");
    await composer.press("Enter");
    await expect.poll(async () => (await conversations(site.id)).length).toBe(1);
    const [conversation] = await conversations(site.id);
    for (let i = 1; i <= 5; i++) await staffSays(conversation!.id, STAFF.id, `Line ${i} of a long answer, long enough to take two lines of the panel's width.`);
    const last = "Yes: a warm white E27 bulb is in the box.";
    await staffSays(conversation!.id, STAFF.id, last);
    const reply = widget.message(last);
    await expect(reply).toBeInViewport();

    await must("POST", `/conversations/${conversation!.id}/close`);
    await expect(page.locator("parley-chat #rt")).toBeVisible(); // the rating, whatever the language
    const thread = page.locator("parley-chat #ls");
    const shown = () =>
      thread.evaluate((list, text) => {
        const rows = Array.from(list.querySelectorAll<HTMLElement>(".m")).filter((m) => m.querySelector(".tx")?.textContent === text);
        const box = list.getBoundingClientRect(),
          row = rows[0]!.getBoundingClientRect();
        return { atEnd: list.scrollHeight - list.scrollTop - list.clientHeight < 2, replyInView: row.top >= box.top - 1 && row.bottom <= box.bottom + 1 };
      }, last);
    await expect.poll(shown).toEqual({ atEnd: true, replyInView: true });

    // Picking a face opens the comment box: the card grows, and the thread stays pinned.
    await page.locator("parley-chat .fa5").nth(3).click();
    await expect(page.locator("parley-chat #rc")).toBeVisible();
    await expect.poll(shown).toEqual({ atEnd: true, replyInView: true });
    await screenshot(page, `16-close-card-${locale}`);
  });
}
