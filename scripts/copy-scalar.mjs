// Copies Scalar's browser bundle from the @scalar/api-reference package to public/, where /reference
// loads it (lib/http/reference-page.mjs): served by this service, never by a CDN. Part of
// `npm run dev` and `npm run build`; public/scalar/ is build output, not source.
//   node scripts/copy-scalar.mjs [--out DIR]
import { copyFileSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { SCALAR_SCRIPT_PATH, SCALAR_VERSION } from "../lib/http/reference-page.mjs";

const root = path.resolve(import.meta.dirname, "..");

/** The installed bundle, or null when the package is not installed. */
export function installedBundle() {
  let file;
  try {
    file = createRequire(import.meta.url).resolve("@scalar/api-reference/browser/standalone.js");
  } catch {
    return null;
  }
  const { version } = JSON.parse(readFileSync(path.resolve(path.dirname(file), "../../package.json"), "utf8"));
  return { file, version };
}

/**
 * Copies the bundle into `dir` (public/ by default) at SCALAR_SCRIPT_PATH, replacing any other
 * version's; returns the file written, or null when the package is not installed.
 */
export function copyScalar(dir = path.join(root, "public")) {
  const bundle = installedBundle();
  if (!bundle) return null;
  if (bundle.version !== SCALAR_VERSION) {
    throw new Error(`@scalar/api-reference ${bundle.version} is installed, but lib/http/reference-page.mjs names ${SCALAR_VERSION}: change SCALAR_VERSION with package.json`);
  }
  const target = path.join(dir, SCALAR_SCRIPT_PATH);
  rmSync(path.dirname(target), { recursive: true, force: true });
  mkdirSync(path.dirname(target), { recursive: true });
  copyFileSync(bundle.file, target);
  return target;
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename;
if (isMain) {
  const args = process.argv.slice(2);
  const outIndex = args.indexOf("--out");
  try {
    const written = copyScalar(outIndex >= 0 ? path.resolve(args[outIndex + 1]) : undefined);
    if (written) console.log(`reference: Scalar ${SCALAR_VERSION} in ${path.relative(root, written)}`);
    // Not fatal: /reference then shows its link to the OpenAPI document instead of the viewer.
    else console.warn("reference: @scalar/api-reference is not installed (run npm install); /reference will show only a link to /api/v1/openapi.json");
  } catch (error) {
    console.error(`reference: ${error.message}`);
    process.exit(1);
  }
}
