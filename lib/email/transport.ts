import nodemailer from "nodemailer";
import type { Transporter } from "nodemailer";
import type SMTPTransport from "nodemailer/lib/smtp-transport";
import { env } from "../env";

// Nodemailer over SMTP_URL. Without it there is no transport and emails stay in the outbox.

let cached: { url: string; transporter: Transporter } | undefined;

export const smtpConfigured = () => Boolean(env().SMTP_URL);

/** The From of every email: MAIL_FROM, or a placeholder for outbox-only emails. */
export const mailFrom = () => env().MAIL_FROM ?? "Parley <parley@localhost>";

export function smtpTransport(): Transporter | null {
  const url = env().SMTP_URL;
  if (!url) return null;
  if (cached?.url !== url) {
    cached = {
      url,
      // Give up quickly on an unreachable server: the job is retried later anyway.
      transporter: nodemailer.createTransport({
        url,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
      } as SMTPTransport.Options),
    };
  }
  return cached.transporter;
}
