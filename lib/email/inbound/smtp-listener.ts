import { readFileSync } from "node:fs";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import { env } from "../../core/env";
import { log } from "../../core/log";
import { MAX_INBOUND_BYTES, receiveInboundEmail } from "./receive-email";

// The built-in SMTP listener for replies (INBOUND_SMTP_PORT; the MX of MAIL_REPLY_DOMAIN points
// here): no AUTH, only recipients of the reply domain, the 25 MB cap announced (SIZE) and held,
// STARTTLS when a certificate is configured. A message past the cap is read to its end and
// dropped as it arrives (nothing past the cap is kept), then refused with 552; at most
// `maxClients` connections at once (the next is answered 421 and closed), and a connection silent
// for `idleTimeoutMs` is closed (docs/security.md "The mail door"). Every accepted DATA goes through the same pipeline as
// the provider route; a judged email is answered 250 whatever became of it (a refusal is logged
// and counted, never bounced: bounces to forged senders are backscatter); a failure to process it
// is a temporary 451, so the sending server retries.

export interface InboundSmtpListener {
  port: number;
  close(): Promise<void>;
}

const smtpError = (message: string, responseCode: number) => Object.assign(new Error(message), { responseCode });

export interface InboundSmtpOptions {
  port: number;
  host?: string;
  /** Connections held at once; the next is answered 421 and closed. */
  maxClients?: number;
  /** A connection that sends nothing for this long is closed. */
  idleTimeoutMs?: number;
}

export const INBOUND_SMTP_MAX_CLIENTS = 100;
export const INBOUND_SMTP_IDLE_TIMEOUT_MS = 60_000;

export async function startInboundSmtpListener(options: InboundSmtpOptions): Promise<InboundSmtpListener> {
  const { MAIL_REPLY_DOMAIN, INBOUND_SMTP_TLS_CERT, INBOUND_SMTP_TLS_KEY } = env();
  const domain = MAIL_REPLY_DOMAIN;
  if (!domain) throw new Error("MAIL_REPLY_DOMAIN is required for the inbound SMTP listener.");
  const tls = INBOUND_SMTP_TLS_CERT && INBOUND_SMTP_TLS_KEY ? { cert: readFileSync(INBOUND_SMTP_TLS_CERT), key: readFileSync(INBOUND_SMTP_TLS_KEY) } : null;
  const server = new SMTPServer({
    name: domain,
    banner: "Parley replies",
    size: MAX_INBOUND_BYTES,
    maxClients: options.maxClients ?? INBOUND_SMTP_MAX_CLIENTS,
    socketTimeout: options.idleTimeoutMs ?? INBOUND_SMTP_IDLE_TIMEOUT_MS,
    authOptional: true,
    disabledCommands: tls ? ["AUTH"] : ["AUTH", "STARTTLS"],
    ...(tls ?? {}),
    logger: false,
    onRcptTo(address, _session, callback) {
      const at = address.address.lastIndexOf("@");
      if (at === -1 || address.address.slice(at + 1).toLowerCase() !== domain) {
        return callback(smtpError("Relay access denied: only replies to this service are accepted here.", 550));
      }
      callback();
    },
    onData(stream, session, callback) {
      receive(stream, session).then(
        () => callback(),
        (error: unknown) => callback(error as Error),
      );
    },
  });
  server.on("error", (error) => log.warn("inbound_smtp_error", { error }));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.server.address();
  return {
    port: typeof address === "object" && address ? address.port : options.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function receive(stream: SMTPServerDataStream, session: SMTPServerSession): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) {
    if (!stream.sizeExceeded) chunks.push(chunk as Buffer);
    else chunks.length = 0; // past the cap: drained and dropped, the 552 comes at the end of DATA
  }
  if (stream.sizeExceeded) throw smtpError(`Message exceeds the ${MAX_INBOUND_BYTES} bytes this service accepts.`, 552);
  const mailFrom = session.envelope.mailFrom;
  try {
    await receiveInboundEmail(Buffer.concat(chunks), {
      via: "smtp",
      mailFrom: mailFrom ? mailFrom.address : null,
      rcptTo: session.envelope.rcptTo.map((recipient) => recipient.address),
      ip: session.remoteAddress,
      helo: session.hostNameAppearsAs,
    });
  } catch (error) {
    log.error("inbound_smtp_failed", { error });
    throw smtpError("Temporary failure, please try again later.", 451);
  }
}
