import { isIPv4, isIPv6 } from "node:net";
import { behindFront, PEER_HEADER, trustedPeer } from "../core/peer.mjs";

// The client address a per-IP rate limit counts against (decisions.md, "Client IP, restated").
// A route handler never sees the socket, so the address comes from what a trusted party wrote:
// - under `npm start`, the front (lib/runtime/front.mjs) passes the TCP peer in a private header
//   that only it can write (lib/core/peer.mjs);
// - on Vercel, the platform's own `x-vercel-forwarded-for` (it overwrites what clients send);
// - behind N proxies that each append to X-Forwarded-For, the N-th entry from the right (the TCP
//   peer when no proxy wrote one: the client reached the front directly);
// - otherwise (`next start` or `next dev` with TRUSTED_PROXY_HOPS=0) nothing a client cannot
//   write: Next fills X-Forwarded-For only when the client sent none. The address is unknown
//   (null), and per-IP limits are off rather than one bucket shared by every client.
// The leftmost X-Forwarded-For entry is never used: any client can write it.

export const UNKNOWN_CLIENT = "unknown";

export interface ClientIpOptions {
  trustedProxyHops: number;
  onVercel: boolean;
}

/** Where the client address comes from in this process, or "none" (per-IP limits off). */
export type ClientAddressSource = "vercel" | "proxies" | "front" | "none";

export function clientAddressSource({ trustedProxyHops, onVercel }: ClientIpOptions): ClientAddressSource {
  if (onVercel) return "vercel";
  if (trustedProxyHops > 0) return "proxies";
  return behindFront() ? "front" : "none";
}

/** The key for this request's client, or null when its address cannot be known. */
export function clientIp(headers: Headers, options: ClientIpOptions): string | null {
  const address = trustedAddress(headers, options);
  return address === null ? null : normalizeIp(address);
}

/**
 * The same client's whole address, for the audit log: an IPv6 address in full rather than its /64
 * (what a limit counts by); "unknown" for something that is no address, null where none is known.
 */
export function exactClientIp(headers: Headers, options: ClientIpOptions): string | null {
  const raw = trustedAddress(headers, options);
  if (raw === null) return null;
  const address = stripPort(raw).replace(/%.*$/, "").toLowerCase();
  if (isIPv4(address)) return address;
  if (isIPv6(address)) return /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address)?.[1] ?? address;
  return UNKNOWN_CLIENT;
}

function trustedAddress(headers: Headers, { trustedProxyHops, onVercel }: ClientIpOptions): string | null {
  if (onVercel) {
    const platform = lastEntry(headers.get("x-vercel-forwarded-for"));
    if (platform) return platform;
  }
  const peer = trustedPeer(headers.get(PEER_HEADER));
  if (trustedProxyHops === 0) return peer ?? null;
  const entries = (headers.get("x-forwarded-for") ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return peer ?? null;
  // Fewer entries than hops: the client reached an inner proxy directly, which wrote the leftmost.
  return entries[Math.max(0, entries.length - trustedProxyHops)]!;
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
