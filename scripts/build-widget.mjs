// Builds the widget (widget/src, TypeScript) with esbuild into public/:
//   public/widget.js                 the loader (the one-tag embed; short cache, validator)
//   public/widget/panel-<hash>.js    the panel, loaded on first open, on idle, or when resuming
//   public/widget/<lang>-<hash>.js   a language table, loaded only for visitors who read it
//   public/widget/history-<hash>.js  the list of a returning visitor's conversations, loaded when there is one
//   public/widget/uploads-<hash>.js  files in chat and the "leave a message" form, loaded when a file is picked,
//                                    a message with files arrives, or the form is opened
//   public/widget/rating-<hash>.js   the rating asked for after a close, loaded on the close
//   public/widget/hours-<hash>.js    "we're back …", loaded while the site is outside its service hours
//   public/widget/answers-<hash>.js  "Talk to a person" and a bot answer's sources, loaded on a site in bot
//                                    mode or when a message with sources arrives
//   public/widget/sound-<hash>.js    the chime for a message that arrives unseen, loaded only with data-sound="on"
//   public/widget/prechat-<hash>.js  the department picker and the pre-chat form, loaded before a first message
//                                    only on a site with departments or a form
// Hashed names never change content, so they are served as immutable.
// --manifest FILE writes which file loads which, on open or on need (the size test reads it); it is
// not served: everything under /widget/ is cached as immutable.
// Sources by bundle: widget/src/loader/, panel/, chunks/<name>/; shared/ (what the panel hands its
// chunks), strings/ (English by part, and the other languages). docs/widget.md, "Source layout".
//   node scripts/build-widget.mjs [--out DIR] [--manifest FILE] [--watch]
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, watch, writeFileSync } from "node:fs";
import path from "node:path";
import * as esbuild from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const src = path.join(root, "widget/src");
const args = process.argv.slice(2);
const outIndex = args.indexOf("--out");
const out = outIndex >= 0 ? path.resolve(args[outIndex + 1]) : path.join(root, "public");
const manifestIndex = args.indexOf("--manifest");
const manifestFile = manifestIndex >= 0 ? path.resolve(args[manifestIndex + 1]) : null;
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

// The styles (*-style.ts) are written readable, one rule a line; esbuild's CSS minifier shortens
// each sheet's text at build time (template literals are opaque to the JS minifier).
const minifyStyles = {
  name: "minify-styles",
  setup(build) {
    build.onLoad({ filter: /-style\.ts$/ }, async (args) => {
      const source = readFileSync(args.path, "utf8");
      const sheets = [...source.matchAll(/`([^`$]*)`/g)];
      let contents = source;
      for (const [literal, css] of sheets) {
        const { code: small } = await esbuild.transform(css, { loader: "css", minify: true, target: common.target });
        contents = contents.replace(literal, JSON.stringify(small.trim()));
      }
      return { contents, loader: "ts" };
    });
  },
};

async function bundle(entry, define = {}, extra = {}) {
  const plugins = [minifyStyles, ...(extra.plugins || [])];
  return esbuild.build({ ...common, entryPoints: [path.join(src, entry)], define, ...extra, plugins });
}
const code = (result) => result.outputFiles[0].contents;

// The widget's strings in parts (widget/src/shared/strings.ts): the panel's, and each chunk's own (widget/src/strings/).
const STRING_PARTS = { panel: ["strings/panel", "EN"], uploads: ["strings/uploads", "UPLOADS_EN"], rating: ["strings/rating", "RATING_EN"], hours: ["strings/hours", "HOURS_EN"], answers: ["strings/answers", "ANSWERS_EN"], prechat: ["strings/prechat", "PRECHAT_EN"] };

/** Runs a module of widget/src (data only: string tables) in Node and answers its exports. */
async function evaluate(contents) {
  const result = await esbuild.build({ ...common, minify: false, format: "esm", stdin: { contents, resolveDir: src, loader: "ts" } });
  return import(`data:text/javascript;base64,${Buffer.from(result.outputFiles[0].contents).toString("base64")}`);
}

// A language chunk carries values only: each part's strings in the order of its English keys
// (strings.ts unpacks them), so the keys, the same in every language, are not sent again with
// each (about 500 bytes gzipped per language; docs/widget.md).
function languageChunk(lang, english, table) {
  const parts = {};
  for (const [part, en] of Object.entries(english)) {
    parts[part] = Object.keys(en).map((key) => {
      if (typeof table[key] !== "string") throw new Error(`strings/locales/${lang}.ts has no "${key}"`);
      return table[key];
    });
  }
  return `"use strict";window.Parley?._locale?.(${JSON.stringify(lang)},${JSON.stringify(parts)});\n`;
}

const hashed = (name, bytes) => `${name}-${createHash("sha256").update(bytes).digest("hex").slice(0, 10)}.js`;

// A chunk the panel loads on need (panel/chunks.ts) shares the panel's modules instead of carrying
// copies with state of their own: an import of a module the panel holds resolves to the panel's
// instance, which the panel hands over as Parley._m (the modules asked for, keyed by file name).
// A module with nothing at run time but const enums (shared/state.ts) is compiled into the chunk
// instead: esbuild puts each enum's value in place, which it cannot do through Parley._m.
const panelModule = (file) => path.relative(src, file).replaceAll(path.sep, "/");
const onlyConstEnums = (file) => !/^export (?!const enum |type |interface )/m.test(readFileSync(file, "utf8"));
function sharePanelModules(panelModules, used) {
  return {
    name: "share-panel-modules",
    setup(build) {
      build.onResolve({ filter: /^\./ }, async (args) => {
        if (args.pluginData === "shared") return undefined;
        const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: "shared" });
        const name = panelModule(resolved.path);
        if (!panelModules.has(name) || onlyConstEnums(resolved.path)) return resolved;
        used.add(name);
        return { path: name, namespace: "panel-module" };
      });
      build.onLoad({ filter: /.*/, namespace: "panel-module" }, (args) => ({
        contents: `module.exports = window.Parley._m[${JSON.stringify(args.path)}];`,
        loader: "js",
      }));
    },
  };
}

/** Builds everything into `dir`; returns the files written (relative to dir). */
export async function buildWidget(dir = out, manifestPath = manifestFile) {
  const files = new Map();
  // file -> { open: [files it loads when the panel opens and the visitor chats], need: [files it loads on need] }
  const manifest = {};
  const locales = {};
  const english = await evaluate(`${Object.entries(STRING_PARTS).map(([part, [file, name]]) => `export { ${name} as ${part} } from "./${file}";`).join("\n")}`);
  for (const code_ of LOCALES) {
    const bytes = Buffer.from(languageChunk(code_, english, (await evaluate(`export { default } from "./strings/locales/${code_}";`)).default));
    locales[code_] = hashed(code_, bytes);
    files.set(`widget/${locales[code_]}`, bytes);
  }
  // The panel's module set first (the chunk names are not known yet: placeholders of the same kind).
  const panelDefines = (chunks) => ({ __LOCALES__: JSON.stringify(locales), __CHUNKS__: JSON.stringify(chunks) });
  const CHUNKS = ["uploads", "rating", "hours", "answers", "sound", "prechat", "history"];
  const probe = await bundle("panel/panel.ts", panelDefines(Object.fromEntries(CHUNKS.map((c) => [c, ""]))), { metafile: true });
  const panelModules = new Set(Object.keys(probe.metafile.inputs).filter((f) => !f.startsWith("<")).map((f) => panelModule(path.resolve(root, f))));
  const used = new Set();
  const chunks = {};
  for (const chunk of CHUNKS) {
    const bytes = code(await bundle(`chunks/${chunk}/${chunk}.ts`, {}, { plugins: [sharePanelModules(panelModules, used)] }));
    chunks[chunk] = hashed(chunk, bytes);
    files.set(`widget/${chunks[chunk]}`, bytes);
  }
  const shared = [...used].sort();
  const panel = code(
    await esbuild.build({
      ...common,
      define: panelDefines(chunks),
      stdin: {
        contents: shared.map((m, i) => `import * as m${i} from ${JSON.stringify("./" + m)};`).join("\n") +
          `\nimport "./panel/panel";\nwindow.Parley && (window.Parley._m = {${shared.map((m, i) => `${JSON.stringify(m)}: m${i}`).join(", ")}});`,
        resolveDir: src,
        sourcefile: "panel-entry.ts",
        loader: "ts",
      },
      plugins: [minifyStyles],
    }),
  );
  const panelName = hashed("panel", panel);
  files.set(`widget/${panelName}`, panel);
  const loader = code(await bundle("loader/loader.ts", { __PANEL__: JSON.stringify(panelName) }));
  files.set("widget.js", loader);

  manifest["widget.js"] = { open: [`widget/${panelName}`], need: [] };
  manifest[`widget/${panelName}`] = { open: [], need: [...Object.values(chunks), ...Object.values(locales)].map((f) => `widget/${f}`) };

  rmSync(path.join(dir, "widget"), { recursive: true, force: true });
  mkdirSync(path.join(dir, "widget"), { recursive: true });
  for (const [name, bytes] of files) writeFileSync(path.join(dir, name), bytes);
  if (manifestPath) writeFileSync(manifestPath, JSON.stringify(manifest, null, 2) + "\n");
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
