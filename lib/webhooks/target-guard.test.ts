import { describe, expect, test } from "vitest";
import { parseEnv } from "../core/env";
import { allowedTargets, isBlockedAddress, registrationProblem, resolveTarget, TargetRefused, type ResolveHost } from "./target-guard";

// The guard's rules with WEBHOOK_ALLOWED_TARGETS, without DNS: the resolver is given.

const allowed = allowedTargets(parseEnv({ WEBHOOK_ALLOWED_TARGETS: "hooks.corp.example,n8n,10.20.0.0/16,fd00:1::/32" }).WEBHOOK_ALLOWED_TARGETS);
const resolvesTo =
  (...addresses: string[]): ResolveHost =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

describe("registration with WEBHOOK_ALLOWED_TARGETS", () => {
  test.each(["https://hooks.corp.example/hook", "https://HOOKS.corp.example/hook", "https://n8n:5678/webhook/parley"])("%s is accepted (its addresses are checked at each attempt)", (url) => {
    expect(registrationProblem(url, false, allowed)).toBeNull();
  });

  test.each([
    "https://10.20.3.4/hook",
    "https://[fd00:1::5]/hook",
    "https://[::ffff:a14:304]/hook", // 10.20.3.4, IPv4-mapped
  ])("%s is accepted, and refused without the list", (url) => {
    expect(registrationProblem(url, false, allowed)).toBeNull();
    expect(registrationProblem(url, false)).not.toBeNull();
  });

  test.each([
    "https://10.21.0.1/hook",
    "https://[fd00:2::1]/hook",
    "https://127.0.0.1/hook",
    "https://other.corp.internal/hook",
    "https://n8n.local/hook", // names are listed exactly
    "https://hooks.corp.example./hook",
    "https://0xa140304/hook", // 10.20.3.4 spelled so another parser could read it otherwise
    "https://user@hooks.corp.example/hook",
    // http only for a target the list names itself
    "http://hooks.example.com/hook",
    "http://10.21.0.1/hook",
    "http://n8n.local/hook",
    "http://127.0.0.1/hook",
    "http://0xa140304/hook",
    "http://user@n8n/hook",
  ])("%s is refused", (url) => {
    expect(registrationProblem(url, false, allowed)).not.toBeNull();
  });

  test.each(["http://hooks.corp.example/hook", "http://n8n:5678/webhook/parley", "http://10.20.3.4/hook", "http://[fd00:1::5]/hook"])(
    "%s: http for a listed target is accepted, and refused without the list",
    (url) => {
      expect(registrationProblem(url, false, allowed)).toBeNull();
      expect(registrationProblem(url, false)).toMatch(/must be an https URL/);
    },
  );
});

describe("an attempt with WEBHOOK_ALLOWED_TARGETS", () => {
  test("a listed name may resolve to any address", async () => {
    await expect(resolveTarget("https://hooks.corp.example/hook", false, allowed, resolvesTo("192.168.7.7", "127.0.0.1"))).resolves.toMatchObject({
      address: "192.168.7.7",
    });
  });

  test("an unlisted name reaches internal addresses only when every one is in a listed CIDR", async () => {
    await expect(resolveTarget("https://hooks.example.com/hook", false, allowed, resolvesTo("10.20.0.9", "fd00:1::9"))).resolves.toMatchObject({
      address: "10.20.0.9",
      family: 4,
    });
    await expect(resolveTarget("https://hooks.example.com/hook", false, allowed, resolvesTo("10.20.0.9", "10.30.0.9"))).rejects.toThrow(
      /resolves to a loopback, private/,
    );
    await expect(resolveTarget("https://hooks.example.com/hook", false, allowed, resolvesTo("93.184.215.14", "::ffff:127.0.0.1"))).rejects.toBeInstanceOf(
      TargetRefused,
    );
  });

  test("http goes to a listed name or address; an unlisted name stays https even when it resolves into a listed CIDR", async () => {
    await expect(resolveTarget("http://n8n:5678/hook", false, allowed, resolvesTo("10.99.0.1"))).resolves.toMatchObject({ address: "10.99.0.1" });
    await expect(resolveTarget("http://10.20.0.9/hook", false, allowed)).resolves.toMatchObject({ address: "10.20.0.9" });
    await expect(resolveTarget("http://hooks.example.com/hook", false, allowed, resolvesTo("10.20.0.9"))).rejects.toThrow(/must be an https URL/);
  });

  test("a stored URL with an internal name is refused before any DNS, with or without its trailing dot", async () => {
    const unused: ResolveHost = async () => {
      throw new Error("resolved");
    };
    for (const url of ["https://localhost./hook", "https://metadata.google.internal./", "https://[::7f00:1]/"]) {
      await expect(resolveTarget(url, false, allowed, unused), url).rejects.toThrow(/internal address/);
    }
  });
});

test("IPv4-compatible, Teredo and local NAT64 addresses are blocked; public IPv4 is not caught by the IPv6 ranges", () => {
  for (const address of ["::7f00:1", "::a00:1", "::ffff:a00:1", "2001:0:4136:e378:8000:63bf:3fff:fdd2", "64:ff9b:1::a00:1"]) {
    expect(isBlockedAddress(address), address).toBe(true);
  }
  for (const address of ["8.8.8.8", "1.1.1.1", "::ffff:808:808", "2606:4700::1111"]) expect(isBlockedAddress(address), address).toBe(false);
});
