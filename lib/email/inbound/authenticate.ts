import { Resolver } from "node:dns/promises";
import { authenticate, type DnsResolver } from "mailauth";
import { env } from "../../core/env";

// The sender domain's DMARC verdict, from mailauth (SPF, DKIM and their alignment). Only a
// definite failure or a broken policy counts against the email: a domain without DMARC
// publishes no policy to fail.

export interface Envelope {
  /** MAIL FROM as the SMTP listener saw it; undefined when the email was forwarded over HTTP. */
  mailFrom?: string | null;
  ip?: string;
  helo?: string;
}

export type DmarcVerdict = "pass" | "none" | "fail";

let custom: DnsResolver | undefined;
let configured: { resolver: DnsResolver | undefined } | undefined;

/** Answers DNS questions in-process instead (tests that sign mail with keys of their own). */
export function useDnsResolver(resolver: DnsResolver | undefined): void {
  custom = resolver;
}

/** DNS_SERVERS when set (a resolver asking them), else undefined: mailauth then asks the system's. */
function dnsResolver(): DnsResolver | undefined {
  if (custom) return custom;
  configured ??= { resolver: resolverFor(env().DNS_SERVERS) };
  return configured.resolver;
}

function resolverFor(servers: string[] | undefined): DnsResolver | undefined {
  if (!servers) return undefined;
  const resolver = new Resolver();
  resolver.setServers(servers);
  return (name, rrtype) => resolver.resolve(name, rrtype);
}

export async function dmarcVerdict(raw: Buffer, envelope: Envelope, mta: string): Promise<DmarcVerdict> {
  const result = await authenticate(raw, {
    sender: envelope.mailFrom ?? undefined,
    ip: envelope.ip,
    helo: envelope.helo,
    mta,
    // Forwarded over HTTP, the provider (holding the bearer secret) received it: its Received line says from where.
    trustReceived: envelope.mailFrom === undefined,
    resolver: dnsResolver(),
    disableArc: true,
    disableBimi: true,
  });
  const outcome = result.dmarc ? result.dmarc.status.result : "none";
  if (outcome === "pass") return "pass";
  if (outcome === "none") return "none";
  return "fail"; // fail, temperror, permerror
}
