import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { closeDatabase, db } from "../../lib/db/client";
import { prepareService, repairDataDirModes } from "../../lib/prepare-service";
import { localStorage } from "../../lib/uploads/local-storage";
import { testDatabaseUrl } from "../support/postgres";

// Issue 38, defect 2: DATA_DIR is the service user's alone. Folders 0700, files 0600, for what the
// service creates (PGlite's files included) and, repaired at start, for what was left open.

const embedded = !testDatabaseUrl();
if (!embedded) console.log("data-dir-modes: skipped (embedded PGlite only)");
const dataDir = path.join(mkdtempSync(path.join(tmpdir(), "parley-modes-")), "data");
if (embedded) {
  process.env.DATA_DIR = dataDir;
  delete process.env.UPLOADS_DIR; // the default layout: DATA_DIR/uploads
  delete process.env.SECRET_KEY; // the key file under DATA_DIR
  process.env.LOG_LEVEL = "info";
}

/** Every entry under `root` (itself included) with its permission bits. */
function modesUnder(root: string): { entry: string; directory: boolean; mode: number }[] {
  const info = lstatSync(root);
  const here = { entry: root, directory: info.isDirectory(), mode: info.mode & 0o777 };
  if (!info.isDirectory()) return [here];
  return [here, ...readdirSync(root).flatMap((name) => modesUnder(path.join(root, name)))];
}
const openToOthers = (root: string) => modesUnder(root).filter(({ mode }) => (mode & 0o077) !== 0);
const notPrivate = (root: string) => modesUnder(root).filter(({ directory, mode }) => mode !== (directory ? 0o700 : 0o600));

let lines: string[] = [];
beforeEach(() => {
  lines = [];
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
});
afterEach(() => vi.restoreAllMocks());
afterAll(async () => {
  await closeDatabase();
  rmSync(path.dirname(dataDir), { recursive: true, force: true });
});

// A DATA_DIR as an older version left it: PGlite's files 0666 (from the run's migrated dump, which
// spares a minute of initdb), folders 0755, an uploaded file 0644.
beforeAll(async () => {
  if (!embedded) return;
  mkdirSync(path.join(dataDir, "uploads", "ab"), { recursive: true, mode: 0o755 });
  const seed = new Blob([readFileSync(process.env.EMBEDDED_SEED_FILE!)]);
  await (await PGlite.create(path.join(dataDir, "pglite"), { loadDataDir: seed })).close();
  writeFileSync(path.join(dataDir, "uploads", "ab", "cdef"), "an older upload", { mode: 0o644 });
  for (const folder of [dataDir, path.join(dataDir, "uploads"), path.join(dataDir, "uploads", "ab")]) chmodSync(folder, 0o755);
  chmodSync(path.join(dataDir, "uploads", "ab", "cdef"), 0o644);
});

describe.runIf(embedded)("DATA_DIR modes", () => {
  test("an existing DATA_DIR with entries open to other users is repaired at start, and the log says so once, with the count", async () => {
    const loose = openToOthers(dataDir).length;
    expect(loose).toBeGreaterThan(100); // PGlite's files, the folders, the upload

    expect(await repairDataDirModes()).toBe(loose);
    expect(notPrivate(dataDir)).toEqual([]);
    const said = lines.filter((line) => line.includes("data_dir_modes_repaired"));
    expect(said).toHaveLength(1);
    expect(JSON.parse(said[0]!)).toMatchObject({ level: "warn", event: "data_dir_modes_repaired", count: loose });

    expect(await repairDataDirModes()).toBe(0); // nothing left to repair: nothing said
    expect(lines.filter((line) => line.includes("data_dir_modes_repaired"))).toHaveLength(1);
  });

  test("after a start, every folder under DATA_DIR is 0700 and every file 0600, the ones created since included", async () => {
    await prepareService(); // the key file, the demo's rows, the operator token
    await (await db()).$executeRawUnsafe(`CREATE TABLE "mode_probe" AS SELECT generate_series(1, 1000) AS n`); // new database files
    await localStorage.write("0f/0123456789abcdef", Buffer.from("a new upload"), "text/plain");
    await closeDatabase(); // the graceful stop
    expect(lstatSync(path.join(dataDir, "secret.key")).isFile()).toBe(true);
    expect(notPrivate(dataDir)).toEqual([]);
  });
});
