// Classifies database failures by code (never by Prisma message text), walking the cause chain:
// Prisma wraps driver-adapter errors, which wrap the driver's own.

const UNREACHABLE_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
const UNREACHABLE_CODES = new Set([
  // Prisma: can't reach server, timed out, server closed the connection, pool timeout
  "P1001",
  "P1002",
  "P1008",
  "P1017",
  "P2024",
  // Node sockets
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
  // PostgreSQL: shutting down, starting up, too many connections
  "57P01",
  "57P02",
  "57P03",
  "53300",
]);
// node-postgres raises these without a code; they are fixed strings in its source, not user data:
// no connection in time, connection lost (a read timeout closes the connection, lib/db/client.ts), a
// query on a connection already closed, and a handshake that did not finish in time.
const PG_POOL_MESSAGES = [
  "timeout exceeded when trying to connect",
  "Connection terminated",
  "Client was closed and is not queryable",
  "timeout expired", // a connection's own handshake timeout (connectionTimeoutMillis)
];

type ErrorLike = { code?: unknown; kind?: unknown; cause?: unknown; message?: unknown; name?: unknown; meta?: unknown };

/**
 * The error and what it wraps: `cause`, and for Prisma errors `meta.driverAdapterError` — where a
 * raw query ($queryRaw, P2010 "Raw query failed") keeps the adapter's kind (DatabaseNotReachable,
 * ConnectionClosed), which no `cause` leads to.
 */
function* causeChain(error: unknown): Generator<ErrorLike> {
  const pending: unknown[] = [error];
  for (let seen = 0; seen < 16 && pending.length > 0; seen++) {
    const current = pending.shift();
    if (!current || typeof current !== "object") continue;
    const link = current as ErrorLike;
    yield link;
    pending.push(link.cause, (link.meta as { driverAdapterError?: unknown } | undefined)?.driverAdapterError);
  }
}

export function isDatabaseUnavailable(error: unknown): boolean {
  for (const link of causeChain(error)) {
    if (typeof link.kind === "string" && UNREACHABLE_KINDS.has(link.kind)) return true;
    if (typeof link.code === "string" && (UNREACHABLE_CODES.has(link.code) || link.code.startsWith("08"))) return true;
    if (typeof link.message === "string" && PG_POOL_MESSAGES.some((text) => (link.message as string).startsWith(text))) {
      return true;
    }
  }
  return false;
}

/** A unique-constraint violation (Prisma P2002, or PostgreSQL 23505 from raw SQL). */
export function isUniqueViolation(error: unknown): boolean {
  for (const link of causeChain(error)) {
    if (link.code === "P2002" || link.code === "23505" || link.kind === "UniqueConstraintViolation") return true;
  }
  return false;
}
