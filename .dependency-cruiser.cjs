// The layers of ../shared/CONVENTIONS.md ("Layers"), checked by `npm test` (npm run deps:check).
// Leaves at the bottom, policy on top; each rule names the direction an import must not take.
// Imports that break a rule today are listed in .dependency-cruiser-known-violations.json (the
// debt issue 24 pays off); a new one fails the run. After removing some, `npm run deps:baseline`.

/** A folder directly under lib/, as a path pattern. */
const lib = (...folders) => `^lib/(${folders.join("|")})/`;

module.exports = {
  forbidden: [
    {
      name: "core-is-a-leaf",
      comment: "lib/core/ (errors, env, log, validation, origins, sql-row, lifecycle) imports nothing else of lib/.",
      severity: "error",
      from: { path: lib("core") },
      to: { path: "^lib/", pathNot: [lib("core"), "^lib/generated/"] },
    },
    {
      name: "contracts-are-leaves",
      comment: "lib/contracts/ (request and response schemas) imports only lib/core/: services, routes and the document all read them.",
      severity: "error",
      from: { path: lib("contracts") },
      to: { path: "^lib/", pathNot: [lib("core", "contracts")] },
    },
    {
      name: "db-only-above-core",
      comment: "lib/db/ (client, migrations, query watch) imports only lib/core/ and the generated client.",
      severity: "error",
      from: { path: lib("db") },
      to: { path: "^lib/", pathNot: [lib("core", "db"), "^lib/generated/"] },
    },
    {
      name: "transport-knows-no-domain",
      comment: "lib/http/ is transport (envelope, input, respond, screening): it imports only the leaves.",
      severity: "error",
      from: { path: lib("http") },
      to: { path: "^lib/", pathNot: [lib("core", "db", "http"), "^lib/generated/"] },
    },
    {
      name: "services-below-transport",
      comment: "No service imports the transport (lib/http/), the policy layer (lib/api/) or the document (lib/openapi/).",
      severity: "error",
      from: { path: "^lib/", pathNot: [lib("http", "api", "openapi", "runtime"), "^lib/prepare-service"] },
      to: { path: lib("http", "api", "openapi") },
    },
    {
      name: "queue-knows-no-consumer",
      comment: "lib/jobs/ is the queue and the claim loop; what runs on them (email, webhooks) is wired in lib/notifications/.",
      severity: "error",
      from: { path: lib("jobs") },
      to: { path: lib("email", "webhooks", "notifications") },
    },
    {
      name: "consumers-below-the-rules",
      comment: "lib/email/ and lib/webhooks/ hold the consumers of the outbox; the rules table and the dispatcher (lib/notifications/) call them, never the other way.",
      severity: "error",
      from: { path: lib("email", "webhooks") },
      to: { path: lib("notifications") },
    },
    {
      name: "realtime-below-entities",
      comment:
        "lib/realtime/ (the one listener, its typed events and their two consumers) imports only lib/core/, lib/db/ and lib/contracts/: the entities that write call it (signalMessage, publishSessionsEnded), so it must not call them.",
      severity: "error",
      from: { path: lib("realtime"), pathNot: "\\.test\\.ts$" },
      to: { path: "^lib/", pathNot: [lib("core", "db", "contracts", "realtime")] },
    },
    {
      name: "runtime-on-top",
      comment: "lib/runtime/ (the front of npm start) sits above everything in lib/: nothing else in lib/ imports it.",
      severity: "error",
      from: { path: "^lib/", pathNot: lib("runtime") },
      to: { path: lib("runtime") },
    },
    {
      name: "runtime-loads-no-app-module",
      comment:
        "lib/runtime/ runs in Node without a compiler, beside Next's bundles: it imports only the plain-JavaScript leaves (lib/core/, lib/http/); the routes reach it from the app (lib/core/lifecycle.mjs).",
      severity: "error",
      from: { path: lib("runtime") },
      to: { path: "^lib/", pathNot: [lib("core", "http", "runtime")] },
    },
    {
      name: "no-app-from-lib",
      comment: "lib/ never imports app/ (routes and pages sit on top).",
      severity: "error",
      from: { path: "^lib/" },
      to: { path: "^app/" },
    },
    {
      name: "no-tests-from-code",
      comment: "Product code never imports test code.",
      severity: "error",
      from: { path: "^(lib|app|scripts)/", pathNot: "\\.test\\.ts$" },
      to: { path: "(^tests/|\\.test\\.ts$)" },
    },
    {
      name: "no-module-cycles",
      comment: "No module reaches itself through its imports (type-only imports included).",
      severity: "error",
      from: { path: "^lib/" },
      to: { circular: true },
    },
    {
      name: "not-to-unresolvable",
      comment: "Every import resolves.",
      severity: "error",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^lib/generated/|^node_modules/|^\\.next/)" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".mjs", ".js", ".d.ts"],
    },
    reporterOptions: {
      archi: { collapsePattern: "^lib/[^/]+|^app/api|^app/[^/]+" },
    },
  },
};
