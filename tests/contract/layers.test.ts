import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";

// The layers of ../shared/CONVENTIONS.md, checked by dependency-cruiser with the rules in
// .dependency-cruiser.cjs (leaves import nothing above them, no service imports the transport or
// the document, no module cycle; in widget/, no cycle and chunks that import only shared code; in
// app/, no cycle and the inbox's areas apart over ui/ and shared/), and the folders of lib/ as a graph: a group of folders that
// reach each other through their imports (a knot) is what makes "what happens after a reply" take
// an hour to find. Issue 24 untied a knot of 22 folders and its target allowed one knot of two; the
// last one ([members staff]) is gone too, so the bars are zero and only ever stay there.

const ROOT = path.resolve(import.meta.dirname, "../..");
const KNOT_BARS = { largestKnot: 0, importsInsideKnots: 0 };

interface Cruise {
  modules: { source: string; dependencies: { resolved: string }[] }[];
  summary: { violations: { rule: { name: string }; from: string; to: string }[] };
}

/** Runs dependency-cruiser with the project's rules over `paths`, read from `cwd`. */
function cruise(cwd = ROOT, paths = ["lib", "app", "widget", "scripts", "bench", "instrumentation.ts", "proxy.ts"]): Cruise {
  const cli = path.join(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");
  const args = [cli, ...paths, "--config", path.join(ROOT, ".dependency-cruiser.cjs"), "--output-type", "json"];
  // Exits non-zero when a rule is broken; the JSON is printed either way.
  try {
    return JSON.parse(execFileSync(process.execPath, args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }));
  } catch (error) {
    const stdout = (error as { stdout?: string }).stdout;
    if (stdout) return JSON.parse(stdout);
    throw error;
  }
}

const INBOX = "app/inbox/_components";

/** The folder directly under lib/ a module belongs to (a file directly in lib/ is its own unit). */
const unitOf = (file: string) => /^lib\/([^/]+)/.exec(file)?.[1] ?? null;

/** Folder → folder import counts, tests left out (they may reach anywhere). */
function folderImports(result: Cruise): Map<string, Map<string, number>> {
  const graph = new Map<string, Map<string, number>>();
  for (const module of result.modules) {
    const from = unitOf(module.source);
    if (!from || module.source.endsWith(".test.ts")) continue;
    for (const { resolved } of module.dependencies) {
      const to = unitOf(resolved);
      if (!to || to === from || to === "generated") continue;
      const edges = graph.get(from) ?? graph.set(from, new Map()).get(from)!;
      edges.set(to, (edges.get(to) ?? 0) + 1);
      if (!graph.has(to)) graph.set(to, new Map());
    }
  }
  return graph;
}

/** Groups of two or more folders that import each other in a circle (Tarjan's strongly connected components). */
function knots(graph: Map<string, Map<string, number>>): string[][] {
  let next = 0;
  const index = new Map<string, number>(), low = new Map<string, number>(), stack: string[] = [], onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (folder: string) => {
    index.set(folder, next);
    low.set(folder, next++);
    stack.push(folder);
    onStack.add(folder);
    for (const to of graph.get(folder)!.keys()) {
      if (!index.has(to)) {
        visit(to);
        low.set(folder, Math.min(low.get(folder)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(folder, Math.min(low.get(folder)!, index.get(to)!));
    }
    if (low.get(folder) !== index.get(folder)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== folder);
    if (group.length > 1) found.push(group.sort());
  };
  for (const folder of graph.keys()) if (!index.has(folder)) visit(folder);
  return found;
}

describe("the layers", () => {
  const result = cruise();

  test("no import breaks a layer rule of .dependency-cruiser.cjs", () => {
    expect(result.modules.length).toBeGreaterThan(200);
    // The widget's rules only hold if its modules are read: the loader, the panel, each chunk, shared.
    for (const folder of ["loader", "panel", "chunks/uploads", "chunks/history", "shared", "strings"])
      expect(result.modules.some((module) => module.source.startsWith(`widget/src/${folder}/`)), folder).toBe(true);
    // …and the inbox's: each area, ui/ and shared/, and no component left loose beside them.
    for (const folder of ["ui", "shared", "frame", "conversations", "tickets", "articles", "reports", "outbox", "settings", "search", "auth"])
      expect(result.modules.some((module) => module.source.startsWith(`${INBOX}/${folder}/`)), folder).toBe(true);
    expect(result.modules.filter((module) => new RegExp(`^${INBOX}/[^/]+$`).test(module.source)).map((module) => module.source)).toEqual([]);
    expect(result.summary.violations.map(({ rule, from, to }) => `${rule.name}: ${from} → ${to}`)).toEqual([]);
  });

  test("the inbox's rules catch an area importing another, ui/ or shared/ importing an area, a loose component and a circle", () => {
    // A small inbox of wrong imports, cruised with the same rules: each rule must name its import.
    const dir = mkdtempSync(path.join(os.tmpdir(), "parley-layers-"));
    const files: Record<string, string> = {
      "tsconfig.json": JSON.stringify({ compilerOptions: { jsx: "react-jsx", moduleResolution: "bundler", module: "esnext" } }),
      [`${INBOX}/ui/table.ts`]: 'export { LABELS } from "../settings/labels";\n',
      [`${INBOX}/settings/labels.ts`]: 'import type { Thread } from "../conversations/thread";\nexport const LABELS: Thread[] = [];\n',
      [`${INBOX}/conversations/thread.ts`]: 'import { api } from "../shared/api";\nexport type Thread = typeof api;\n',
      [`${INBOX}/shared/api.ts`]: 'import type { Thread } from "../conversations/thread";\nexport const api = (thread?: Thread) => thread;\n',
      [`${INBOX}/loose.ts`]: 'export { api } from "./shared/api";\n',
    };
    try {
      for (const [file, text] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        writeFileSync(path.join(dir, file), text);
      }
      const found = cruise(dir, ["app"]).summary.violations.map(({ rule, from, to }) => `${rule.name}: ${from} → ${to}`);
      expect(found).toEqual(
        expect.arrayContaining([
          `inbox-ui-imports-no-feature: ${INBOX}/ui/table.ts → ${INBOX}/settings/labels.ts`,
          `inbox-areas-apart: ${INBOX}/settings/labels.ts → ${INBOX}/conversations/thread.ts`,
          `inbox-shared-imports-no-feature: ${INBOX}/shared/api.ts → ${INBOX}/conversations/thread.ts`,
          `inbox-components-in-areas: ${INBOX}/loose.ts → ${INBOX}/shared/api.ts`,
          expect.stringMatching(/^app-no-module-cycles: /),
        ]),
      );
      expect(found.filter((line) => line.includes("not-to-unresolvable"))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the folders of lib/ that reach each other in a circle are no more than the bars", () => {
    const graph = folderImports(result);
    const found = knots(graph);
    const inside = found.reduce(
      (sum, group) => sum + group.reduce((n, from) => n + [...graph.get(from)!].filter(([to]) => group.includes(to)).reduce((m, [, count]) => m + count, 0), 0),
      0,
    );
    console.log(`layers: ${graph.size} folders, knots ${found.map((group) => `[${group.join(" ")}]`).join(" ") || "none"}, ${inside} imports inside them`);
    expect(Math.max(0, ...found.map((group) => group.length))).toBeLessThanOrEqual(KNOT_BARS.largestKnot);
    expect(inside).toBeLessThanOrEqual(KNOT_BARS.importsInsideKnots);
  });
});
