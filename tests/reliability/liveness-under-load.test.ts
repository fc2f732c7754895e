import { afterAll, describe, expect, test } from "vitest";
import { closeDatabase, sqlExecutor } from "../../lib/db/client";
import { sleep } from "../support/load";
import { testDatabaseUrl } from "../support/postgres";
import { requireService } from "../support/requires";
import { proxyTheDatabase } from "../support/tcp-proxy";

// The pool's liveness probe (lib/db/client.ts) must not take a busy server for a dead one. Here the
// server keeps answering the pool's open connections while a fresh connection — the probe's own —
// cannot finish its handshake, as under tens of thousands of open widgets on two cores. A query
// slower than the suspicion delay must then run to its end: before, the failed probe closed its
// connection and the query failed as "Connection terminated" (a 503), and under load those closings
// fed a storm of them (docs/performance.md, step 19). A real partition is
// tests/reliability/database-outage.test.ts. Runs only on PostgreSQL (TEST_DATABASE_URL).

const onPostgres = (await requireService("postgres")) && Boolean(testDatabaseUrl() && process.env.DATABASE_URL);
const proxy = await proxyTheDatabase(onPostgres);

afterAll(async () => {
  await proxy?.restore();
  await closeDatabase();
  await proxy?.close();
});

describe.runIf(onPostgres)("the liveness probe under load", () => {
  test("a slow query is not cut while the server answers other queries, though the probe cannot connect", { timeout: 20_000 }, async () => {
    const sql = await sqlExecutor();
    // Open a few pooled connections while new ones still get through.
    await Promise.all(Array.from({ length: 4 }, () => sql.executeSql("SELECT pg_sleep(0.05)")));
    proxy!.stallNew();

    const slow = sql.executeSql("SELECT pg_sleep(2.5), 'done' AS outcome");
    let answered = 0;
    let fastFailures = 0;
    const deadline = performance.now() + 2_600;
    while (performance.now() < deadline) {
      await sql.executeSql("SELECT 1").then(
        () => answered++,
        () => fastFailures++,
      );
      await sleep(100);
    }

    await expect(slow).resolves.toMatchObject({ rows: [{ outcome: "done" }] });
    expect(fastFailures).toBe(0);
    expect(answered).toBeGreaterThan(10);
  });
});
