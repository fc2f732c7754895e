import { generateKeyPairSync } from "node:crypto";
import nodemailer from "nodemailer";
import type { DnsResolver } from "mailauth";
import { dkimSign } from "mailauth/lib/dkim/sign";

// Inbound mail for the tests: emails built by nodemailer, DKIM-signed with mailauth's signer, and
// a DNS the test controls (mailauth takes a resolver), so DMARC passes for a domain whose key is
// published and fails for one whose policy is published but whose mail is not signed by it.

type Records = Map<string, string[][]>;

export class TestDns {
  private readonly txt: Records = new Map();
  private readonly keys = new Map<string, string>();

  /** A domain that publishes DMARC p=reject and a DKIM key under selector `s1`; its mail is signed. */
  signingDomain(domain: string): this {
    const { publicKey, privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const spki = publicKey.export({ type: "spki", format: "der" }).toString("base64");
    this.txt.set(`s1._domainkey.${domain}`, [[`v=DKIM1; k=rsa; p=${spki}`]]);
    this.txt.set(`_dmarc.${domain}`, [["v=DMARC1; p=reject"]]);
    this.keys.set(domain, privateKey.export({ type: "pkcs8", format: "pem" }).toString());
    return this;
  }

  readonly resolver: DnsResolver = async (name, rrtype) => {
    const records = rrtype === "TXT" ? this.txt.get(name.toLowerCase().replace(/\.$/, "")) : undefined;
    if (!records) throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: "ENOTFOUND" });
    return records;
  };

  /** The email signed by `domain`'s published key (DMARC passes when From is of that domain). */
  async sign(raw: Buffer, domain: string): Promise<Buffer> {
    const privateKey = this.keys.get(domain);
    if (!privateKey) throw new Error(`no key for ${domain}`);
    const { signatures } = await dkimSign(raw, { signatureData: [{ signingDomain: domain, selector: "s1", privateKey }] });
    return Buffer.concat([Buffer.from(signatures), raw]);
  }
}

const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" });

export interface MailSpec {
  from: string;
  to: string;
  text: string;
  subject?: string;
  messageId?: string;
  headers?: Record<string, string>;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
  /** The envelope sender (Return-Path); null sends an empty one. */
  returnPath?: string | null;
}

let counter = 0;

/** The raw MIME of an email as a mail client writes it. */
export async function composeMail(spec: MailSpec): Promise<Buffer> {
  const info = await composer.sendMail({
    from: spec.from,
    to: spec.to,
    subject: spec.subject ?? "Re: your conversation",
    text: spec.text,
    messageId: spec.messageId ?? `<test-${Date.now()}-${++counter}@client.example>`,
    headers: { ...(spec.returnPath !== undefined ? { "Return-Path": spec.returnPath === null ? "<>" : `<${spec.returnPath}>` } : {}), ...spec.headers },
    attachments: spec.attachments,
  });
  return info.message as Buffer;
}
