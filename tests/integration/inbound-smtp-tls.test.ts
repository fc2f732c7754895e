import { mkdtempSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { startInboundSmtpListener, type InboundSmtpListener } from "../../lib/email/inbound/smtp-listener";

// The SMTP listener offers STARTTLS when INBOUND_SMTP_TLS_CERT and _KEY name a certificate and its
// key (PEM files): a client that requires TLS delivers through it. The certificate is
// smtp-server's own self-signed one, written to files as an operator's would be.

const { cert, key } = createRequire(import.meta.url)("smtp-server/lib/tls-options")({}) as { cert: Buffer; key: Buffer };
const dir = mkdtempSync(path.join(tmpdir(), "parley-inbound-tls-"));
writeFileSync(path.join(dir, "cert.pem"), cert);
writeFileSync(path.join(dir, "key.pem"), key);
process.env.MAIL_REPLY_DOMAIN = "reply.acme.example";
process.env.INBOUND_SMTP_TLS_CERT = path.join(dir, "cert.pem");
process.env.INBOUND_SMTP_TLS_KEY = path.join(dir, "key.pem");

let listener: InboundSmtpListener;
beforeAll(async () => {
  listener = await startInboundSmtpListener({ port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  await listener?.close();
});

test("with a certificate configured, the listener offers STARTTLS and a client requiring TLS delivers", async () => {
  const client = nodemailer.createTransport({ host: "127.0.0.1", port: listener.port, secure: false, requireTLS: true, tls: { rejectUnauthorized: false } });
  const sent = await client.sendMail({ from: "vic@visitor.example", to: "r+aaaa@reply.acme.example", text: "over TLS", messageId: "<tls@client.example>" });
  expect(sent.accepted).toEqual(["r+aaaa@reply.acme.example"]);
  // Judged like any email: the made-up token is refused, and counted.
  const row = await (await db()).inboundEmail.findFirstOrThrow({ where: { via: "smtp" } });
  expect([row.outcome, row.reason]).toEqual(["refused", "invalid_token"]);
});
