import { chmod, cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { create, extract } from "tar";
import { makePrivateDir, tightenTree } from "../core/private-files";
import { KEY_FILE_NAME } from "../secrets/key-file";

// `npm run backup` / `npm run restore` for embedded mode: one .tar.gz holding PGlite's own dump of
// the database (dumpDataDir), the uploads folder, and the key file that opens the sealed secrets.
// The archive is as secret as DATA_DIR itself (it holds the key): it is written with mode 0600.
// PGlite is one process's: run both with the service stopped. PostgreSQL: pg_dump / pg_restore
// (docs/deploy.md).

const MANIFEST = "manifest.json";
const DATABASE_DUMP = "pglite.tar";
const UPLOADS = "uploads";
const FORMAT = "parley-embedded-backup";

export interface EmbeddedPaths {
  /** DATA_DIR: the database lives in its pglite/ folder, the key file beside it. */
  dataDir: string;
  /** The local uploads folder; null when files live in S3 (back the bucket up with its own tools). */
  uploadsDir: string | null;
}

interface Manifest {
  format: typeof FORMAT;
  version: 1;
  created_at: string;
  uploads: boolean;
  key_file: boolean;
}

const exists = (file: string) => stat(file).then(() => true, () => false);
const databaseDir = (dataDir: string) => path.join(dataDir, "pglite");

async function withScratch<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), "parley-backup-"));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function openPGlite(dir: string, loadDataDir?: Blob) {
  const { PGlite } = await import("@electric-sql/pglite");
  return PGlite.create(dir, loadDataDir ? { loadDataDir } : {});
}

/** Writes the archive; returns what it holds. */
export async function backupEmbedded({ dataDir, uploadsDir }: EmbeddedPaths, archive: string): Promise<Manifest> {
  if (!(await exists(databaseDir(dataDir)))) throw new Error(`No embedded database in ${path.resolve(dataDir)} (its pglite folder is missing).`);
  return withScratch(async (scratch) => {
    const pglite = await openPGlite(databaseDir(dataDir));
    try {
      const dump = await pglite.dumpDataDir("none");
      await writeFile(path.join(scratch, DATABASE_DUMP), Buffer.from(await dump.arrayBuffer()));
    } finally {
      await pglite.close();
      await tightenTree(databaseDir(dataDir)); // PGlite's new files are 0666 (lib/core/private-files.ts)
    }
    const uploads = uploadsDir !== null && (await exists(uploadsDir));
    if (uploads) await cp(uploadsDir, path.join(scratch, UPLOADS), { recursive: true, filter: (source) => path.basename(source) !== ".incoming" });
    const keyFile = path.join(dataDir, KEY_FILE_NAME);
    const withKey = await exists(keyFile);
    if (withKey) await cp(keyFile, path.join(scratch, KEY_FILE_NAME));
    const manifest: Manifest = { format: FORMAT, version: 1, created_at: new Date().toISOString(), uploads, key_file: withKey };
    await writeFile(path.join(scratch, MANIFEST), JSON.stringify(manifest, null, 2));
    await writeFile(archive, "", { mode: 0o600 });
    await create({ gzip: true, file: archive, cwd: scratch, portable: true }, await readdir(scratch));
    await chmod(archive, 0o600);
    return manifest;
  });
}

/** Restores the archive into an empty DATA_DIR (never over an existing database). */
export async function restoreEmbedded(archive: string, { dataDir, uploadsDir }: EmbeddedPaths): Promise<Manifest> {
  const target = databaseDir(dataDir);
  if ((await exists(target)) && (await readdir(target)).length > 0) {
    throw new Error(`${path.resolve(dataDir)} already holds a database: restore into an empty DATA_DIR (move the old one aside first).`);
  }
  return withScratch(async (scratch) => {
    await extract({ file: archive, cwd: scratch });
    const manifest = JSON.parse(await readFile(path.join(scratch, MANIFEST), "utf8").catch(() => "{}")) as Partial<Manifest>;
    if (manifest.format !== FORMAT || manifest.version !== 1) throw new Error(`${archive} is not a Parley embedded backup (no ${MANIFEST} of version 1).`);
    const keyFile = path.join(dataDir, KEY_FILE_NAME);
    if (manifest.key_file && (await exists(keyFile))) throw new Error(`${keyFile} exists: restore into an empty DATA_DIR (the backup brings its own key file).`);
    await makePrivateDir(target);
    const dump = new Blob([await readFile(path.join(scratch, DATABASE_DUMP))]);
    await (await openPGlite(target, dump)).close();
    if (manifest.uploads) {
      if (uploadsDir === null) throw new Error("The backup holds uploaded files, but this configuration keeps files in S3: unset S3_BUCKET, or copy the uploads folder by hand.");
      await cp(path.join(scratch, UPLOADS), uploadsDir, { recursive: true });
    }
    if (manifest.key_file) {
      await cp(path.join(scratch, KEY_FILE_NAME), keyFile);
      await chmod(keyFile, 0o600);
    }
    await tightenTree(dataDir);
    if (uploadsDir !== null) await tightenTree(uploadsDir);
    return manifest as Manifest;
  });
}
