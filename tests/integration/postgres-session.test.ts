import { describe, expect, test } from "vitest";
import { queryPrepared } from "../../lib/db/client";
import { testDatabaseUrl } from "../support/postgres";

// The service's PostgreSQL sessions run without JIT compilation (lib/db/client.ts, SESSION_OPTIONS):
// an agent's unread count crossed jit_above_cost and spent ~16 ms compiling a 2 ms statement.

const onPostgres = Boolean(testDatabaseUrl());
if (!onPostgres) console.log("postgres-session: skipped (runs in the PostgreSQL pass, TEST_DATABASE_URL)");

describe.runIf(onPostgres)("the service's PostgreSQL sessions", () => {
  test("run with jit off", async () => {
    const [row] = await queryPrepared<{ jit: string }>({ name: "test_show_jit", text: "SHOW jit" }, []);
    expect(row?.jit).toBe("off");
  });
});
