import { chmod, lstat, mkdir, readdir } from "node:fs/promises";
import path from "node:path";

// DATA_DIR holds the database, the uploads and the sealing key: nobody but the service's user may
// read or write any of it (docs/security.md, "The data directory"). Folders are created 0700 and
// files 0600. PGlite (Emscripten's NODEFS) creates its files 0666 whatever the process umask
// (measured), so its folder is tightened after it opens and as it closes; DATA_DIR itself being
// 0700 keeps other users out meanwhile.

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates the folder (and missing parents) 0700; an existing one is left as it is (see tightenTree). */
export async function makePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/**
 * Takes every group and other permission off the folder and everything under it (folders become
 * 0700, files 0600 unless their owner bits say less); symbolic links are neither followed nor
 * changed. Answers how many entries were looser. A folder that does not exist counts nothing.
 */
export async function tightenTree(root: string): Promise<number> {
  const info = await lstat(root).catch(() => null);
  if (!info || info.isSymbolicLink()) return 0;
  let loosened = 0;
  if ((info.mode & 0o077) !== 0) {
    await chmod(root, info.mode & 0o700);
    loosened++;
  }
  if (info.isDirectory()) {
    for (const entry of await readdir(root)) loosened += await tightenTree(path.join(root, entry));
  }
  return loosened;
}
