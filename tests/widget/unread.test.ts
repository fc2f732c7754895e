// @vitest-environment happy-dom
import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { testBoot } from "./boot";

// The unread count: others' messages past the seen sequence show on the launcher's badge and in its
// accessible name, and in the tab's title while the page is hidden.

beforeEach(() => {
  vi.resetModules();
  localStorage.clear();
  document.title = "Customer shop";
});
afterEach(() => vi.restoreAllMocks());

async function start() {
  const boot = testBoot();
  const { session } = await import("../../widget/src/shared/session");
  session.start(boot);
  session.replace({ t: "vt_1", x: Date.now() + 864e5, c: "c1", s: 1 });
  return { boot, session, ...(await import("../../widget/src/panel/unread")) };
}

test("messages after the seen one count, on the badge and in the launcher's name", async () => {
  const { boot, countIncoming, showUnread } = await start();
  countIncoming(1);
  countIncoming(2);
  countIncoming(3);
  showUnread();
  expect(boot.badge.hidden).toBe(false);
  expect(boot.badge.textContent).toBe("2");
  expect(boot.label).toHaveBeenLastCalledWith("Open chat, 2 unread");
  expect(document.title).toBe("Customer shop");
});

test("while the page is hidden the tab's title says so, and gets the page's own back after", async () => {
  const { countIncoming, showUnread } = await start();
  const hidden = vi.spyOn(document, "hidden", "get").mockReturnValue(true);
  countIncoming(2);
  showUnread();
  expect(document.title).toBe("(1) New message");
  hidden.mockReturnValue(false);
  showUnread();
  expect(document.title).toBe("Customer shop");
});

test("more than nine shows as 9+; none hides the badge", async () => {
  const { boot, countIncoming, forgetIncoming, showUnread } = await start();
  for (let sequence = 2; sequence <= 12; sequence++) countIncoming(sequence);
  showUnread();
  expect(boot.badge.textContent).toBe("9+");
  forgetIncoming();
  showUnread();
  expect(boot.badge.hidden).toBe(true);
});
