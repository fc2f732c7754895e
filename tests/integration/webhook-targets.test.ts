import { afterAll, beforeAll, expect, test } from "vitest";
import { db } from "../../lib/db";
import { startNotificationWorker } from "../../lib/jobs/worker";
import { isBlockedAddress, registrationProblem, resolveTarget, TargetRefused } from "../../lib/webhooks/target-guard";
import { api } from "../support/api";
import { openConversation } from "../support/fixtures";
import { eventually, WebhookReceiver } from "../support/webhook-receiver";

// The SSRF guard with WEBHOOK_ALLOW_PRIVATE_TARGETS unset (the default): literal internal
// addresses are refused at registration, and names that resolve to one fail at every attempt.

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
});
afterAll(() => receiver.stop());

test.each([
  "http://example.com/hook", // not https
  "https://127.0.0.1/hook",
  "https://127.1.2.3:8443/hook",
  "https://localhost/hook",
  "https://api.localhost/hook",
  "https://10.0.0.5/hook",
  "https://172.16.3.4/hook",
  "https://192.168.1.1/hook",
  "https://169.254.169.254/latest/meta-data",
  "https://100.64.0.1/hook",
  "https://224.0.0.1/hook",
  "https://0.0.0.0/hook",
  "https://[::1]/hook",
  "https://[fe80::1]/hook",
  "https://[fd00:ec2::254]/hook",
  "https://[::ffff:127.0.0.1]/hook",
  "https://[ff02::1]/hook",
  "https://user:pass@example.com/hook",
])("registering %s is a 400 and stores nothing", async (url) => {
  const response = await api.post("/api/v1/admin/webhooks", { admin: true, body: { url, events: ["message.created"] } });
  expect(response.status).toBe(400);
  expect(response.json.result.code).toBe("invalid_request");
  expect(await (await db()).webhook.count()).toBe(0);
});

test("public https targets are accepted", async () => {
  expect(registrationProblem("https://hooks.example.com/parley", false)).toBeNull();
  expect(registrationProblem("https://93.184.215.14/hook", false)).toBeNull();
  expect(registrationProblem("https://[2606:4700::1111]/hook", false)).toBeNull();
  expect(isBlockedAddress("8.8.8.8")).toBe(false);
  expect(isBlockedAddress("::ffff:10.1.1.1")).toBe(true);
});

test("a name that resolves to loopback is refused when the attempt is made", async () => {
  await expect(resolveTarget("https://localhost.example.invalid/hook", false)).rejects.toBeInstanceOf(TargetRefused);
  // A name that resolves to an internal address: the machine's own name (loopback or a private
  // address on every runner we know); checked against what the resolver says here.
  const { hostname } = await import("node:os");
  const { lookup } = await import("node:dns/promises");
  const addresses = await lookup(hostname(), { all: true }).catch(() => []);
  const refusal = resolveTarget(`https://${hostname()}/hook`, false);
  if (addresses.length > 0 && addresses.every(({ address }) => isBlockedAddress(address))) {
    await expect(refusal).rejects.toThrow(/resolves to a loopback, private/);
  } else {
    await expect(refusal).rejects.toBeInstanceOf(TargetRefused);
  }
  // The same name is reachable once private targets are allowed.
  if (addresses.length > 0) await expect(resolveTarget(`https://${hostname()}/hook`, true)).resolves.toMatchObject({ address: addresses[0]!.address });
});

test("a webhook whose URL later points inside is refused at every attempt, not sent", async () => {
  // Registered as a public name, then changed under the guard's nose (as DNS could do).
  const created = await api.post("/api/v1/admin/webhooks", {
    admin: true,
    body: { url: "https://hooks.example.com/parley", events: ["conversation.started"] },
  });
  expect(created.status).toBe(201);
  await (await db()).webhook.update({ where: { id: created.json.result.id }, data: { url: receiver.url.replace("http:", "https:") } });
  const worker = await startNotificationWorker({
    timings: { webhookRetryScheduleMs: [100], dispatchPollMs: 50, jobExpirySeconds: 10, maintenanceSeconds: 1 },
  });
  try {
    await openConversation();
    const [delivery] = await eventually(async () => {
      const log = (await api.get(`/api/v1/admin/webhooks/${created.json.result.id}/deliveries`, { admin: true })).json.result;
      expect(log[0]?.status).toBe("failed");
      return log;
    });
    expect(delivery).toMatchObject({ attempt: 2, response_status: null });
    expect(delivery.error).toMatch(/internal address/);
    expect(receiver.received).toHaveLength(0);
  } finally {
    await worker.stop();
  }
});
