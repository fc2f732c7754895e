import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { env } from "./env";
import { PrismaClient } from "./generated/prisma/client";
import { pgliteSession, pgSession, runMigrations } from "./migrations/run-migrations";

export type { PrismaClient };

interface Database {
  prisma: PrismaClient;
  prepared<Row>(statement: PreparedStatement, values: unknown[]): Promise<Row[]>;
  /** Embedded mode only: NOTIFYs on this channel, as PGlite delivers them in-process. */
  listen?(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/**
 * A statement on a hot path (every visitor request runs one or two): sent without Prisma and, on
 * PostgreSQL, prepared once per connection under its name, so the server plans it once, not per
 * request. Write `$1, $2…` for the values; the name must be unique to the text.
 */
export interface PreparedStatement {
  name: string;
  text: string;
}

// One client per process, kept on globalThis so `next dev` reloads never open a second PGlite
// on the same directory. The promise also makes the first callers share one migration run.
const processWide = globalThis as unknown as { parleyDatabase?: Promise<Database> };

// Give up on an unreachable database quickly: the pipeline answers 503 instead of hanging.
const CONNECT_TIMEOUT_MS = 2_000;
// The server cancels a statement after this long (as long as Prisma lets an interactive
// transaction run); a chat's queries take milliseconds.
const STATEMENT_TIMEOUT_MS = 5_000;
// The client gives up on an answer after this long: on a partitioned network the socket looks
// open but nothing ever comes back, and without it a request would hang for many minutes.
const QUERY_TIMEOUT_MS = STATEMENT_TIMEOUT_MS + 1_000;
// Prisma's own clocks for interactive transactions sit outside the pool's. Starting one is taking
// a connection (the pool gives up after the connect timeout) and sending BEGIN (the query timeout);
// running one may wait on one unanswered query. Both clocks outlast those, so an unreachable
// database always surfaces as the driver's (classified) error, never as Prisma's "Unable to start
// a transaction in the given time" (a 500). Normally neither is ever reached.
const TRANSACTION_OPTIONS = {
  maxWait: CONNECT_TIMEOUT_MS + QUERY_TIMEOUT_MS + 1_000,
  timeout: QUERY_TIMEOUT_MS + 2_000,
};
/** node-postgres's own message for a query_timeout (it has no code). */
const QUERY_READ_TIMEOUT = "Query read timeout";

/** The Prisma client, after pending migrations have been applied. */
export async function db(): Promise<PrismaClient> {
  return (await database()).prisma;
}

function database(): Promise<Database> {
  processWide.parleyDatabase ??= openDatabase().catch((error: unknown) => {
    processWide.parleyDatabase = undefined; // let the next request try again
    throw error;
  });
  return processWide.parleyDatabase;
}

/** Runs a hot-path statement (see PreparedStatement); rows come back with the driver's types. */
export async function queryPrepared<Row>(statement: PreparedStatement, values: unknown[]): Promise<Row[]> {
  return (await database()).prepared<Row>(statement, values);
}

/** Embedded mode: subscribes to NOTIFYs on `channel` (PostgreSQL callers hold a LISTEN connection instead). */
export async function listenEmbedded(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
  const open = await database();
  if (!open.listen) throw new Error("listenEmbedded: only the embedded database delivers notifications in-process");
  return open.listen(channel, callback);
}

/** Closes the client (scripts and tests); the next db() call opens a new one. */
export async function closeDatabase(): Promise<void> {
  const open = processWide.parleyDatabase;
  processWide.parleyDatabase = undefined;
  if (open) await (await open).close();
}

function openDatabase(): Promise<Database> {
  const { DATABASE_URL } = env();
  return DATABASE_URL ? openPostgres(DATABASE_URL) : openPGlite(env().DATA_DIR);
}

async function openPostgres(connectionString: string): Promise<Database> {
  const migrator = new pg.Client({ connectionString, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  await migrator.connect();
  try {
    await runMigrations(pgSession(migrator));
  } finally {
    await migrator.end();
  }
  const pool = new pg.Pool({
    connectionString,
    max: env().DATABASE_POOL_SIZE,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    query_timeout: QUERY_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection must not crash the process; the next query reports it.
  pool.on("error", () => {});
  pool.on("connect", closeAfterReadTimeout);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions: TRANSACTION_OPTIONS });
  return {
    prisma,
    prepared: async <Row>({ name, text }: PreparedStatement, values: unknown[]) =>
      (await pool.query<Row & pg.QueryResultRow>({ name, text, values })).rows,
    close: async () => {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

/**
 * After a read timeout the connection still waits for the lost answer, and every later query on
 * it would queue behind that (a transaction's ROLLBACK first, for another timeout). Close it at
 * once — end() destroys a socket with a query in flight — so the pool drops it on release instead
 * of handing it to the next request.
 */
function closeAfterReadTimeout(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const closeIfTimedOut = (error: unknown) => {
    if (error instanceof Error && error.message === QUERY_READ_TIMEOUT) client.end().catch(() => {});
  };
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const callback = args.at(-1);
    if (typeof callback === "function") {
      args[args.length - 1] = (error: unknown, ...rest: unknown[]) => {
        closeIfTimedOut(error);
        callback(error, ...rest);
      };
      return query(...args);
    }
    const result = query(...args);
    if (result instanceof Promise) result.catch(closeIfTimedOut);
    return result;
  };
}

/** `DATA_DIR=memory://` keeps the database in memory (tests). */
async function openPGlite(dataDir: string): Promise<Database> {
  let location = dataDir;
  if (!dataDir.startsWith("memory://")) {
    location = path.resolve(dataDir, "pglite");
    await mkdir(location, { recursive: true });
  }
  const pglite = await PGlite.create(location);
  await runMigrations(pgliteSession(pglite));
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  return {
    prisma,
    // One embedded connection: nothing to prepare. A Prisma transaction holds PGlite's lock, so
    // these never run inside one.
    prepared: async <Row>({ text }: PreparedStatement, values: unknown[]) => (await pglite.query<Row>(text, values)).rows,
    listen: (channel, callback) => pglite.listen(channel, callback),
    close: async () => {
      await prisma.$disconnect();
      await pglite.close();
    },
  };
}
