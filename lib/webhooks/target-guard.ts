import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

// The SSRF guard of decisions.md: a webhook may only reach the public internet over https. A
// literal address (or localhost) is refused at registration; every delivery attempt resolves the
// name again, refuses if any address is in a blocked range, and connects to the address it
// checked (so a DNS answer that changes between check and connect cannot swap it).
// WEBHOOK_ALLOW_PRIVATE_TARGETS=on lifts both rules (receivers on your own network, tests).

const blocked = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this" network
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // CGNAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata (169.254.169.254)
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96], // NAT64 (reaches IPv4 addresses)
  ["100::", 64],
  ["2001:db8::", 32],
  ["2002::", 16], // 6to4 (reaches IPv4 addresses)
  ["fc00::", 7], // unique local, including fd00:ec2::254 (cloud metadata)
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
] as const) {
  blocked.addSubnet(network, prefix, "ipv6");
}

/** Whether an IP address is in a range webhooks may not reach. */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1]!, "ipv4");
  return blocked.check(address, "ipv6");
}

const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, "$1");
const isLocalName = (host: string) => host === "localhost" || host.endsWith(".localhost");

/** Why this URL may not be registered, or null. Checks only what is literal in it. */
export function registrationProblem(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an absolute URL";
  }
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) return "must be an https URL";
  if (url.username || url.password) return "must not carry credentials";
  if (url.hash) return "must not have a fragment";
  const host = hostOf(url);
  if (!allowPrivate && (isLocalName(host) || (isIP(host) !== 0 && isBlockedAddress(host)))) {
    return "must not point to a loopback, private, link-local or other internal address";
  }
  return null;
}

export interface ResolvedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export class TargetRefused extends Error {}

/** Resolves the target for one attempt; throws TargetRefused when it may not be reached. */
export async function resolveTarget(raw: string, allowPrivate: boolean): Promise<ResolvedTarget> {
  const problem = registrationProblem(raw, allowPrivate);
  if (problem) throw new TargetRefused(`The target URL ${problem}.`);
  const url = new URL(raw);
  const host = hostOf(url);
  const literal = isIP(host);
  const addresses = literal
    ? [{ address: host, family: literal }]
    : await lookup(host, { all: true, verbatim: true }).catch(() => {
        throw new TargetRefused(`The target host could not be resolved.`);
      });
  if (addresses.length === 0) throw new TargetRefused("The target host has no address.");
  if (!allowPrivate && addresses.some(({ address }) => isBlockedAddress(address))) {
    throw new TargetRefused("The target host resolves to a loopback, private, link-local or other internal address.");
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
