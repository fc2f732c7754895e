import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

// The SSRF guard of decisions.md: a webhook may only reach the public internet over https.
//
// At registration (POST and PATCH, operator and inbox routes alike) the URL must be written the
// way the WHATWG URL parser writes it, the parser every delivery uses: a spelling it would change
// (a default port, `..`, a backslash, an empty userinfo, `127.1`, `[::127.0.0.1]`, an IDN…) is
// refused with the form to write, since another parser could read it otherwise. Let through are
// only the letter case of scheme and host and the "/" a bare origin gets, and the URL is stored as
// written. A host with a trailing dot is refused too, as are credentials, fragments, names that
// only ever mean a local or private network (localhost and the names below), and literal
// addresses in a blocked range.
//
// Every delivery attempt checks the stored URL again, resolves the name, refuses if any address is
// in a blocked range, and connects to the address it checked (so a DNS answer that changes
// between check and connect cannot swap it). Spelling is not checked again there: the attempt
// goes where this parser reads the URL, and that is what is checked.
//
// WEBHOOK_ALLOW_PRIVATE_TARGETS=on lifts the rules on places (http, internal names and addresses).
// WEBHOOK_ALLOWED_TARGETS lifts them for listed host names (whatever they resolve to) and for
// addresses in listed CIDRs; http too, but only for a target the list names itself: a listed
// name, or an address in a listed CIDR written as the host. A name that is not listed stays https
// whatever it resolves to (its DNS answer is no one's explicit choice). Spelling rules hold in
// every case.

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
  ["::", 96], // unspecified, loopback and IPv4-compatible (::7f00:1 is 127.0.0.1 to some stacks)
  ["64:ff9b::", 96], // NAT64 (reaches IPv4 addresses)
  ["64:ff9b:1::", 48], // local-use NAT64
  ["100::", 64],
  ["2001::", 32], // Teredo (carries IPv4 addresses)
  ["2001:db8::", 32],
  ["2002::", 16], // 6to4 (reaches IPv4 addresses)
  ["fc00::", 7], // unique local, including fd00:ec2::254 (cloud metadata)
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
] as const) {
  blocked.addSubnet(network, prefix, "ipv6");
}
// IPv4-mapped addresses (::ffff:0:0/96) are checked as the IPv4 address they carry.

/** The IPv4 address inside an IPv4-mapped IPv6 address (dotted or hex), or the address itself. */
function unmapped(address: string): string {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return dotted[1]!;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return address;
  const [high, low] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
}

const inList = (list: BlockList, address: string) => {
  const plain = unmapped(address);
  const family = isIP(plain);
  return family !== 0 && list.check(plain, family === 4 ? "ipv4" : "ipv6");
};

/** Whether an IP address is in a range webhooks may not reach. */
export function isBlockedAddress(address: string): boolean {
  return isIP(address) === 0 || inList(blocked, address);
}

/** Targets the deployment lets webhooks reach even when internal (WEBHOOK_ALLOWED_TARGETS). */
export interface AllowedTargets {
  names: ReadonlySet<string>;
  ranges: BlockList;
}

export const NO_ALLOWED_TARGETS: AllowedTargets = Object.freeze({ names: new Set<string>(), ranges: new BlockList() });

interface AllowedTargetsList {
  names: readonly string[];
  ranges: readonly { network: string; prefix: number; family: "ipv4" | "ipv6" }[];
}

const built = new WeakMap<AllowedTargetsList, AllowedTargets>();

/** WEBHOOK_ALLOWED_TARGETS as lib/core/env parsed it, in the form the guard checks (built once). */
export function allowedTargets(list: AllowedTargetsList): AllowedTargets {
  let allowed = built.get(list);
  if (!allowed) {
    const ranges = new BlockList();
    for (const { network, prefix, family } of list.ranges) ranges.addSubnet(network, prefix, family);
    allowed = { names: new Set(list.names), ranges };
    built.set(list, allowed);
  }
  return allowed;
}

const INTERNAL = "must not point to a loopback, private, link-local or other internal address";

// Names that only ever mean this machine or a private network: localhost (RFC 6761), mDNS
// (RFC 6762), home networks (RFC 8375), ICANN's private-use .internal (cloud metadata lives at
// metadata.google.internal), and the localdomain of localhost.localdomain.
const INTERNAL_NAMES = ["localhost", "local", "internal", "home.arpa", "localdomain"];
const isInternalName = (host: string) => INTERNAL_NAMES.some((name) => host === name || host.endsWith(`.${name}`));

interface Target {
  url: URL;
  /** The host as checked: no IPv6 brackets, no trailing dot. */
  host: string;
}

/** Whether WEBHOOK_ALLOWED_TARGETS names this host itself: a listed name, or an address in a listed CIDR. */
const isListed = (host: string, allowed: AllowedTargets) => allowed.names.has(host) || (isIP(host) !== 0 && inList(allowed.ranges, host));

/** The URL, or why it may not be used whatever its host. */
function parseTarget(raw: string, allowPrivate: boolean, allowed: AllowedTargets): Target | string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an absolute URL";
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "");
  if (url.protocol !== "https:") {
    if (url.protocol !== "http:") return "must be an https URL";
    if (!allowPrivate && !isListed(host, allowed))
      return "must be an https URL (http only for a target WEBHOOK_ALLOWED_TARGETS lists)";
  }
  if (url.username || url.password) return "must not carry credentials";
  if (url.hash || url.href.includes("#")) return "must not have a fragment";
  return { url, host };
}

/** Why this host may not be reached before any DNS answer, or null. */
function hostProblem(host: string, allowPrivate: boolean, allowed: AllowedTargets): string | null {
  if (allowPrivate || allowed.names.has(host)) return null;
  if (isIP(host) === 0) return isInternalName(host) ? INTERNAL : null;
  return isBlockedAddress(host) && !inList(allowed.ranges, host) ? INTERNAL : null;
}

/** Why this URL may not be registered, or null. Checks its spelling and what is literal in it. */
export function registrationProblem(raw: string, allowPrivate: boolean, allowed: AllowedTargets = NO_ALLOWED_TARGETS): string | null {
  const target = parseTarget(raw, allowPrivate, allowed);
  if (typeof target === "string") return target;
  const { url, host } = target;
  if (url.hostname.endsWith(".")) return "must name its host without a trailing dot";
  const problem = hostProblem(host, allowPrivate, allowed);
  if (problem) return problem;
  if (!writtenAsParsed(raw, url)) return `must be written as the URL parser writes it: ${url.href}`;
  return null;
}

/**
 * Whether `raw` is the parser's own spelling of `url`: another parser could read a spelling this
 * one rewrites as another place. Two differences are let through, which no parser reads otherwise:
 * the letter case of an ASCII scheme and host, and the "/" a bare origin gets.
 */
function writtenAsParsed(raw: string, url: URL): boolean {
  const { origin, href } = url;
  const [rawOrigin, rawRest] = [raw.slice(0, origin.length), raw.slice(origin.length)];
  const rest = href.slice(origin.length);
  return /^[\x21-\x7e]*$/.test(rawOrigin) && rawOrigin.toLowerCase() === origin && (rawRest === rest || (rawRest === "" && rest === "/"));
}

export interface ResolvedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export class TargetRefused extends Error {}

export type ResolveHost = (host: string) => Promise<{ address: string; family: number }[]>;

const resolveWithSystem: ResolveHost = (host) => lookup(host, { all: true, verbatim: true });

/** Resolves the target for one attempt; throws TargetRefused when it may not be reached. */
export async function resolveTarget(
  raw: string,
  allowPrivate: boolean,
  allowed: AllowedTargets = NO_ALLOWED_TARGETS,
  resolve: ResolveHost = resolveWithSystem,
): Promise<ResolvedTarget> {
  const target = parseTarget(raw, allowPrivate, allowed);
  const problem = typeof target === "string" ? target : hostProblem(target.host, allowPrivate, allowed);
  if (typeof target === "string" || problem) throw new TargetRefused(`The target URL ${problem}.`);
  const { url, host } = target;
  const literal = isIP(host);
  const addresses = literal
    ? [{ address: host, family: literal }]
    : await resolve(host).catch(() => {
        throw new TargetRefused(`The target host could not be resolved.`);
      });
  if (addresses.length === 0) throw new TargetRefused("The target host has no address.");
  // A listed name may resolve anywhere; otherwise every address must be public or listed.
  const mayBeInternal = allowPrivate || allowed.names.has(host);
  if (!mayBeInternal && addresses.some(({ address }) => isBlockedAddress(address) && !inList(allowed.ranges, address))) {
    throw new TargetRefused("The target host resolves to a loopback, private, link-local or other internal address.");
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
