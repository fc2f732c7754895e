import { mkdirSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { expect, test } from "@playwright/test";
import { must } from "./admin";
import { SERVICE_URL } from "./env";

// Staff accounts for the inbox tests, through the real flow: the operator creates a member and an
// invite (POST /api/v1/admin/members/{id}/invite), and the invitee opens the link and picks a password.

export const PASSWORD = "correct horse battery staple";
let count = 0;

export interface StaffAccount {
  id: string;
  name: string;
  email: string;
  context: BrowserContext;
  page: Page;
}

export async function signedInStaff(browser: Browser, role: "owner" | "agent", name: string): Promise<StaffAccount> {
  const id = `${role}-${process.pid}-${++count}-${Date.now().toString(36)}`;
  const email = `${id}@team.example`;
  await must("POST", "/members", { id, name });
  const { invite_url } = await must<{ invite_url: string }>("POST", `/members/${id}/invite`, { email, role });
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(invite_url);
  await expect(page.getByRole("heading", { name: "Join the Parley inbox" })).toBeVisible();
  await page.getByLabel("Choose a password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account and sign in" }).click();
  await page.waitForURL(/\/inbox$/);
  return { id, name, email, context, page };
}

/** An inbox API call as this member (changes carry the inbox's own Origin, as its pages' do); it must succeed. */
export async function asStaff<T = any>(staff: Pick<StaffAccount, "page">, method: string, path: string, body?: unknown): Promise<T> {
  const response = await staff.page.request.fetch(`${SERVICE_URL}/api/v1/inbox${path}`, {
    method,
    headers: { Origin: SERVICE_URL },
    ...(body === undefined ? {} : { data: body }),
  });
  const json = (await response.json()) as { success: boolean; result: T; message: string };
  if (!response.ok() || !json.success) throw new Error(`${method} /api/v1/inbox${path} → ${response.status()} ${JSON.stringify(json.result)} ${json.message}`);
  return json.result;
}

/** Kept as a test artifact always, and in tests/e2e/__screenshots__ for the docs with E2E_SCREENSHOTS=1. */
export async function inboxScreenshot(page: Page, name: string): Promise<void> {
  const body = await page.screenshot({ animations: "disabled", caret: "hide" });
  await test.info().attach(name, { body, contentType: "image/png" });
  if (process.env.E2E_SCREENSHOTS !== "1") return;
  const dir = path.resolve(import.meta.dirname, "../__screenshots__");
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), animations: "disabled", caret: "hide" });
}

/** axe over the page as it is now, or only over `include`: no serious or critical issue (Next's dev overlay left out). */
export async function axeScan(page: Page, state: string, include?: string): Promise<void> {
  // The inbox's title is streamed metadata (an async generateMetadata): after a refresh it comes
  // back a moment after the page, and axe would report a page without one.
  await expect.poll(() => page.title(), { message: `${state}: the page has a title` }).not.toBe("");
  const builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]).exclude("nextjs-portal");
  const { violations } = await (include ? builder.include(include) : builder).analyze();
  const grave = violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
  const summary = grave.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  expect(summary, `axe: serious or critical issues on ${state}`).toEqual([]);
}
