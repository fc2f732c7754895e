import { mkdirSync } from "node:fs";
import path from "node:path";
import { test as base, expect, type Locator, type Page } from "@playwright/test";
import { must } from "./admin";
import { CUSTOMER_URL } from "./env";

export { expect };

export interface Site {
  id: string;
  /** The customer page embedding the widget for this site. */
  url: string;
}

/** The widget as a visitor sees it (Playwright's locators reach into its open shadow root). */
export class Widget {
  readonly host: Locator;
  readonly launcher: Locator;
  readonly panel: Locator;
  readonly input: Locator;
  readonly messages: Locator;
  readonly typing: Locator;
  readonly badge: Locator;

  constructor(readonly page: Page) {
    this.host = page.locator("parley-chat");
    this.launcher = page.locator("parley-chat button.l");
    // Its accessible name is the site's title ("Chat with us" unless the site config sets one).
    this.panel = page.locator("parley-chat").getByRole("dialog");
    this.input = page.getByRole("textbox", { name: "Message" });
    this.messages = page.locator("parley-chat .ls .m");
    this.typing = page.locator("parley-chat .ty");
    this.badge = page.locator("parley-chat .bg");
  }

  async open(): Promise<void> {
    await this.launcher.click();
    await expect(this.panel).toBeVisible();
  }

  async say(text: string): Promise<void> {
    await this.input.fill(text);
    await this.input.press("Enter");
  }

  /** The row of the message with exactly this text. */
  message(text: string): Locator {
    const exactly = new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
    return this.messages.filter({ has: this.page.locator(".tx", { hasText: exactly }) });
  }

  /**
   * Every text the typing line shows from now on, however briefly (a MutationObserver in the page):
   * the demo agent types for 1.5 s, shorter than the gaps between an expectation's retries.
   */
  async watchTyping(): Promise<() => Promise<string[]>> {
    await this.page.evaluate(() => {
      const line = document.querySelector("parley-chat")!.shadowRoot!.getElementById("ty")!;
      const seen: string[] = ((window as any).__typingSeen = []);
      new MutationObserver(() => seen.push(line.textContent ?? "")).observe(line, { childList: true, characterData: true, subtree: true });
    });
    return () => this.page.evaluate(() => (window as any).__typingSeen as string[]);
  }

  /** Waits until the visitor's message is stored (its row no longer says "Sending…"). */
  async said(text: string): Promise<void> {
    await this.say(text);
    await expect(this.message(text).locator(".mt")).not.toHaveText(/Sending|Not sent|Waiting/);
  }
}

/** Screenshots of the main states go to tests/e2e/__screenshots__ when E2E_SCREENSHOTS=1 (npm run screenshots). */
export async function screenshot(page: Page, name: string, clip?: { x: number; y: number; width: number; height: number }): Promise<void> {
  if (process.env.E2E_SCREENSHOTS !== "1") return;
  const dir = path.resolve(import.meta.dirname, "../__screenshots__");
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), clip, animations: "disabled", caret: "hide" });
}

interface Fixtures {
  site: Site;
  widget: Widget;
  /** Errors thrown in the page and dialogs it opened; the test fails if any appear. */
  pageProblems: string[];
}

let sequence = 0;

export const test = base.extend<Fixtures>({
  site: async ({}, use, testInfo) => {
    const id = `e2e-${testInfo.workerIndex}-${++sequence}-${Date.now().toString(36)}`;
    await must("POST", "/sites", { id, name: "Customer shop", origins: [CUSTOMER_URL] });
    await use({ id, url: `${CUSTOMER_URL}/?site=${id}` });
  },
  widget: async ({ page }, use) => {
    await use(new Widget(page));
  },
  pageProblems: [
    async ({ context }, use) => {
      const problems: string[] = [];
      const watch = (page: Page) => {
        page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
        page.on("dialog", (dialog) => {
          problems.push(`dialog: ${dialog.type()} ${dialog.message()}`);
          void dialog.dismiss();
        });
      };
      context.pages().forEach(watch);
      context.on("page", watch);
      await use(problems);
      expect(problems, "the page threw or opened a dialog").toEqual([]);
    },
    { auto: true },
  ],
});
