import { startInboundSmtpListener } from "../../lib/email/inbound/smtp-listener";

// The inbound SMTP listener alone in a process of its own (tests/integration/inbound-smtp-limits.test.ts
// watches its resident memory): prints `{"port":…}` once listening, stops on SIGTERM.

const numberFrom = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);

const listener = await startInboundSmtpListener({
  port: 0,
  host: "127.0.0.1",
  maxClients: numberFrom("LISTENER_MAX_CLIENTS"),
  idleTimeoutMs: numberFrom("LISTENER_IDLE_TIMEOUT_MS"),
});
process.stdout.write(`${JSON.stringify({ port: listener.port })}\n`);
process.once("SIGTERM", () => void listener.close().finally(() => process.exit(0)));
