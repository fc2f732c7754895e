import { isIPv4, isIPv6 } from "node:net";

// The client address a rate limit counts against. A route handler never sees the socket, so the
// address comes from headers, and only from those a trusted party wrote:
// - on Vercel, the platform's own `x-vercel-forwarded-for` (it overwrites what clients send);
// - behind N proxies that each append to X-Forwarded-For, the N-th entry from the right;
// - with no trusted proxy (N = 0) every header is the client's own writing, so all clients share
//   one key: set TRUSTED_PROXY_HOPS to the number of proxies in front of the service.
// The leftmost X-Forwarded-For entry is never used: any client can write it.

export const UNKNOWN_CLIENT = "unknown";

export interface ClientIpOptions {
  trustedProxyHops: number;
  onVercel: boolean;
}

export function clientIp(headers: Headers, { trustedProxyHops, onVercel }: ClientIpOptions): string {
  if (onVercel) {
    const platform = lastEntry(headers.get("x-vercel-forwarded-for"));
    if (platform) return normalizeIp(platform);
  }
  if (trustedProxyHops === 0) return UNKNOWN_CLIENT;
  const entries = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return UNKNOWN_CLIENT;
  // Fewer entries than hops: the client reached an inner proxy directly, which wrote the leftmost.
  return normalizeIp(entries[Math.max(0, entries.length - trustedProxyHops)]!);
}

function lastEntry(value: string | null): string | undefined {
  return value?.split(",").map((entry) => entry.trim()).filter(Boolean).at(-1);
}

/** A canonical key for an address: IPv4 as is, IPv6 by its /64 (one subscriber's usual allocation). */
export function normalizeIp(raw: string): string {
  const address = stripPort(raw);
  if (isIPv4(address)) return address;
  if (isIPv6(address)) {
    const mappedV4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    if (mappedV4) return mappedV4;
    return `${expandIPv6(address).slice(0, 4).join(":")}::/64`;
  }
  return UNKNOWN_CLIENT;
}

function stripPort(value: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) return bracketed[1]!;
  const v4WithPort = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(value);
  return v4WithPort ? v4WithPort[1]! : value;
}

/** Eight 4-digit lower-case groups. */
function expandIPv6(address: string): string[] {
  let text = address.toLowerCase().replace(/%.*$/, "");
  const embeddedV4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (embeddedV4) {
    const [a, b, c, d] = embeddedV4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, embeddedV4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const zeros = tail === undefined ? [] : Array(8 - headGroups.length - tailGroups.length).fill("0");
  return [...headGroups, ...zeros, ...tailGroups].map((group) => group.padStart(4, "0"));
}
