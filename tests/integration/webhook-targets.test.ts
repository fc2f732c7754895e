import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { startNotificationWorker } from "../../lib/notifications/worker";
import { isBlockedAddress, registrationProblem, resolveTarget, TargetRefused } from "../../lib/webhooks/target-guard";
import { api, type CallOptions } from "../support/api";
import { expectError } from "../support/expectations";
import { openConversation } from "../support/fixtures";
import { as, createStaff, type Staff } from "../support/inbox";
import { eventually, WebhookReceiver } from "../support/webhook-receiver";

// The SSRF guard with WEBHOOK_ALLOW_PRIVATE_TARGETS unset (the default): literal internal
// addresses are refused at registration, and names that resolve to one fail at every attempt.

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
  // The first call loads the route modules, which on a busy machine can take most of a test's time.
  expect((await api.get("/api/v1/admin/webhooks", { admin: true })).status).toBe(200);
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

// Issue 23: spellings of internal hosts that passed registration (201 on POST, 200 on PATCH, on
// the operator and the inbox routes alike). The URL is canonicalised with the WHATWG parser (the
// one deliveries use); a spelling it would change is refused, and so is every internal spelling.
describe("internal hosts spelled to look otherwise", () => {
  const REPORTED = [
    "https://localhost./",
    "https://localhost.:443/",
    "https://[::127.0.0.1]/", // the parser reads it as [::7f00:1], IPv4-compatible 127.0.0.1
    "https://hooks.example.com\\@127.0.0.1/", // userinfo to some parsers, a path to WHATWG's
  ];
  const PUBLIC = "https://hooks.example.com/parley";
  const events = ["message.created"];
  let owner: Staff;
  const routes = [
    { family: "operator", base: "/api/v1/admin/webhooks", options: (): CallOptions => ({ admin: true }) },
    { family: "inbox", base: "/api/v1/inbox/webhooks", options: (): CallOptions => as(owner) },
  ];
  const stored = async () => (await db()).webhook.findMany({ orderBy: { id: "asc" } });

  beforeAll(async () => {
    owner = await createStaff("owner", "Olive Owner");
  });

  for (const route of routes) {
    test.each(REPORTED)(`POST ${route.base} with %s is a 400 and stores nothing`, async (url) => {
      const before = await stored();
      const response = await api.post(route.base, { ...route.options(), body: { url, events } });
      expectError(response, 400, "invalid_request");
      expect(response.json.result.fields).toEqual([expect.objectContaining({ path: "url" })]);
      expect(await stored()).toEqual(before);
    });

    test.each(REPORTED)(`PATCH ${route.base}/{id} to %s is a 400 and changes nothing`, async (url) => {
      const created = await api.post(route.base, { ...route.options(), body: { url: PUBLIC, events } });
      expect(created.status).toBe(201);
      const before = await stored();
      const response = await api.patch(`${route.base}/${created.json.result.id}`, { ...route.options(), body: { url } });
      expectError(response, 400, "invalid_request");
      expect(await stored()).toEqual(before);
    });
  }

  // More spellings, each refused at registration without WEBHOOK_ALLOW_PRIVATE_TARGETS.
  test.each([
    ["decimal IPv4", "https://2130706433/hook"],
    ["hexadecimal IPv4", "https://0x7f000001/hook"],
    ["mixed hex IPv4", "https://0x7f.0.0.1/hook"],
    ["octal IPv4", "https://0177.0.0.1/hook"],
    ["short IPv4", "https://127.1/hook"],
    ["IPv4 with a trailing dot", "https://127.0.0.1./hook"],
    ["zero", "https://0/hook"],
    ["IPv4-mapped IPv6, dotted", "https://[::ffff:127.0.0.1]/hook"],
    ["IPv4-mapped IPv6, hex", "https://[::ffff:7f00:1]/hook"],
    ["IPv4-mapped private", "https://[::ffff:a00:1]/hook"],
    ["IPv4-compatible IPv6 (canonical)", "https://[::7f00:1]/hook"],
    ["IPv4-compatible private", "https://[::a00:1]/hook"],
    ["IPv6 loopback, long form", "https://[0:0:0:0:0:0:0:1]/hook"],
    ["IPv6 unspecified", "https://[::]/hook"],
    ["IPv6 link-local", "https://[fe80::1]/hook"],
    ["IPv6 link-local with a zone", "https://[fe80::1%25eth0]/hook"],
    ["IPv6 unique local", "https://[fd12:3456::1]/hook"],
    ["local-use NAT64", "https://[64:ff9b:1::a00:1]/hook"],
    ["Teredo", "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook"],
    ["upper-case localhost", "https://LOCALHOST/hook"],
    ["localhost.localdomain", "https://localhost.localdomain/hook"],
    ["an mDNS name", "https://printer.local/hook"],
    ["a cloud metadata name", "https://metadata.google.internal/computeMetadata/v1/"],
    ["a home network name", "https://router.home.arpa/hook"],
    ["a public name with a trailing dot", "https://hooks.example.com./hook"],
    ["empty userinfo", "https://@hooks.example.com/hook"],
    ["a user name only", "https://user@hooks.example.com/hook"],
    ["a backslash", "https://hooks.example.com\\hook"],
  ])("registering %s (%s) is a 400", async (_, url) => {
    const before = await stored();
    const response = await api.post("/api/v1/admin/webhooks", { admin: true, body: { url, events } });
    expectError(response, 400, "invalid_request");
    expect(await stored()).toEqual(before);
  });

  test.each([
    ["https://hooks.example.com:443/parley", "https://hooks.example.com/parley"],
    ["https://\u212Aooks.example.com/parley", "https://kooks.example.com/parley"], // KELVIN SIGN, read as "k"
    ["https://hooks.example.com/a/../parley", "https://hooks.example.com/parley"],
    ["https://hooks.example.com/a b", "https://hooks.example.com/a%20b"],
    ["https://bücher.example/hook", "https://xn--bcher-kva.example/hook"],
  ])("a public URL the parser would rewrite (%s) is a 400 naming the form to write", async (url, canonical) => {
    const response = await api.post("/api/v1/admin/webhooks", { admin: true, body: { url, events } });
    expectError(response, 400, "invalid_request");
    expect(response.json.result.fields[0].problem).toContain(canonical);
    expect((await api.post("/api/v1/admin/webhooks", { admin: true, body: { url: canonical, events } })).status).toBe(201);
  });

  // What the parser changes there, no parser reads otherwise: accepted, and stored as written.
  test.each(["https://hooks.example.com", "https://Hooks.Example.COM/Parley?Key=Value", "HTTPS://hooks.example.com:8443"])("%s is accepted", async (url) => {
    const created = await api.post("/api/v1/admin/webhooks", { admin: true, body: { url, events } });
    expect(created.status).toBe(201);
    expect(created.json.result.url).toBe(url);
    expect((await (await db()).webhook.findUniqueOrThrow({ where: { id: created.json.result.id } })).url).toBe(url);
  });

  test("property: any spelling the parser reads as a blocked IPv4 address is refused", () => {
    const spell = (octets: number[], style: number) => {
      const value = octets.reduce((sum, octet) => sum * 256 + octet, 0);
      if (style === 0) return octets.join(".");
      if (style === 1) return String(value);
      if (style === 2) return `0x${value.toString(16)}`;
      if (style === 3) return octets.map((octet) => `0${octet.toString(8)}`).join(".");
      return `${octets[0]}.${(value & 0xffffff) >>> 0}`;
    };
    const blockedOctets = fc.oneof(
      fc.tuple(fc.constant(127), fc.nat(255), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(10), fc.nat(255), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(192), fc.constant(168), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(169), fc.constant(254), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(100), fc.integer({ min: 64, max: 127 }), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(0), fc.nat(255), fc.nat(255), fc.nat(255)),
    );
    fc.assert(
      fc.property(blockedOctets, fc.nat(4), fc.boolean(), (octets, style, mapped) => {
        const host = mapped ? `[::ffff:${octets.join(".")}]` : spell(octets, style);
        expect(registrationProblem(`https://${host}/hook`, false), host).not.toBeNull();
      }),
      { numRuns: 1_000 },
    );
  });
});
