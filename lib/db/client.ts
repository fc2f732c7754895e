import { readFile } from "node:fs/promises";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { queryWatch, type QueryWatch } from "./query-watch";
import { directDatabaseUrl, env, onVercel } from "../core/env";
import { log } from "../core/log";
import { makePrivateDir, tightenTree } from "../core/private-files";
import { processSingleton } from "../core/process-registry.mjs";
import { PrismaClient } from "../generated/prisma/client";
import { pgliteSession, pgSession, runMigrations } from "./migrations";
import { namedStatements, type NamedStatements } from "./pglite-statements";
import { scrubTables } from "./scrub-erased";

export type { PrismaClient };

interface Database {
  prisma: PrismaClient;
  prepared<Row>(statement: PreparedStatement, values: unknown[]): Promise<Row[]>;
  sql: SqlExecutor;
  /** Embedded mode only: NOTIFYs on this channel, as PGlite delivers them in-process. */
  listen?(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
  /** Embedded mode only: see scrubErasedRows. */
  scrub?(tables: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

/**
 * Plain SQL for the job queue (lib/jobs): pg-boss's `executeSql` shape, and transactions that
 * span our rows and the queue's, which a Prisma transaction cannot hand to another library.
 * A statement without values may hold several commands.
 */
export interface SqlQuery {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: any[]; rowCount: number }>;
}
export interface SqlExecutor extends SqlQuery {
  transaction<T>(work: (sql: SqlQuery) => Promise<T>): Promise<T>;
}

/**
 * A statement on a hot path (every visitor request runs one or two): sent without Prisma and
 * prepared once per connection under its name (on PGlite too: lib/db/pglite-statements.ts), so the
 * database plans it once, not per request. Write `$1, $2…` for the values; the name must be
 * unique to the text.
 */
export interface PreparedStatement {
  name: string;
  text: string;
}

// One client per process (lib/core/process-registry.mjs), so `next dev` reloads never open a second
// PGlite on the same directory. The promise also makes the first callers share one migration run.
const processWide = processSingleton("database", (): { opening?: Promise<Database>; open?: Database } => ({}));

// Give up on an unreachable database quickly: the pipeline answers 503 instead of hanging. A new
// connection's handshake gets HANDSHAKE_TIMEOUT_MS (a partition stalls it: 503 within 2 s); a
// request waiting for a free pooled connection under load may wait CONNECT_TIMEOUT_MS in all,
// unless the liveness probe (below) finds the server gone first.
const CONNECT_TIMEOUT_MS = 2_000;
const HANDSHAKE_TIMEOUT_MS = 1_500;
// The server cancels a statement after this long (as long as Prisma lets an interactive
// transaction run); a chat's queries take milliseconds.
const STATEMENT_TIMEOUT_MS = 5_000;
// No JIT compilation for the service's sessions: its statements take milliseconds, and a plan whose
// estimate crosses jit_above_cost spends more compiling than running: an agent's unread count (the
// visibility rule's subplans over a whole table) 16 ms of 22, a rare word's search at 10 M messages
// 1.0 s of 1.1 (docs/performance.md).
// Options in DATABASE_URL (`?options=...`) take precedence over this default.
const SESSION_OPTIONS = "-c jit=off";
// The client gives up on an answer after this long, closing the connection: on a partitioned
// network the socket looks open but nothing ever comes back, and without it a request would hang
// for many minutes.
const QUERY_TIMEOUT_MS = STATEMENT_TIMEOUT_MS + 1_000;
// ...but a partition must answer 503 within 2 s (docs/api.md), long before that. A query still
// unanswered after SUSPECT_AFTER_MS makes the pool ask the server a trivial question on a
// connection of its own; no answer within LIVENESS_TIMEOUT_MS means the network is gone (a slow
// query or a lock wait is not: the server answers the probe), and the suspect connection is closed
// at once, failing its query as "Connection terminated" (a 503). 1.7–1.75 s in all: one sweep
// (lib/db/query-watch.ts), every WATCH_EVERY_MS, looks at every query and wait in flight.
const SUSPECT_AFTER_MS = 900;
const LIVENESS_TIMEOUT_MS = 800;
const WATCH_EVERY_MS = 50;
// Prisma's own clocks for interactive transactions sit outside the pool's. Starting one is taking
// a connection (the pool gives up after the connect timeout) and sending BEGIN (the query timeout);
// running one may wait on one unanswered query. Both clocks outlast those, so an unreachable
// database always surfaces as the driver's (classified) error, never as Prisma's "Unable to start
// a transaction in the given time" (a 500). Normally neither is ever reached.
const TRANSACTION_OPTIONS = {
  maxWait: CONNECT_TIMEOUT_MS + QUERY_TIMEOUT_MS + 1_000,
  timeout: QUERY_TIMEOUT_MS + 2_000,
};

/** The Prisma client, after pending migrations have been applied. */
export async function db(): Promise<PrismaClient> {
  return (await database()).prisma;
}

function database(): Promise<Database> {
  processWide.opening ??= openDatabase().then(
    (open) => (processWide.open = open),
    (error: unknown) => {
      processWide.opening = undefined; // let the next request try again
      throw error;
    },
  );
  return processWide.opening;
}

/** Runs a hot-path statement (see PreparedStatement); rows come back with the driver's types. */
export function queryPrepared<Row>(statement: PreparedStatement, values: unknown[]): Promise<Row[]> {
  // Once open, straight to the driver: no promise of our own on every widget request.
  const open = processWide.open;
  return open ? open.prepared(statement, values) : database().then((opened) => opened.prepared<Row>(statement, values));
}

/** Plain SQL on the service's database (lib/jobs); see SqlExecutor. */
export async function sqlExecutor(): Promise<SqlExecutor> {
  return (await database()).sql;
}

/** A pool of its own on DATABASE_URL (a second service instance in tests); end() it after. */
export function separatePostgresExecutor(connectionString: string, max = 4): SqlExecutor & { end(): Promise<void> } {
  const pool = new pg.Pool({ connectionString, max, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, statement_timeout: STATEMENT_TIMEOUT_MS, options: SESSION_OPTIONS });
  pool.on("error", () => {});
  return { ...poolExecutor(pool), end: () => pool.end() };
}

/** Embedded mode: subscribes to NOTIFYs on `channel` (PostgreSQL callers hold a LISTEN connection instead). */
export async function listenEmbedded(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
  const open = await database();
  if (!open.listen) throw new Error("listenEmbedded: only the embedded database delivers notifications in-process");
  return open.listen(channel, callback);
}

/**
 * After rows were erased (a privacy request, retention): in embedded mode, rewrites the tables so
 * no file under DATA_DIR keeps the erased rows' bytes (docs/security.md, "What erasure removes,
 * where"); on PostgreSQL, nothing (the operator's vacuum settings decide, as documented there).
 */
export async function scrubErasedRows(tables: Iterable<string>): Promise<void> {
  const names = [...new Set(tables)];
  if (names.length === 0) return;
  await (await database()).scrub?.(names);
}

/** Closes the client (scripts and tests); the next db() call opens a new one. */
export async function closeDatabase(): Promise<void> {
  const open = processWide.opening;
  processWide.opening = undefined;
  processWide.open = undefined;
  if (open) await (await open).close();
}

function openDatabase(): Promise<Database> {
  const { DATABASE_URL } = env();
  return DATABASE_URL ? openPostgres(DATABASE_URL) : openPGlite(env().DATA_DIR);
}

/** Applies pending migrations on PostgreSQL (`npm run db:migrate`, and every start but Vercel's). */
export async function migratePostgres(connectionString: string): Promise<string[]> {
  const migrator = new pg.Client({ connectionString, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  await migrator.connect();
  try {
    return await runMigrations(pgSession(migrator));
  } finally {
    await migrator.end();
  }
}

async function openPostgres(connectionString: string): Promise<Database> {
  // On Vercel the build migrates (`npm run vercel-build`), not every cold start of every function.
  if (!onVercel()) await migratePostgres(directDatabaseUrl() ?? connectionString);
  const pool = new pg.Pool({
    connectionString,
    Client: QuickHandshakeClient as unknown as new () => pg.ClientBase, // pg-pool passes its options (typed too narrowly)
    max: env().DATABASE_POOL_SIZE,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    options: SESSION_OPTIONS,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection must not crash the process; the next query reports it.
  pool.on("error", () => {});
  const liveness = livenessProbe(connectionString);
  const overdue = queryWatch({
    suspectAfterMs: SUSPECT_AFTER_MS,
    timeoutAfterMs: QUERY_TIMEOUT_MS,
    isAlive: () => liveness.check(),
    everyMs: WATCH_EVERY_MS,
  });
  pool.on("connect", (client) => watchQueries(client, liveness, overdue));
  watchPoolWaits(pool, overdue);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions: TRANSACTION_OPTIONS });
  return {
    prisma,
    // pool.query's callback form creates no promise of its own (its promise form two): one in all.
    prepared: <Row>({ name, text }: PreparedStatement, values: unknown[]) =>
      new Promise<Row[]>((resolve, reject) =>
        pool.query<Row & pg.QueryResultRow>({ name, text, values }, (error, result) => (error ? reject(error) : resolve(result.rows))),
      ),
    sql: poolExecutor(pool),
    close: async () => {
      await prisma.$disconnect();
      await pool.end();
      overdue.stop();
      await liveness.close();
    },
  };
}

function poolExecutor(pool: pg.Pool): SqlExecutor {
  const on = (client: pg.Pool | pg.PoolClient): SqlQuery => ({
    executeSql: async (text, values) => {
      const result = await client.query(text, values && values.length > 0 ? values : undefined);
      // A multi-command text answers with one result per command; the last one is the answer.
      const last = Array.isArray(result) ? (result.at(-1) as pg.QueryResult) : result;
      return { rows: last?.rows ?? [], rowCount: last?.rowCount ?? 0 };
    },
  });
  return {
    ...on(pool),
    transaction: async (work) => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await work(on(client));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
  };
}

/**
 * A request waiting for a pooled connection (all busy, or new ones stuck in their handshake) is
 * watched like a query: after SUSPECT_AFTER_MS the liveness probe runs (again every SUSPECT_AFTER_MS
 * while the server answers it), and if the server does not answer it the wait ends at once with a
 * "Connection terminated" error (a 503) rather than at the pool's CONNECT_TIMEOUT_MS. A connection
 * that arrives for an abandoned wait goes back to the pool.
 */
function watchPoolWaits(pool: pg.Pool, overdue: QueryWatch): void {
  type Callback = (error: Error | undefined, client?: pg.PoolClient, release?: (error?: Error | boolean) => void) => void;
  const connect = pool.connect.bind(pool) as (callback: Callback) => void;
  const watched = (callback: Callback) => {
    let answered = false;
    const watch = overdue.watch(() => {
      answered = true;
      callback(new Error("Connection terminated: the database did not answer a liveness probe"));
    });
    connect((error, client, release) => {
      watch.settle();
      if (answered) {
        client?.release();
        return;
      }
      answered = true;
      callback(error, client, release);
    });
  };
  (pool as { connect: unknown }).connect = (callback?: Callback) => {
    if (callback) return watched(callback);
    return new Promise<pg.PoolClient>((resolve, reject) => watched((error, client) => (error ? reject(error) : resolve(client!))));
  };
}

/** A pooled connection whose handshake gives up sooner than a request waits for the pool. */
class QuickHandshakeClient extends pg.Client {
  constructor(config: pg.ClientConfig) {
    super({ ...config, connectionTimeoutMillis: HANDSHAKE_TIMEOUT_MS });
  }
}

interface LivenessProbe {
  /**
   * Whether the server is still answering: some pooled query was answered during the last
   * LIVENESS_TIMEOUT_MS or while the probe ran, or a trivial query of the probe's own was answered
   * within LIVENESS_TIMEOUT_MS (one probe at a time, shared).
   */
  check(): Promise<boolean>;
  /** Called for every answer the server gives a pooled query. */
  answered(): void;
  close(): Promise<void>;
}

/**
 * A connection of its own, outside the pool (whose connections may all be the stuck ones).
 *
 * A server that is answering other queries is not gone, only slow for this one. Under heavy load
 * (tens of thousands of open widgets on two cores) the probe's own answer could come later than
 * LIVENESS_TIMEOUT_MS, or sit unread while its timer fired first; the pool's healthy connections
 * were then closed as "unresponsive", and re-opening them under the same load turned a slow second
 * into a storm of 503s. So answers to the pool's queries count as signs of life too: in a
 * partition none arrive, and the probe decides as before.
 */
function livenessProbe(connectionString: string): LivenessProbe {
  let client: pg.Client | null = null;
  let running: Promise<boolean> | null = null;
  let lastAnswerAt = -Infinity;
  const answeredSince = (since: number) => lastAnswerAt >= since;
  const drop = () => {
    client?.end().catch(() => {});
    client = null;
  };
  async function probe(): Promise<boolean> {
    try {
      if (!client) {
        client = new pg.Client({ connectionString, connectionTimeoutMillis: LIVENESS_TIMEOUT_MS, query_timeout: LIVENESS_TIMEOUT_MS });
        client.on("error", drop);
        await client.connect();
      }
      await client.query("SELECT 1");
      return true;
    } catch {
      drop();
      return false;
    }
  }
  async function probeAfterAnswers(): Promise<boolean> {
    const startedAt = performance.now();
    if (answeredSince(startedAt - LIVENESS_TIMEOUT_MS)) return true;
    if (await probe()) return true;
    // The probe's timer may have fired while answers waited unread on busy sockets: read them first.
    await new Promise((resolve) => setImmediate(resolve));
    return answeredSince(startedAt);
  }
  return {
    // A probe in flight started after any query now suspected (those are older than the probe's
    // whole timeout), so joining it is as good as starting one.
    check: () =>
      (running ??= probeAfterAnswers().finally(() => {
        running = null;
      })),
    answered: () => {
      lastAnswerAt = performance.now();
    },
    close: async () => drop(),
  };
}

/**
 * Watches every query of a pooled connection:
 * - one unanswered after SUSPECT_AFTER_MS triggers the liveness probe; if the server does not
 *   answer that either, the connection is closed at once and its query fails (a partition: 503
 *   within 2 s instead of at the read timeout). While the server is answering, the query is only
 *   slow, and is looked at again every SUSPECT_AFTER_MS (a partition may begin meanwhile);
 * - one unanswered after QUERY_TIMEOUT_MS (the read timeout) is given up: the connection is closed,
 *   failing it as "Connection terminated". node-postgres's own query_timeout would fail only the
 *   query, with a timer per query, and leave the connection waiting for the lost answer, every
 *   later query on it queued behind that (a transaction's ROLLBACK first, for another timeout).
 * end() destroys a socket with a query in flight, so the pool drops it on release instead of
 * handing it to the next request.
 */
function watchQueries(client: pg.PoolClient, liveness: LivenessProbe, overdue: QueryWatch): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const close = () => client.end().catch(() => {});
  const unresponsive = () => {
    log.warn("database_unresponsive", { afterMs: SUSPECT_AFTER_MS + LIVENESS_TIMEOUT_MS });
    void close();
  };
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const watch = overdue.watch(unresponsive, close);
    const settle = (error?: unknown) => {
      watch.settle();
      if (!error || error instanceof pg.DatabaseError) liveness.answered(); // the server answered, if only with an error
    };
    const callback = args.at(-1);
    if (typeof callback === "function") {
      args[args.length - 1] = (error: unknown, ...rest: unknown[]) => {
        settle(error);
        callback(error, ...rest);
      };
      return query(...args);
    }
    const result = query(...args);
    if (result instanceof Promise) result.then(() => settle(), settle);
    else if (result && typeof (result as { once?: unknown }).once === "function") {
      // A Submittable (cursor, stream): it reports on its own events.
      const events = result as { once(event: string, listener: (error?: unknown) => void): void };
      events.once("end", () => settle());
      events.once("error", settle);
    } else settle();
    return result;
  };
}

/** `DATA_DIR=memory://` keeps the database in memory (tests). */
async function openPGlite(dataDir: string): Promise<Database> {
  let location = dataDir;
  const onDisk = !dataDir.startsWith("memory://");
  if (onDisk) {
    location = path.resolve(dataDir, "pglite");
    await makePrivateDir(location);
  }
  // Loaded only here: deployments on PostgreSQL (Vercel's functions) never load or bundle it.
  const [pgliteModule, { PrismaPGlite }] = await Promise.all([import("@electric-sql/pglite"), import("pglite-prisma-adapter")]);
  const pglite = await pgliteModule.PGlite.create(location, await embeddedSeed(location));
  // A checkpoint then deletes the WAL segments it no longer needs instead of renaming them for
  // reuse, where they would keep erased rows' bytes until overwritten (lib/db/scrub-erased.ts).
  await pglite.exec("SET wal_recycle = off");
  const statements = namedStatements(pglite, pgliteModule);
  try {
    await runMigrations(pgliteSession(pglite));
  } catch (error) {
    await pglite.close(); // a start stopped between steps (or a failed step) leaves the files closed cleanly
    throw error;
  }
  if (onDisk) await tightenTree(location); // what initdb and the migrations just created
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  return {
    prisma,
    // A Prisma transaction holds PGlite's lock, so these never run inside one.
    prepared: async <Row>({ name, text }: PreparedStatement, values: unknown[]) => (await statements.run<Row>(name, text, values)).rows,
    sql: pgliteExecutor(pglite, statements),
    listen: (channel, callback) => pglite.listen(channel, callback),
    scrub: (tables) => scrubTables(pglite, tables),
    close: async () => {
      await prisma.$disconnect();
      await pglite.close();
      if (onDisk) await tightenTree(location); // files PGlite created since it opened
    },
  };
}

/** An in-memory database may start from a migrated dump instead of an empty cluster (much faster than initdb). */
async function embeddedSeed(location: string): Promise<{ loadDataDir: Blob } | undefined> {
  const seedFile = env().EMBEDDED_SEED_FILE;
  if (!seedFile || !location.startsWith("memory://")) return undefined;
  return { loadDataDir: new Blob([await readFile(seedFile)]) };
}

type PGliteQueries = Pick<PGlite, "query" | "exec">;

function pgliteExecutor(pglite: PGlite, statements: NamedStatements): SqlExecutor {
  const on = (session: PGliteQueries, inTransaction: boolean): SqlQuery => ({
    executeSql: async (text, values) => {
      // The extended protocol takes one command per statement; scripts without values go as text.
      const name = values && values.length > 0 ? statements.nameFor(text) : null;
      const result = name
        ? await statements.run(name, text, values!, inTransaction)
        : values && values.length > 0
          ? await session.query(text, values)
          : (await session.exec(text)).at(-1);
      return { rows: result?.rows ?? [], rowCount: result?.affectedRows ?? result?.rows.length ?? 0 };
    },
  });
  return { ...on(pglite, false), transaction: (work) => pglite.transaction((tx: PGliteQueries) => work(on(tx, true))) };
}
