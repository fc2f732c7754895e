import nodemailer from "nodemailer";
import type { Transporter } from "nodemailer";
import { encodeWord } from "nodemailer/lib/mime-funcs";
import type SMTPPool from "nodemailer/lib/smtp-pool";
import { env } from "../../core/env";

// Nodemailer over SMTP_URL. Without it there is no transport and emails stay in the outbox.
//
// A pool: emails share a few connections instead of a connect, EHLO and AUTH each. A connection
// the server closed while idle (its timeout, a restart) leaves the pool, and the next email opens
// a new one; a message the server dropped before taking any of it is queued again by nodemailer
// (`maxRequeues`), anything else fails the send job, which is retried.

let cached: { url: string; transporter: Transporter } | undefined;

export const smtpConfigured = () => Boolean(env().SMTP_URL);

/** The From of every email: MAIL_FROM, or a placeholder for outbox-only emails. */
export const mailFrom = () => env().MAIL_FROM ?? "Parley <parley@localhost>";

/**
 * A subject (user text: a ticket's subject, a visitor's name) as nodemailer must be handed it.
 * Nodemailer passes a well-formed RFC 2047 encoded word (`=?utf-8?B?…?=`) through as it is, so a
 * visitor who typed one had the reader's client decode it — into "Hi\r\nBcc: …" or any other
 * text (issue 23, item 7). A subject holding `=?` is therefore encoded whole here (UTF-8, base64,
 * whole characters per word, as nodemailer does for any non-ASCII subject): the client decodes it
 * once, back to exactly the characters typed, encoded-word look-alikes included. Other subjects go
 * as before (nodemailer encodes non-ASCII ones itself; line breaks never reach here, see
 * templates.ts `subjectLine`).
 */
export const subjectHeader = (subject: string) => (subject.includes("=?") ? encodeWord(subject, "B", 52) : subject);

export function smtpTransport(): Transporter | null {
  const url = env().SMTP_URL;
  if (!url) return null;
  if (cached?.url !== url) {
    closeSmtpTransport();
    cached = {
      url,
      transporter: nodemailer.createTransport({
        url,
        pool: true,
        maxConnections: 2,
        maxMessages: 100,
        // Give up quickly on an unreachable server: the job is retried later anyway.
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      } as SMTPPool.Options),
    };
  }
  return cached.transporter;
}

/** Closes the pool's connections (the worker's shutdown); messages being sent finish first. */
export function closeSmtpTransport(): void {
  cached?.transporter.close();
  cached = undefined;
}
