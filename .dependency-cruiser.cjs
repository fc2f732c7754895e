// The layers of ../shared/CONVENTIONS.md ("Layers"; the table in docs/architecture.md), checked in
// `npm test` by tests/contract/layers.test.ts, which runs dependency-cruiser with these rules and
// fails on any violation (there is no list of tolerated ones). Leaves at the bottom, policy on top;
// each rule names the direction an import must not take. `npm run deps:graph` draws the folders.
// The widget's rules (widget-*) keep its bundles apart: docs/widget.md, "Source layout"; the inbox's
// (inbox-*) keep its areas apart: docs/inbox.md, "Inbox source layout".

/** A folder directly under lib/, as a path pattern. */
const lib = (...folders) => `^lib/(${folders.join("|")})/`;

/**
 * The rooms of lib/email/, one job each, in the order they may import each other: the suppression
 * list and unsubscribes; the signed links and addresses in emails; the outbox and its transport;
 * replies and bounces coming back. The emails themselves (lib/email/*.ts) are written on top.
 */
const EMAIL_ROOMS = ["suppression", "links", "sending", "inbound"];

/** The staff inbox's components (issue #42): a folder per area, ui/ and shared/ below them. */
const INBOX = "app/inbox/_components";

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
    // lib/email/ by job, each room importing only the rooms before it in EMAIL_ROOMS.
    ...EMAIL_ROOMS.slice(0, -1).map((room, index) => ({
      name: `email-${room}-below-${EMAIL_ROOMS.slice(index + 1).join("-")}`,
      comment: `lib/email/${room}/ imports no later room of lib/email/ (${EMAIL_ROOMS.join(" < ")}; docs/architecture.md).`,
      severity: "error",
      from: { path: `^lib/email/${room}/` },
      to: { path: `^lib/email/(${EMAIL_ROOMS.slice(index + 1).join("|")})/` },
    })),
    {
      name: "email-rooms-below-the-emails",
      comment: "The rooms of lib/email/ read only its two leaves (email-kinds.ts, templates.ts), never the emails written on top of them.",
      severity: "error",
      from: { path: `^lib/email/(${EMAIL_ROOMS.join("|")})/` },
      to: { path: "^lib/email/[^/]+$", pathNot: "^lib/email/(email-kinds|templates)\\.ts$" },
    },
    {
      name: "email-leaves",
      comment: "lib/email/email-kinds.ts and templates.ts, which every room reads, import nothing else of lib/email/.",
      severity: "error",
      from: { path: "^lib/email/(email-kinds|templates)\\.ts$" },
      to: { path: "^lib/email/" },
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
      name: "widget-no-module-cycles",
      comment: "No module of the widget reaches itself through its imports (type-only imports included).",
      severity: "error",
      from: { path: "^widget/" },
      to: { circular: true },
    },
    {
      name: "widget-leaves",
      comment:
        "widget/src/shared/ (types, the event map, the session, strings, markup helpers: what the panel hands its chunks) and widget/src/strings/ (English by part, the languages) import nothing above them.",
      severity: "error",
      from: { path: "^widget/src/(shared|strings)/" },
      to: { path: "^widget/src/(loader|panel|chunks)/" },
    },
    {
      name: "widget-strings-are-data",
      comment: "widget/src/strings/ holds tables and their types only: it imports nothing outside itself.",
      severity: "error",
      from: { path: "^widget/src/strings/" },
      to: { pathNot: "^widget/src/strings/" },
    },
    {
      name: "widget-chunks-import-only-shared",
      comment:
        "A chunk loaded on need (widget/src/chunks/<name>/) imports only shared code (widget/src/shared/, widget/src/strings/) and its own folder: the build hands it the panel's instances of shared modules, so an import of the panel's own would load a second copy with state of its own.",
      severity: "error",
      from: { path: "^widget/src/chunks/([^/]+)/" },
      to: { path: "^widget/src/", pathNot: ["^widget/src/(shared|strings)/", "^widget/src/chunks/$1/"] },
    },
    {
      name: "widget-bundles-apart",
      comment: "The loader (widget.js) and the panel never import each other or a chunk: they meet through the types in widget/src/shared/ and load each other as scripts.",
      severity: "error",
      from: { path: "^widget/src/(loader|panel)/" },
      to: { path: "^widget/src/(loader|panel|chunks)/", pathNot: "^widget/src/$1/" },
    },
    {
      name: "widget-apart-from-the-service",
      comment: "The widget runs in customers' pages: of the service's code it imports only the site config's plain type (lib/contracts/widget-config-shape.ts).",
      severity: "error",
      from: { path: "^widget/" },
      to: { path: "^(lib|app)/", pathNot: "^lib/contracts/widget-config-shape\\.ts$" },
    },
    // app/inbox/_components/ by area (docs/inbox.md, "Inbox source layout"): ui/ at the bottom,
    // shared/ above it, each feature folder on top importing only those two and itself.
    {
      name: "inbox-ui-imports-no-feature",
      comment:
        "app/inbox/_components/ui/ (table, select, filter form, copy button, feedback line, time, confirm) holds primitives: it imports nothing else of app/, so any area can use it.",
      severity: "error",
      from: { path: `^${INBOX}/ui/` },
      to: { path: "^app/", pathNot: [`^${INBOX}/ui/`, "\\.css$"] },
    },
    {
      name: "inbox-shared-imports-no-feature",
      comment:
        "app/inbox/_components/shared/ (the inbox API call, the staff session, saving a form, names and types several areas read) imports only ui/ and itself: never an area.",
      severity: "error",
      from: { path: `^${INBOX}/shared/` },
      to: { path: "^app/", pathNot: [`^${INBOX}/(ui|shared)/`, "\\.css$"] },
    },
    {
      name: "inbox-areas-apart",
      comment:
        "An area of the inbox (app/inbox/_components/<area>/: conversations, settings, frame, …) imports only ui/, shared/ and its own folder: what two areas need goes down into shared/ or ui/; the pages put areas together.",
      severity: "error",
      from: { path: `^${INBOX}/([^/]+)/`, pathNot: `^${INBOX}/(ui|shared)/` },
      to: { path: "^app/", pathNot: [`^${INBOX}/(ui|shared)/`, `^${INBOX}/$1/`, "\\.css$"] },
    },
    {
      name: "inbox-components-in-areas",
      comment: "Every inbox component lives in an area's folder or in ui/ or shared/, none loose in app/inbox/_components/.",
      severity: "error",
      from: { path: `^${INBOX}/[^/]+$` },
      to: {},
    },
    {
      name: "app-no-module-cycles",
      comment: "No module of app/ (pages, routes, the inbox's components) reaches itself through its imports (type-only imports included).",
      severity: "error",
      from: { path: "^app/" },
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
