// Builds the widget (widget/src, TypeScript) with esbuild into public/:
//   public/widget.js                 the loader (the one-tag embed; short cache, validator)
//   public/widget/panel-<hash>.js    the panel, loaded on first open, on idle, or when resuming
//   public/widget/<lang>-<hash>.js   a language table, loaded only for visitors who read it
//   public/widget/history-<hash>.js  the list of a returning visitor's conversations, loaded when there is one
// Hashed names never change content, so they are served as immutable.
//   node scripts/build-widget.mjs [--out DIR] [--watch]
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, rmSync, watch, writeFileSync } from "node:fs";
import path from "node:path";
import * as esbuild from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const src = path.join(root, "widget/src");
const args = process.argv.slice(2);
const outIndex = args.indexOf("--out");
const out = outIndex >= 0 ? path.resolve(args[outIndex + 1]) : path.join(root, "public");
export const LOCALES = ["de", "fr", "es", "ar"];

const common = {
  bundle: true,
  minify: true,
  format: "iife",
  // Browsers of the last few years; nothing newer than the target may appear in the output.
  target: ["es2022", "chrome100", "firefox100", "safari15.4"],
  write: false,
  charset: "utf8",
  legalComments: "none",
  logLevel: "warning",
};

async function bundle(entry, define = {}) {
  const result = await esbuild.build({ ...common, entryPoints: [path.join(src, entry)], define });
  return result.outputFiles[0].contents;
}

const hashed = (name, bytes) => `${name}-${createHash("sha256").update(bytes).digest("hex").slice(0, 10)}.js`;

/** Builds everything into `dir`; returns the files written (relative to dir). */
export async function buildWidget(dir = out) {
  const files = new Map();
  const locales = {};
  for (const code of LOCALES) {
    const bytes = await bundle(`locales/${code}.ts`);
    locales[code] = hashed(code, bytes);
    files.set(`widget/${locales[code]}`, bytes);
  }
  const history = await bundle("history.ts");
  const historyName = hashed("history", history);
  files.set(`widget/${historyName}`, history);
  const panel = await bundle("panel.ts", { __LOCALES__: JSON.stringify(locales), __HISTORY__: JSON.stringify(historyName) });
  const panelName = hashed("panel", panel);
  files.set(`widget/${panelName}`, panel);
  const loader = await bundle("loader.ts", { __PANEL__: JSON.stringify(panelName) });
  files.set("widget.js", loader);

  rmSync(path.join(dir, "widget"), { recursive: true, force: true });
  mkdirSync(path.join(dir, "widget"), { recursive: true });
  for (const [name, bytes] of files) writeFileSync(path.join(dir, name), bytes);
  return [...files.keys()];
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename;
if (isMain) {
  const once = async () => {
    const started = Date.now();
    try {
      const written = await buildWidget();
      console.log(`widget: ${written.length} files in ${path.relative(root, out) || "."} (${Date.now() - started} ms)`);
    } catch (error) {
      console.error(`widget: build failed: ${error.message}`);
      if (!args.includes("--watch")) process.exit(1);
    }
  };
  await once();
  if (args.includes("--watch")) {
    let timer = null;
    watch(src, { recursive: true }, () => {
      clearTimeout(timer);
      timer = setTimeout(once, 50);
    });
    console.log("widget: watching widget/src");
  }
}
// Unused exports are fine for a script; readdirSync kept for callers that list the output.
export const listOutput = (dir = out) => readdirSync(path.join(dir, "widget"));
