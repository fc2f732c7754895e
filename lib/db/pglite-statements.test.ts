import * as pgliteModule from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { namedStatements, type NamedStatements } from "./pglite-statements";

describe("named prepared statements on PGlite", () => {
  let pglite: pgliteModule.PGlite;
  let statements: NamedStatements;
  const LOOKUP = `SELECT t.id, t.n, t.at, t.tags FROM things t WHERE t.id = $1 AND t.n >= $2`;

  beforeAll(async () => {
    pglite = await pgliteModule.PGlite.create();
    await pglite.exec(`CREATE TABLE things (id text PRIMARY KEY, n int NOT NULL, at timestamptz DEFAULT now(), tags text[])`);
    await pglite.query(`INSERT INTO things (id, n, tags) VALUES ('a', 1, ARRAY['x','y']), ('b', 2, NULL)`);
    statements = namedStatements(pglite, pgliteModule);
  });
  afterAll(() => pglite.close());

  test("answer the rows, types and counts query() answers, call after call", async () => {
    for (const id of ["a", "b", "a"]) {
      const named = await statements.run("lookup", LOOKUP, [id, 0]);
      const plain = await pglite.query(LOOKUP, [id, 0]);
      expect(named.rows).toEqual(plain.rows);
      expect(named.fields).toEqual(plain.fields); // the row description kept from the first call
    }
    expect((await statements.run("lookup", LOOKUP, ["a", 0])).rows[0]).toMatchObject({ id: "a", n: 1, tags: ["x", "y"], at: expect.any(Date) });
    const updated = await statements.run("bump", `UPDATE things SET n = n + 1 WHERE n >= $1`, [0]);
    expect(updated.affectedRows).toBe(2);
  });

  test("an error is the database's own, and the session stays usable", async () => {
    const insert = `INSERT INTO things (id, n) VALUES ($1, $2) RETURNING id`;
    await statements.run("insert", insert, ["c", 3]);
    await expect(statements.run("insert", insert, ["c", 3])).rejects.toMatchObject({ code: "23505" });
    await expect(statements.run("broken", `SELECT missing FROM things WHERE id = $1`, ["a"])).rejects.toMatchObject({ code: "42703" });
    expect((await statements.run("lookup", LOOKUP, ["c", 0])).rows).toHaveLength(1);
    expect((await pglite.query(`SELECT count(*)::int AS n FROM things`)).rows).toEqual([{ n: 3 }]);
  });

  test("NOTIFYs sent by a named statement reach PGlite's listeners", async () => {
    const payloads: string[] = [];
    await pglite.listen("things", (payload) => payloads.push(payload));
    await statements.run("notify", `SELECT pg_notify('things', $1)`, ["hello"]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(payloads).toEqual(["hello"]);
  });

  test("run inside a transaction, they commit or roll back with it", async () => {
    const insert = `INSERT INTO things (id, n) VALUES ($1, $2)`;
    await pglite.transaction(async () => {
      await statements.run("insert-in-tx", insert, ["d", 4], true);
    });
    await expect(
      pglite.transaction(async () => {
        await statements.run("insert-in-tx", insert, ["e", 5], true);
        throw new Error("abandon");
      }),
    ).rejects.toThrow("abandon");
    const ids = (await pglite.query<{ id: string }>(`SELECT id FROM things WHERE id IN ('d', 'e')`)).rows.map((row) => row.id);
    expect(ids).toEqual(["d"]);
  });

  test("a text gets one name, always the same", () => {
    const first = statements.nameFor("SELECT $1::int");
    expect(first).toMatch(/^text_\d+$/);
    expect(statements.nameFor("SELECT $1::int")).toBe(first);
    expect(statements.nameFor("SELECT $1::text")).not.toBe(first);
  });
});
