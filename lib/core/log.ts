import { env, type Env } from "./env";

// One JSON line per event on stderr. Callers pass facts, never tokens or request bodies; as a
// second line of defence every line is scrubbed of anything shaped like a credential before it
// is written (an error message can quote what a caller never meant to log). The one exception:
// under `npm run dev` an event that comes with a sentence (log.notice) is that sentence, on one
// plain line, for the person at the terminal; nobody collects that log.

type Level = "debug" | "info" | "warn" | "error";
const rank: Record<Level | "silent", number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

function configuredEnv(): Env | null {
  try {
    return env();
  } catch {
    return null; // a broken configuration must still be reported
  }
}

const REDACTED = "[redacted]";
const SHAPES: [RegExp, string][] = [
  [/vt_[A-Za-z0-9_-]{16,}/g, `vt_${REDACTED}`], // visitor tokens
  [/(Bearer\s+)[^\s"\\,]+/gi, `$1${REDACTED}`], // any bearer credential
  [/((?:^|[?&"\s])(?:x-amz-)?signature=)[^&\s"\\]+/gi, `$1${REDACTED}`], // upload URLs (ours and S3's)
  [/(postgres(?:ql)?:\/\/[^:@/\s"]+:)[^@\s"]+@/gi, `$1${REDACTED}@`], // a password in a database URL
  [/(smtps?:\/\/[^:@/\s"]+:)[^@\s"]+@/gi, `$1${REDACTED}@`], // a password in an SMTP URL
  [/whsec_[A-Za-z0-9+/=]{16,}/g, `whsec_${REDACTED}`], // webhook signing secrets
  [/ids_[A-Za-z0-9_-]{16,}/g, `ids_${REDACTED}`], // identity secrets
];
const SECRET_SETTINGS = ["ADMIN_TOKEN", "UPSTASH_REDIS_REST_TOKEN", "KV_REST_API_TOKEN", "S3_SECRET_ACCESS_KEY", "UPLOAD_SIGNING_SECRET", "SMTP_URL", "SECRET_KEY", "INBOUND_EMAIL_SECRET"] as const;

/** The line with credentials replaced: configured secrets by value, tokens and signatures by shape. */
export function redact(line: string, config: Env | null = configuredEnv()): string {
  let scrubbed = line;
  for (const secret of [...SECRET_SETTINGS.map((name) => config?.[name]), ...(config?.SECRET_KEYS_OLD ?? [])]) {
    if (secret && secret.length >= 8) scrubbed = scrubbed.replaceAll(JSON.stringify(secret).slice(1, -1), REDACTED);
  }
  for (const [shape, replacement] of SHAPES) scrubbed = scrubbed.replace(shape, replacement);
  return scrubbed;
}

function write(level: Level, event: string, fields: Record<string, unknown> = {}, sentence?: string): void {
  const config = configuredEnv();
  if (rank[level] < rank[config?.LOG_LEVEL ?? "info"]) return;
  if (sentence !== undefined && config?.NODE_ENV === "development") {
    process.stderr.write(plainLine(sentence, config));
    return;
  }
  const line = { time: new Date().toISOString(), level, event, ...fields };
  process.stderr.write(`${redact(JSON.stringify(line, errorFields), config)}\n`);
}

function errorFields(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
  return value;
}

/** What `npm run dev` prints for a notice: "Parley: " and the sentence, on one line. */
export function plainLine(sentence: string, config: Env | null = configuredEnv()): string {
  return `${redact(`Parley: ${sentence.replace(/\s+/g, " ").trim()}`, config)}\n`;
}

export const log = {
  debug: (event: string, fields?: Record<string, unknown>) => write("debug", event, fields),
  info: (event: string, fields?: Record<string, unknown>) => write("info", event, fields),
  warn: (event: string, fields?: Record<string, unknown>) => write("warn", event, fields),
  error: (event: string, fields?: Record<string, unknown>) => write("error", event, fields),
  /**
   * A fact about how the service runs, said to whoever started it: in development one plain line
   * (the sentence), elsewhere the JSON event with its fields, at `level` either way.
   */
  notice: (level: Level, event: string, sentence: string, fields?: Record<string, unknown>) => write(level, event, fields, sentence),
};

/** Logs an error event with what went wrong. */
export type ErrorLog = (event: string, error: unknown) => void;

/**
 * An error log for loops that fail every time they look while the database is down (the
 * notification worker's): one line per event name per `intervalMs`, with how many it held back.
 */
export function throttledErrorLog(intervalMs = 30_000): ErrorLog {
  const last = new Map<string, { at: number; suppressed: number }>();
  return (event, error) => {
    const now = Date.now();
    const seen = last.get(event);
    if (seen && now - seen.at < intervalMs) {
      seen.suppressed++;
      return;
    }
    log.error(event, { error, suppressed_since_last: seen?.suppressed ?? 0 });
    last.set(event, { at: now, suppressed: 0 });
  };
}
