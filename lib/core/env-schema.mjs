// @ts-check
import { z } from "zod";

// The service's configuration: every variable it reads, its type, default and rules, in plain
// JavaScript so that each reader of the environment parses it the same way — the app (lib/core/env.ts),
// next.config.mjs and `npm start` (scripts/start.mjs), which Node loads without a compiler. A bad
// value stops each of them with the same message, naming the variable.

/** @param {unknown} value */
const emptyAsUndefined = (value) => (value === "" ? undefined : value);
const optionalString = z.preprocess(emptyAsUndefined, z.string().optional());
/** @param {number} fallback */
const count = (fallback) => z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(1_000_000).default(fallback));
/** @param {boolean} fallback */
const flag = (fallback) =>
  z
    .preprocess(emptyAsUndefined, z.enum(["true", "false", "1", "0"]).default(fallback ? "true" : "false"))
    .transform((value) => value === "true" || value === "1");
const httpUrl = z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/ }).optional());
// A DNS name as a webhook URL's host holds it after the WHATWG parser: lower case, no trailing
// dot; a last label of digits only would be read as an IPv4 address, so it is not a name.
const hostNameEntry = /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.)*(?![0-9]+$)[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/;
const ipv4 = z.ipv4();
const ipv6 = z.ipv6();
/**
 * WEBHOOK_ALLOWED_TARGETS: comma-separated host names (exact) and CIDRs (an address alone is a
 * /32 or /128), which webhooks may reach even when internal, and over http when the URL's host is
 * one of them (lib/webhooks/target-guard.ts).
 */
const allowedTargets = z.preprocess(emptyAsUndefined, z.string().optional()).transform((value, ctx) => {
  /** @type {{ names: string[], ranges: { network: string, prefix: number, family: "ipv4" | "ipv6" }[] }} */
  const allowed = { names: [], ranges: [] };
  for (const raw of value === undefined ? [] : value.split(",")) {
    const entry = raw.trim().toLowerCase();
    const [network = "", prefix, ...rest] = entry.split("/");
    const family = ipv4.safeParse(network).success ? "ipv4" : ipv6.safeParse(network).success ? "ipv6" : null;
    const bits = family === "ipv4" ? 32 : 128;
    if (family && rest.length === 0 && (prefix === undefined || (/^[0-9]{1,3}$/.test(prefix) && Number(prefix) <= bits))) {
      allowed.ranges.push({ network, prefix: prefix === undefined ? bits : Number(prefix), family });
    } else if (hostNameEntry.test(entry)) {
      allowed.names.push(entry);
    } else {
      ctx.addIssue({ code: "custom", message: `has ${JSON.stringify(raw.trim())}, which is not a host name or a CIDR (e.g. hooks.internal, 10.0.0.0/8, fd00::/8)` });
    }
  }
  return allowed;
});
/**
 * DNS_SERVERS: comma-separated `address[:port]` (IPv6 with a port as `[address]:port`), the form
 * node:dns `setServers` takes; unset, the system's resolver.
 */
const dnsServers = z.preprocess(emptyAsUndefined, z.string().optional()).transform((value, ctx) => {
  if (value === undefined) return undefined;
  /** @type {string[]} */
  const servers = [];
  for (const raw of value.split(",")) {
    const entry = raw.trim();
    const match = /^\[([^\]]+)\](?::([0-9]{1,5}))?$/.exec(entry) ?? /^([^:]+)(?::([0-9]{1,5}))?$/.exec(entry);
    const [address, port] = match ? [match[1] ?? "", match[2]] : [entry, undefined];
    const addressOk = match ? ipv4.safeParse(address).success || (entry.startsWith("[") && ipv6.safeParse(address).success) : ipv6.safeParse(entry).success;
    if (addressOk && (port === undefined || (Number(port) >= 1 && Number(port) <= 65535))) servers.push(entry);
    else ctx.addIssue({ code: "custom", message: `has ${JSON.stringify(entry)}, which is not an IP address with an optional port (e.g. 127.0.0.53, 10.0.0.2:5353, [fd00::53]:53)` });
  }
  return servers;
});
const postgresUrl = z.preprocess(
  emptyAsUndefined,
  z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// or postgresql:// URL").optional(),
);

export const envSchema = z
  .object({
    NODE_ENV: z.preprocess(emptyAsUndefined, z.enum(["development", "production", "test"]).default("development")),
    DATABASE_URL: postgresUrl,
    /** A direct (session) connection for LISTEN and migrations' advisory lock, when DATABASE_URL goes through a transaction pooler. */
    DIRECT_DATABASE_URL: postgresUrl,
    DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default(".data")),
    /** With DATA_DIR=memory://: a migrated PGlite dump (`dumpDataDir`) to start from (the test suite makes one per run). */
    EMBEDDED_SEED_FILE: optionalString,
    ADMIN_TOKEN: z.preprocess(emptyAsUndefined, z.string().min(16, "must be at least 16 characters").optional()),
    PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(65535).default(3000)),
    /** The interface `npm start` listens on (default: all), as for `next start`. */
    HOSTNAME: optionalString,
    PUBLIC_URL: z.preprocess(emptyAsUndefined, z.url({ protocol: /^https?$/ }).optional()),
    DATABASE_POOL_SIZE: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(200).default(10)),
    /** Memory for the widget's article suggestions cache, per instance (lib/articles/suggestion-cache.ts); 0 turns it off. */
    SUGGESTION_CACHE_KIB: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(262_144).default(2048)),
    LOG_LEVEL: z.preprocess(emptyAsUndefined, z.enum(["debug", "info", "warn", "error", "silent"]).default("info")),
    VERCEL: optionalString,
    /** `npm start` cuts off a request whose headers or body have not all arrived after this long. */
    REQUEST_TIMEOUT_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1_000).max(600_000).default(30_000)),
    /** On SIGTERM/SIGINT `npm start` waits this long for requests in flight before it stops anyway. */
    SHUTDOWN_TIMEOUT_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(100).max(120_000).default(10_000)),
    /** Webhook delivery logs, outbox emails and page views older than this many days are pruned daily (docs/security.md). */
    LOG_RETENTION_DAYS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(3650).default(90)),
    /** Audit events older than this many days are pruned daily; 0 keeps them forever (docs/security.md). */
    AUDIT_RETENTION_DAYS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(36500).default(365)),

    // Rate limits (sliding windows). RATE_LIMITS=off turns every one of them off.
    RATE_LIMITS: z.preprocess(emptyAsUndefined, z.enum(["on", "off"]).default("on")),
    RATE_LIMIT_STARTS_PER_MINUTE: count(10),
    RATE_LIMIT_TICKETS_PER_MINUTE: count(10),
    RATE_LIMIT_PAGE_VIEWS_PER_MINUTE: count(60),
    RATE_LIMIT_VISITOR_PER_MINUTE: count(120),
    RATE_LIMIT_RENEW_PER_HOUR: count(10),
    RATE_LIMIT_SEARCH_PER_MINUTE: count(60),
    RATE_LIMIT_ARTICLES_PER_MINUTE: count(120),
    /** How many proxies in front of the service append to X-Forwarded-For (and may be trusted). */
    TRUSTED_PROXY_HOPS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(10).default(0)),
    UPSTASH_REDIS_REST_URL: httpUrl,
    UPSTASH_REDIS_REST_TOKEN: optionalString,
    // The names Vercel's Upstash integration sets; used when the UPSTASH_ ones are absent.
    KV_REST_API_URL: httpUrl,
    KV_REST_API_TOKEN: optionalString,

    // Secrets kept for later use are sealed with this key (docs/security.md, lib/secrets/). Without it,
    // a key file under DATA_DIR (created on first start, mode 0600) holds the key.
    SECRET_KEY: z.preprocess(emptyAsUndefined, z.string().min(32, "must be at least 32 characters (e.g. `openssl rand -base64 32`)").optional()),
    /** Keys still accepted for opening (comma-separated), while `npm run secrets:rotate` re-seals under SECRET_KEY. */
    SECRET_KEYS_OLD: z
      .preprocess(emptyAsUndefined, z.string().optional())
      .transform((value) => (value ?? "").split(",").map((key) => key.trim()).filter(Boolean))
      .pipe(z.array(z.string().min(32, "must hold keys of at least 32 characters each"))),

    // Ticket files. Without S3_BUCKET they go to the service's own upload route, stored on disk.
    UPLOAD_SIGNING_SECRET: z.preprocess(emptyAsUndefined, z.string().min(32, "must be at least 32 characters").optional()),
    UPLOADS_DIR: optionalString,
    S3_BUCKET: optionalString,
    S3_REGION: z.preprocess(emptyAsUndefined, z.string().default("us-east-1")),
    S3_ENDPOINT: httpUrl,
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    S3_FORCE_PATH_STYLE: flag(false),

    // Email (docs/notifications.md). Without SMTP_URL nothing is sent: emails stay in the outbox.
    SMTP_URL: z.preprocess(
      emptyAsUndefined,
      z.string().regex(/^smtps?:\/\/[^\s]+$/, "must be an smtp:// or smtps:// URL").optional(),
    ),
    MAIL_FROM: z.preprocess(emptyAsUndefined, z.string().max(300).regex(/@/, "must hold an email address").optional()),
    // Automatic emails (acknowledgements, follow-ups) to one address per site; beyond, `suppressed`.
    EMAIL_RECIPIENT_HOURLY_CAP: count(3),
    EMAIL_RECIPIENT_DAILY_CAP: count(10),
    // Webhooks may reach http, loopback and private addresses (your own network, tests).
    WEBHOOK_ALLOW_PRIVATE_TARGETS: z.preprocess(emptyAsUndefined, z.enum(["on", "off"]).default("off")),
    // Webhooks may reach these host names and CIDRs even when internal (still https only).
    WEBHOOK_ALLOWED_TARGETS: allowedTargets,
    // Whether this process runs the notification worker (emails, webhooks); off for web-only instances.
    NOTIFICATION_WORKER: z.preprocess(emptyAsUndefined, z.enum(["on", "off"]).default("on")),
    // Replies by email (docs/notifications.md, "Replies by email"): answerable emails carry
    // Reply-To r+<token>@MAIL_REPLY_DOMAIN; mail to that domain arrives by the SMTP listener or the route.
    MAIL_REPLY_DOMAIN: z.preprocess(
      emptyAsUndefined,
      z.string().toLowerCase().regex(hostNameEntry, "must be a domain name (e.g. reply.acme.example)").optional(),
    ),
    /** The bearer a provider sends to POST /api/v1/inbound/email; without it that route refuses every request. */
    INBOUND_EMAIL_SECRET: z.preprocess(emptyAsUndefined, z.string().min(16, "must be at least 16 characters").optional()),
    /** The port of the built-in SMTP listener for replies (npm start only; off when unset). */
    INBOUND_SMTP_PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(65535).optional()),
    /** Where the inbound mail checks (SPF, DKIM, DMARC) ask DNS: `address[:port]`, comma-separated; unset, the system's resolver. */
    DNS_SERVERS: dnsServers,
    /** PEM files of the listener's certificate and key: with both, it offers STARTTLS. */
    INBOUND_SMTP_TLS_CERT: optionalString,
    INBOUND_SMTP_TLS_KEY: optionalString,
    // An inbox tab without input for this many minutes makes its member `away` (docs/routing.md); 0: never.
    AWAY_AFTER_IDLE_MINUTES: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(1440).default(10)),
    // The bearer Vercel Cron sends to GET /api/v1/cron/dispatch; without it that route refuses every request.
    CRON_SECRET: z.preprocess(emptyAsUndefined, z.string().min(16, "must be at least 16 characters").optional()),
    // Web Push (lib/push): the VAPID key pair (base64url, as `npx web-push generate-vapid-keys` prints
    // it); unset, the service makes one once and keeps the private key sealed. The subject is who
    // push services may contact: a mailto: or https: URL (default: PUBLIC_URL when https).
    VAPID_PUBLIC_KEY: optionalString,
    VAPID_PRIVATE_KEY: optionalString,
    VAPID_SUBJECT: z.preprocess(emptyAsUndefined, z.string().regex(/^(mailto:|https:\/\/)/, "must be a mailto: or https: URL").optional()),
    // Single sign-on by OpenID Connect (lib/staff/sso): the provider's issuer URL and this service's client.
    OIDC_ISSUER: httpUrl,
    OIDC_CLIENT_ID: optionalString,
    OIDC_CLIENT_SECRET: optionalString,
    // `agent`: a verified email the provider vouches for, unknown here, becomes an agent; unset: members only.
    OIDC_AUTO_PROVISION: z.preprocess(emptyAsUndefined, z.enum(["agent"]).optional()),
    // The owner's model (docs/answers.md, "The model"): an OpenAI-compatible API (Ollama, vLLM, LiteLLM,
    // OpenAI) that phrases the bot's answers and suggestions from Parley's own passages. Unset: none.
    AI_BASE_URL: httpUrl,
    AI_API_KEY: optionalString,
    AI_MODEL: optionalString,
    AI_TIMEOUT_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(100).max(120_000).default(10_000)),
    // Calls per site and UTC day; past it the deterministic answer.
    AI_DAILY_CALLS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(0).max(1_000_000).default(1_000)),
    // `off` for SSO-only teams: the inbox refuses passwords (setup and invite links still set one).
    PASSWORD_SIGN_IN: z.preprocess(emptyAsUndefined, z.enum(["on", "off"]).default("on")),
  })
  .superRefine((env, ctx) => {
    if (env.VERCEL && !env.DATABASE_URL) {
      ctx.addIssue({
        code: "custom",
        path: ["DATABASE_URL"],
        message: "is required on Vercel: the embedded database would live in a function's temporary disk and vanish",
      });
    }
    if (env.VERCEL && !env.S3_BUCKET) {
      ctx.addIssue({
        code: "custom",
        path: ["S3_BUCKET"],
        message: "is required on Vercel: ticket files on a function's temporary disk would vanish (configure S3-compatible storage)",
      });
    }
    if (env.VERCEL && !env.SECRET_KEY) {
      ctx.addIssue({
        code: "custom",
        path: ["SECRET_KEY"],
        message: "is required on Vercel: a key file on a function's temporary disk would vanish, and with it every sealed secret",
      });
    }
    if (env.DATABASE_URL && !env.ADMIN_TOKEN) {
      ctx.addIssue({
        code: "custom",
        path: ["ADMIN_TOKEN"],
        message: "is required when DATABASE_URL is set (embedded mode generates one)",
      });
    }
    const oidc = /** @type {const} */ (["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"]);
    if (oidc.some((name) => env[name]) && !oidc.every((name) => env[name])) {
      for (const name of oidc.filter((name) => !env[name])) {
        ctx.addIssue({ code: "custom", path: [name], message: "is required with the other OIDC_* variables" });
      }
    }
    if (env.OIDC_ISSUER && !isHttpsOrLoopback(env.OIDC_ISSUER)) {
      ctx.addIssue({ code: "custom", path: ["OIDC_ISSUER"], message: "must be an https URL (http only for a provider on this machine)" });
    }
    if (env.AI_BASE_URL && !env.AI_MODEL) ctx.addIssue({ code: "custom", path: ["AI_MODEL"], message: "is required with AI_BASE_URL (the model's name, e.g. llama3.2)" });
    if (env.PASSWORD_SIGN_IN === "off" && !env.OIDC_ISSUER) {
      ctx.addIssue({ code: "custom", path: ["PASSWORD_SIGN_IN"], message: "can be off only with single sign-on configured (OIDC_ISSUER)" });
    }
    if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY)) {
      ctx.addIssue({ code: "custom", path: [env.VAPID_PUBLIC_KEY ? "VAPID_PRIVATE_KEY" : "VAPID_PUBLIC_KEY"], message: "must be set together with the other VAPID key" });
    }
    if (env.SMTP_URL && !env.MAIL_FROM) {
      ctx.addIssue({ code: "custom", path: ["MAIL_FROM"], message: "is required when SMTP_URL is set" });
    }
    if (env.INBOUND_SMTP_PORT && !env.MAIL_REPLY_DOMAIN) {
      ctx.addIssue({ code: "custom", path: ["MAIL_REPLY_DOMAIN"], message: "is required when INBOUND_SMTP_PORT is set (the listener accepts only its recipients)" });
    }
    if (Boolean(env.INBOUND_SMTP_TLS_CERT) !== Boolean(env.INBOUND_SMTP_TLS_KEY)) {
      ctx.addIssue({ code: "custom", path: [env.INBOUND_SMTP_TLS_CERT ? "INBOUND_SMTP_TLS_KEY" : "INBOUND_SMTP_TLS_CERT"], message: "must be set together with the other INBOUND_SMTP_TLS_ variable" });
    }
    /** @type {ReadonlyArray<readonly ["UPSTASH_REDIS_REST_URL" | "KV_REST_API_URL" | "S3_ACCESS_KEY_ID", "UPSTASH_REDIS_REST_TOKEN" | "KV_REST_API_TOKEN" | "S3_SECRET_ACCESS_KEY"]>} */
    const pairs = [
      ["UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN"],
      ["KV_REST_API_URL", "KV_REST_API_TOKEN"],
      ["S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"],
    ];
    for (const [first, second] of pairs) {
      if (Boolean(env[first]) !== Boolean(env[second])) {
        ctx.addIssue({ code: "custom", path: [env[first] ? second : first], message: `must be set together with ${env[first] ? first : second}` });
      }
    }
  });

/** @param {string} url */
function isHttpsOrLoopback(url) {
  const { protocol, hostname } = new URL(url);
  return protocol === "https:" || ["localhost", "127.0.0.1", "[::1]"].includes(hostname);
}

/** The names of every variable the service reads (tests check nobody else reads them). */
export const ENV_NAMES = Object.freeze(Object.keys(envSchema.shape));

export class ConfigError extends Error {}

/**
 * The configuration in `source`, or a ConfigError naming every bad variable.
 * @param {Record<string, string | undefined>} source
 * @returns {z.infer<typeof envSchema>}
 */
export function parseEnv(source) {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join(".")} ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join("; ")}`);
  }
  return result.data;
}

/**
 * What a start does with a bad configuration (the server, `npm start`, `next build`): say why,
 * in one line naming the variables, and stop.
 * @param {Record<string, string | undefined>} source
 * @returns {z.infer<typeof envSchema>}
 */
export function parseEnvOrExit(source) {
  try {
    return parseEnv(source);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}

/**
 * The service's own public origin: PUBLIC_URL's, or localhost on PORT.
 * @param {Pick<z.infer<typeof envSchema>, "PUBLIC_URL" | "PORT">} env
 */
export function publicOrigin({ PUBLIC_URL, PORT }) {
  return PUBLIC_URL ? new URL(PUBLIC_URL).origin : `http://localhost:${PORT}`;
}
