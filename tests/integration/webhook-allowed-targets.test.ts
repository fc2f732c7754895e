import { lookup } from "node:dns/promises";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { startNotificationWorker, type NotificationWorker } from "../../lib/notifications/worker";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { openConversation } from "../support/fixtures";
import { runTls } from "../support/test-tls";
import { eventually, WebhookReceiver } from "../support/webhook-receiver";

// Issue 23: WEBHOOK_ALLOWED_TARGETS, the narrow alternative to WEBHOOK_ALLOW_PRIVATE_TARGETS=on.
// A listed host name, or an address in a listed CIDR, may be internal; nothing else may, and only
// those may be http. The receivers serve https on loopback with this run's certificate, which
// the test processes trust (tests/support/test-tls.ts): certificate checks stay on.
process.env.WEBHOOK_ALLOWED_TARGETS = "localhost, 127.0.0.1/32";
delete process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;

const TIMINGS = { webhookTimeoutMs: 3_000, webhookRetryScheduleMs: [200], dispatchPollMs: 50, jobExpirySeconds: 10, maintenanceSeconds: 1 };
const events = ["conversation.started"];

let byAddress: WebhookReceiver; // on 127.0.0.1, inside the listed CIDR
let byName: WebhookReceiver; // on the address "localhost" resolves to first, the name listed
let worker: NotificationWorker | null = null;

beforeAll(async () => {
  byAddress = await new WebhookReceiver({ tls: runTls() }).start();
  const [first] = await lookup("localhost", { all: true, verbatim: true });
  byName = await new WebhookReceiver({ tls: runTls(), host: first!.address }).start();
  // The first call loads the route modules, which on a busy machine can take most of a test's time.
  expect((await api.get("/api/v1/admin/webhooks", { admin: true })).status).toBe(200);
});
afterAll(async () => {
  await byAddress.stop();
  await byName.stop();
});
afterEach(async () => {
  await worker?.stop();
  worker = null;
  await (await db()).webhook.deleteMany({});
  byAddress.received.length = 0;
  byName.received.length = 0;
});

async function register(url: string) {
  const response = await api.post("/api/v1/admin/webhooks", { admin: true, body: { url, events } });
  expect(response.status, JSON.stringify(response.json)).toBe(201);
  return response.json.result as { id: string; secret: string; url: string };
}

const deliveries = async (id: string) => (await api.get(`/api/v1/admin/webhooks/${id}/deliveries`, { admin: true })).json.result;

describe("WEBHOOK_ALLOWED_TARGETS", () => {
  test("a listed host name passes registration and delivery", async () => {
    const hook = await register(`https://localhost:${byName.port}/hook`);
    byName.useSecret(hook.secret);
    worker = await startNotificationWorker({ timings: TIMINGS });
    await openConversation();
    await eventually(() => expect(byName.received).toHaveLength(1));
    expect(byName.received[0]!.verified).toBe(true);
    await eventually(async () => expect((await deliveries(hook.id))[0]).toMatchObject({ status: "succeeded", attempt: 1, response_status: 200 }));
  });

  test("an address in a listed CIDR passes registration and delivery", async () => {
    const hook = await register(byAddress.url);
    expect(hook.url).toBe(`https://127.0.0.1:${byAddress.port}/hook`);
    byAddress.useSecret(hook.secret);
    worker = await startNotificationWorker({ timings: TIMINGS });
    await openConversation();
    await eventually(() => expect(byAddress.received).toHaveLength(1));
    expect(byAddress.received[0]!.verified).toBe(true);
    await eventually(async () => expect((await deliveries(hook.id))[0]).toMatchObject({ status: "succeeded", attempt: 1, response_status: 200 }));
  });

  test.each([
    "https://127.0.0.2/hook", // loopback, outside the listed /32
    "https://10.0.0.1/hook",
    "https://[::1]/hook",
    "https://api.localhost/hook", // names match exactly, not their subdomains
    "https://localhost./hook", // a listed name spelled with a trailing dot
    "https://2130706433/hook", // the listed address, spelled in decimal: write it as the parser does
    "http://127.0.0.2/hook", // http only for a listed target (webhook-url-recheck.test.ts: listed ones)
    "http://api.localhost/hook",
  ])("an unlisted or misspelled target is still refused: %s", async (url) => {
    const response = await api.post("/api/v1/admin/webhooks", { admin: true, body: { url, events } });
    expectError(response, 400, "invalid_request");
    expect(await (await db()).webhook.count()).toBe(0);
  });

  test("an unlisted internal address is refused at every attempt, and nothing is sent", async () => {
    const hook = await register("https://hooks.example.com/parley");
    // Changed behind the guard's back, as a DNS answer could: 127.0.0.2 is loopback, not listed.
    await (await db()).webhook.update({ where: { id: hook.id }, data: { url: `https://127.0.0.2:${byAddress.port}/hook` } });
    worker = await startNotificationWorker({ timings: TIMINGS });
    await openConversation();
    const [delivery] = await eventually(async () => {
      const log = await deliveries(hook.id);
      expect(log[0]?.status).toBe("failed");
      return log;
    });
    expect(delivery).toMatchObject({ attempt: 2, response_status: null });
    expect(delivery.error).toMatch(/internal address/);
    expect(byAddress.received).toHaveLength(0);
  });
});
