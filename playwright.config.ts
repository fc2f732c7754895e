import { execFileSync } from "node:child_process";
import { defineConfig, devices } from "@playwright/test";
import { chromiumPath, requireBrowser } from "./tests/support/requires";

// Browser tests of the widget against the real service (tests/e2e). Two servers, two origins:
//   the service    http://localhost:<port>   `next dev` on a fresh embedded database (tests/e2e/support/service.mjs)
//   the customer   http://127.0.0.1:<port2>  a plain page embedding <script src="http://localhost:<port>/widget.js">
// so every widget request is a real cross-origin request (CORS, preflights, Origin checks).
// Chromium is Debian's (/usr/bin/chromium): `apt-get install chromium`; Playwright downloads nothing.

/** A free TCP port, found synchronously (the config must be a plain object). */
function freePort(): number {
  const script = "const s=require('net').createServer().listen(0,()=>{console.log(s.address().port);s.close()})";
  return Number(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }).trim());
}

// Chosen once by the runner and inherited by its workers (which load this file again).
process.env.E2E_SERVICE_PORT ??= String(freePort());
process.env.E2E_CUSTOMER_PORT ??= String(freePort());
process.env.E2E_ADMIN_TOKEN ??= "e2e-admin-token-0123456789abcdef";
const servicePort = process.env.E2E_SERVICE_PORT;
const customerPort = process.env.E2E_CUSTOMER_PORT;
const SERVICE_URL = `http://localhost:${servicePort}`;
const CUSTOMER_URL = `http://127.0.0.1:${customerPort}`;
process.env.E2E_SERVICE_URL = SERVICE_URL;
process.env.E2E_CUSTOMER_URL = CUSTOMER_URL;

// `next dev` by default (the current source, no build needed); E2E_SERVER=production runs the same
// specs on `npm start`'s server after `npm run build` (.ci/run does that, then a short dev smoke).
// Without Chromium the browser half of `npm test` skips with one line (run with
// --pass-with-no-tests, see package.json); under CI=true it fails instead (tests/support/requires.ts).
const withBrowser = requireBrowser();

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results/e2e",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // Two workers: tests are isolated by site (each makes its own) and browser context.
  workers: 2,
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  // One retry on CI: a test that passes only on its retry is still reported, as "flaky".
  retries: process.env.CI ? 1 : 0,
  reporter: "list",
  globalSetup: withBrowser ? "./tests/e2e/support/global-setup.ts" : undefined,
  testIgnore: withBrowser ? undefined : "**/*",
  use: {
    ...devices["Desktop Chrome"],
    viewport: { width: 1280, height: 720 },
    colorScheme: "light",
    reducedMotion: "reduce",
    locale: "en-GB",
    timezoneId: "UTC",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: chromiumPath(),
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [
    {
      name: "chromium",
      testIgnore: withBrowser ? "**/host-page.spec.ts" : "**/*",
    },
    // The host page's cost (long tasks of the widget's scripts on the customer's main thread) is a
    // CPU measurement: it runs after the rest, not beside another worker's browser on the same two
    // cores, where widget scripts of 50-113 ms were seen that take 0-43 ms alone.
    { name: "host page cost", testMatch: "**/host-page.spec.ts", testIgnore: withBrowser ? undefined : "**/*", dependencies: ["chromium"] },
  ],
  webServer: !withBrowser ? undefined : [
    {
      name: "service",
      command: "node tests/e2e/support/service.mjs",
      url: `${SERVICE_URL}/widget.js`,
      // Webhook tests deliver to a receiver on this machine (tests/support/webhook-receiver.ts).
      env: { PORT: servicePort, ADMIN_TOKEN: process.env.E2E_ADMIN_TOKEN, WEBHOOK_ALLOW_PRIVATE_TARGETS: "on" },
      timeout: 180_000,
      reuseExistingServer: false,
      gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
      stdout: process.env.E2E_DEBUG ? "pipe" : "ignore",
      stderr: "pipe",
    },
    {
      name: "customer",
      command: "node tests/e2e/support/customer-server.mjs",
      url: `${CUSTOMER_URL}/?site=probe`,
      env: { CUSTOMER_PORT: customerPort, SERVICE_URL },
      timeout: 30_000,
      reuseExistingServer: false,
      gracefulShutdown: { signal: "SIGTERM", timeout: 2_000 },
    },
  ],
});
