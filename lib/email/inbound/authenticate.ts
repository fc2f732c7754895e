import { authenticate, type DnsResolver } from "mailauth";

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

let resolver: DnsResolver | undefined;

/** Where DNS questions go (default: the system's resolver). Tests answer them themselves. */
export function useDnsResolver(custom: DnsResolver | undefined): void {
  resolver = custom;
}

export async function dmarcVerdict(raw: Buffer, envelope: Envelope, mta: string): Promise<DmarcVerdict> {
  const result = await authenticate(raw, {
    sender: envelope.mailFrom ?? undefined,
    ip: envelope.ip,
    helo: envelope.helo,
    mta,
    // Forwarded over HTTP, the provider (holding the bearer secret) received it: its Received line says from where.
    trustReceived: envelope.mailFrom === undefined,
    resolver,
    disableArc: true,
    disableBimi: true,
  });
  const outcome = result.dmarc ? result.dmarc.status.result : "none";
  if (outcome === "pass") return "pass";
  if (outcome === "none") return "none";
  return "fail"; // fail, temperror, permerror
}
