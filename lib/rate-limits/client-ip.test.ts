import { describe, expect, test } from "vitest";
import { installFrontSecret, PEER_HEADER, peerHeaderValue } from "../core/peer.mjs";
import { clientAddressSource, clientIp, exactClientIp, normalizeIp, UNKNOWN_CLIENT } from "./client-ip";

const headers = (values: Record<string, string>) => new Headers(values);
const behind = (trustedProxyHops: number) => ({ trustedProxyHops, onVercel: false });

describe("the client IP a rate limit counts against", () => {
  test("with no trusted proxy and no front, the address is unknown (null: per-IP limits off), never a shared key", () => {
    expect(clientIp(headers({ "x-forwarded-for": "203.0.113.9" }), behind(0))).toBeNull();
    expect(clientIp(headers({}), behind(0))).toBeNull();
    expect(clientIp(headers({ [PEER_HEADER]: "anything 203.0.113.9" }), behind(0))).toBeNull();
    expect(clientAddressSource(behind(0))).toBe("none");
  });

  test("behind one proxy: the rightmost X-Forwarded-For entry, never the leftmost", () => {
    expect(clientIp(headers({ "x-forwarded-for": "1.1.1.1, 2.2.2.2, 203.0.113.9" }), behind(1))).toBe("203.0.113.9");
    expect(clientIp(headers({ "x-forwarded-for": "203.0.113.9" }), behind(1))).toBe("203.0.113.9");
  });

  test("behind two proxies: the second entry from the right", () => {
    expect(clientIp(headers({ "x-forwarded-for": "6.6.6.6, 203.0.113.9, 10.0.0.2" }), behind(2))).toBe("203.0.113.9");
  });

  test("fewer entries than hops: the leftmost, written by the proxy the client reached", () => {
    expect(clientIp(headers({ "x-forwarded-for": "203.0.113.9" }), behind(2))).toBe("203.0.113.9");
  });

  test("behind a proxy, no header: unknown (null); an unusable one: the key of unusable entries", () => {
    expect(clientIp(headers({}), behind(1))).toBeNull();
    expect(clientIp(headers({ "x-forwarded-for": "1.1.1.1, not-an-ip" }), behind(1))).toBe(UNKNOWN_CLIENT);
  });

  test("on Vercel, the platform's header (which clients cannot set) wins", () => {
    const request = headers({ "x-vercel-forwarded-for": "203.0.113.9", "x-forwarded-for": "6.6.6.6" });
    expect(clientIp(request, { trustedProxyHops: 0, onVercel: true })).toBe("203.0.113.9");
  });

  test("addresses are canonical: ports dropped, IPv4-mapped IPv6 as IPv4, IPv6 by its /64", () => {
    expect(normalizeIp("203.0.113.9:51234")).toBe("203.0.113.9");
    expect(normalizeIp("[2001:db8::1]:443")).toBe("2001:0db8:0000:0000::/64");
    expect(normalizeIp("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(normalizeIp("2001:db8:1:2:aaaa::1")).toBe(normalizeIp("2001:0DB8:0001:0002:ffff:ffff:ffff:ffff"));
    expect(normalizeIp("2001:db8:1:3::1")).not.toBe(normalizeIp("2001:db8:1:2::1"));
    expect(normalizeIp("::1")).toBe("0000:0000:0000:0000::/64");
  });

  // Last: installing the front's secret is for the rest of this process.
  test("under the front: the TCP peer it passed, believed only with the process's secret", () => {
    const secret = installFrontSecret();
    expect(clientAddressSource(behind(0))).toBe("front");
    const fromFront = (address: string, extra: Record<string, string> = {}) => headers({ [PEER_HEADER]: peerHeaderValue(secret, address), ...extra });
    expect(clientIp(fromFront("127.0.0.2"), behind(0))).toBe("127.0.0.2");
    expect(clientIp(fromFront("::ffff:127.0.0.3", { "x-forwarded-for": "6.6.6.6" }), behind(0))).toBe("127.0.0.3");
    // Forged: a wrong or missing secret is no address at all.
    expect(clientIp(headers({ [PEER_HEADER]: peerHeaderValue("x".repeat(secret.length), "127.0.0.9") }), behind(0))).toBeNull();
    expect(clientIp(headers({ [PEER_HEADER]: "127.0.0.9" }), behind(0))).toBeNull();
    // Behind proxies the header still decides; the peer only when no proxy wrote one.
    expect(clientIp(fromFront("10.0.0.1", { "x-forwarded-for": "6.6.6.6, 203.0.113.9" }), behind(1))).toBe("203.0.113.9");
    expect(clientIp(fromFront("203.0.113.7"), behind(1))).toBe("203.0.113.7");
  });
});

describe("the client's whole address, for the audit log", () => {
  test("from the same trusted source as the limits, but IPv6 in full rather than its /64", () => {
    expect(exactClientIp(headers({ "x-forwarded-for": "6.6.6.6, [2001:DB8::1]:443" }), behind(1))).toBe("2001:db8::1");
    expect(clientIp(headers({ "x-forwarded-for": "2001:db8::1" }), behind(1))).toBe("2001:0db8:0000:0000::/64");
    expect(exactClientIp(headers({ "x-forwarded-for": "6.6.6.6, 203.0.113.9:5000" }), behind(1))).toBe("203.0.113.9");
    expect(exactClientIp(headers({ "x-forwarded-for": "::ffff:203.0.113.9" }), behind(1))).toBe("203.0.113.9");
  });

  test("never the leftmost entry; unknown where the limits know nothing; not an address → unknown", () => {
    expect(exactClientIp(headers({ "x-forwarded-for": "203.0.113.9" }), behind(0))).toBeNull();
    expect(exactClientIp(headers({ "x-forwarded-for": "<script>" }), behind(1))).toBe(UNKNOWN_CLIENT);
  });
});
