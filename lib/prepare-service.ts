import path from "node:path";
import { ensureGeneratedAdminToken } from "./admin/admin-token";
import { makePrivateDir, tightenTree } from "./core/private-files";
import { uploadsDir } from "./uploads/local-storage";
import { closeDatabase, db } from "./db/client";
import { MigrationsStopped } from "./db/migrations";
import { ConfigError, env, isEmbeddedDatabase, onVercel } from "./core/env";
import { log } from "./core/log";
import { clientAddressSource } from "./rate-limits/client-ip";
import { rateLimitsEnabled } from "./rate-limits/limits";
import { keySource } from "./secrets/keyring";
import { resealSecrets } from "./secrets/reseal";
import { seedDemo } from "./seed/seed-demo";
import { setupLinkIfNoOwner } from "./staff/invites";
import { recheckWebhookTargets } from "./webhooks/recheck-targets";

/**
 * Run once when the server (or `npm run db:migrate`) starts: validate the configuration, apply
 * pending migrations, and in embedded mode seed the demo and create the operator token.
 * `devServer`: started by `next dev`, whose demo may be opened at this machine's network address.
 */
export async function prepareService({ devServer = false }: { devServer?: boolean } = {}): Promise<void> {
  env(); // a bad configuration fails here, naming the variable
  await repairDataDirModes();
  await db();
  await sealPlaintextSecrets();
  await recheckWebhookTargets();
  if (isEmbeddedDatabase()) await prepareEmbedded(devServer);
  // While nobody can sign in to the inbox as an owner, every start offers a fresh setup link.
  const setupLink = await setupLinkIfNoOwner();
  if (setupLink) {
    process.stdout.write(`\nNo inbox owner yet. Create the first one (link valid 24 h, one use):\n  ${setupLink}\n\n`);
    log.info("inbox_setup_link_printed");
  }
}

/**
 * DATA_DIR (embedded mode) and a local uploads folder are the service user's alone: created 0700,
 * and what an older version (or a copy, a restore, another tool) left readable by other users is
 * tightened at every start, said once in the log with the count (docs/security.md, "The data
 * directory").
 */
export async function repairDataDirModes(): Promise<number> {
  const { DATA_DIR, S3_BUCKET } = env();
  const dataDir = isEmbeddedDatabase() && !DATA_DIR.startsWith("memory://") ? path.resolve(DATA_DIR) : null;
  const uploads = S3_BUCKET ? null : path.resolve(uploadsDir());
  let repaired = 0;
  try {
    if (dataDir) {
      await makePrivateDir(dataDir);
      repaired += await tightenTree(dataDir);
    }
    // Only when it exists (it is created with the first upload), and once if it is inside DATA_DIR.
    if (uploads && !(dataDir && uploads.startsWith(dataDir + path.sep))) repaired += await tightenTree(uploads);
  } catch (error) {
    // Files of another user, a read-only disk: the service still starts, and says what it could not do.
    log.error("data_dir_modes_unrepaired", { error });
  }
  if (repaired > 0) {
    log.notice("warn", "data_dir_modes_repaired", `${repaired} files and folders under DATA_DIR or the uploads folder were open to other users: now 0700 (folders) and 0600 (files).`, {
      count: repaired,
    });
  }
  return repaired;
}

/** Seals what an older version stored in the clear (docs/security.md); creates the key file if it is the key. */
async function sealPlaintextSecrets(): Promise<void> {
  const { sealed } = await resealSecrets({ rotate: false });
  if (sealed > 0) log.info("secrets_sealed", { count: sealed });
  if (!isEmbeddedDatabase() && keySource() === "key file") {
    log.notice(
      "warn",
      "secret_key_file",
      "SECRET_KEY is not set: secrets are sealed with the key file in DATA_DIR. Every instance sharing this database needs that same file; set SECRET_KEY instead (docs/security.md).",
      { fix: "Set SECRET_KEY (e.g. `openssl rand -base64 32`) on every instance; keep the key file's key in SECRET_KEYS_OLD and run `npm run secrets:rotate`." },
    );
  }
}

async function prepareEmbedded(devServer: boolean): Promise<void> {
  await seedDemo({ lan: devServer });
  const generated = await ensureGeneratedAdminToken();
  if (generated) {
    // Printed this once only; only its hash is kept. Set ADMIN_TOKEN to choose your own.
    process.stdout.write(
      `\nParley generated an operator token (shown once, keep it):\n  ADMIN_TOKEN=${generated}\n\n`,
    );
    log.info("admin_token_generated");
  }
}

/**
 * Said once at start when per-IP rate limits cannot work in this way of running the service
 * (decisions.md: limits off, never one bucket shared by every client). Returns whether it was said.
 */
export function reportPerIpLimits(): boolean {
  const { TRUSTED_PROXY_HOPS, VERCEL } = env();
  if (!rateLimitsEnabled()) return false;
  if (clientAddressSource({ trustedProxyHops: TRUSTED_PROXY_HOPS, onVercel: Boolean(VERCEL) }) !== "none") return false;
  log.notice(
    "warn",
    "per_ip_rate_limits_off",
    "per-IP rate limits (starts, tickets, page views) are off: `next dev` cannot tell clients apart. " +
      "Expected in development; in production use `npm start` or set TRUSTED_PROXY_HOPS.",
    {
      reason:
        "The client's address cannot be known: Next.js serves requests directly (next start / next dev) and no trusted proxy is configured.",
      fix: "Run `npm start`, or set TRUSTED_PROXY_HOPS to the number of proxies in front that append to X-Forwarded-For.",
      limits: ["starts", "tickets", "page_views"],
    },
  );
  return true;
}

/** The server's start: a bad configuration stops it; an unreachable database does not. */
export async function prepareServerStart(): Promise<void> {
  try {
    const { NODE_ENV } = env();
    reportPerIpLimits();
    await prepareService({ devServer: NODE_ENV === "development" });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    if (error instanceof MigrationsStopped) {
      log.info("startup_stopped", { reason: error.message }); // nothing more starts: the front stops
      return;
    }
    // The database may come up later: requests answer 503 meanwhile and retry the connection.
    log.error("startup_database_unavailable", { error });
  }
  startNotificationsInBackground();
  await startInboundSmtp();
}

let inboundSmtp: { close(): Promise<void> } | null = null;

/**
 * The SMTP listener for replies by email (lib/email/inbound/smtp-listener.ts), with
 * INBOUND_SMTP_PORT, in the long-lived server only: on Vercel mail comes by the provider route.
 * A port that cannot be opened is logged; the rest of the service still starts.
 */
async function startInboundSmtp(): Promise<void> {
  const port = env().INBOUND_SMTP_PORT;
  if (!port || onVercel() || inboundSmtp) return;
  try {
    const { startInboundSmtpListener } = await import("./email/inbound/smtp-listener");
    inboundSmtp = await startInboundSmtpListener({ port });
    log.info("inbound_smtp_listening", { port });
  } catch (error) {
    log.error("inbound_smtp_unavailable", { port, error });
  }
}

const RETRY_WORKER_START_MS = 30_000;
let backgroundWorker: { stop(): Promise<void> } | null = null;
let backgroundRetry: NodeJS.Timeout | undefined;
let backgroundStopped = false;

/**
 * Emails and webhooks (lib/notifications/worker.ts): started after the server is ready, never
 * awaited, so startup does not wait on it; retried while the database is unreachable. Not part
 * of `next build`.
 */
function startNotificationsInBackground(): void {
  // On Vercel a function may be frozen between requests, holding what its loops had claimed:
  // delivery there is the rounds after requests and the cron's (lib/notifications/round.ts).
  if (env().NOTIFICATION_WORKER === "off" || onVercel()) return;
  backgroundStopped = false;
  const start = () =>
    import("./notifications/worker")
      .then(({ startNotificationWorker }) => startNotificationWorker())
      .then(async (worker) => {
        if (backgroundStopped) return worker.stop();
        backgroundWorker = worker;
        log.info("notification_worker_started");
      })
      .catch((error: unknown) => {
        log.error("notification_worker_unavailable", { error });
        if (!backgroundStopped) backgroundRetry = setTimeout(start, RETRY_WORKER_START_MS).unref();
      });
  backgroundRetry = setTimeout(start, 0);
}

/** Stops the worker the server start began (tests; a graceful shutdown). */
export async function stopNotificationsInBackground(): Promise<void> {
  backgroundStopped = true;
  clearTimeout(backgroundRetry);
  const worker = backgroundWorker;
  backgroundWorker = null;
  await worker?.stop();
}

/** Whether the server start's worker is running (tests). */
export const notificationsRunning = () => backgroundWorker !== null;

/**
 * Ends what the server start opened, for a graceful shutdown (`npm start`, after the requests in
 * flight have finished): the notification worker, the LISTEN connections, then the database
 * (PGlite writes its last changes to DATA_DIR as it closes).
 */
export async function closeServerResources(): Promise<void> {
  await stopNotificationsInBackground();
  await inboundSmtp?.close();
  inboundSmtp = null;
  const [{ stopListening }, { stopInboxListening }] = await Promise.all([import("./realtime/message-signals"), import("./realtime/inbox-signals")]);
  await Promise.all([stopListening(), stopInboxListening()]);
  await closeDatabase();
}
