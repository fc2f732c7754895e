// The parts of mailauth (which ships no types) that the inbound pipeline and its tests use.
declare module "mailauth" {
  /** Answers DNS records as node:dns/promises resolve() does (TXT: string[][]); throws ENOTFOUND/ENODATA when there are none. */
  export type DnsResolver = (name: string, rrtype: string) => Promise<unknown>;
  export interface AuthenticateOptions {
    sender?: string;
    ip?: string;
    helo?: string;
    mta?: string;
    trustReceived?: boolean;
    resolver?: DnsResolver;
    disableArc?: boolean;
    disableBimi?: boolean;
  }
  export interface AuthenticationResult {
    dmarc: false | { status: { result: string }; domain?: string };
  }
  export function authenticate(input: Buffer | string, options: AuthenticateOptions): Promise<AuthenticationResult>;
}

declare module "mailauth/lib/dkim/sign" {
  export function dkimSign(
    input: Buffer | string,
    options: { canonicalization?: string; algorithm?: string; signTime?: Date; signatureData: { signingDomain: string; selector: string; privateKey: string }[] },
  ): Promise<{ signatures: string; errors: unknown[] }>;
}
