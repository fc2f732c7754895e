// `npm start`: the production server. Next.js serves the app, and lib/server/front.mjs serves the
// widget's hot routes directly and screens every request first (see there). Build first: `npm run build`.
// PORT (default 3000) and HOSTNAME (default: all interfaces) as for `next start`.
import path from "node:path";
import { createFrontServer } from "../lib/server/front.mjs";
import { installFrontSecret } from "../lib/server/peer.mjs";

process.env.NODE_ENV = "production"; // before Next (and React) load
// Before Next starts: the service's start (instrumentation.ts) tells whether a front passes the
// client's address to the route handlers, by this secret being there.
installFrontSecret();
const { default: next } = await import("next");

const port = Number(process.env.PORT || 3000);
const hostname = process.env.HOSTNAME || undefined;
const app = next({ dev: false, dir: path.resolve(import.meta.dirname, ".."), hostname: hostname ?? "localhost", port });
const handleWithNext = app.getRequestHandler();
await app.prepare();
/** @typedef {{ parleyHotRoutes?: import("../lib/server/front.mjs").HotRoutes, parleyFrontSettings?: { requestTimeoutMs: number } }} Shared */
const shared = /** @type {Shared} */ (globalThis);
const hotRoutes = () => shared.parleyHotRoutes;
// instrumentation.ts (migrations, seeding, then sharing the hot routes) may still be running.
for (const giveUpAt = Date.now() + 60_000; !hotRoutes() && Date.now() < giveUpAt; ) {
  await new Promise((resolve) => setTimeout(resolve, 50));
}

// The settings come from lib/env.ts (the one reader of the environment), shared with the hot routes.
const server = createFrontServer({
  next: (req, res) => handleWithNext(req, res),
  hotRoutes,
  requestTimeoutMs: shared.parleyFrontSettings?.requestTimeoutMs,
});
// Thousands of widgets may reconnect at once after a deploy or a network blip.
server.listen({ port, host: hostname, backlog: 4096 }, () => {
  const direct = Object.keys(hotRoutes() ?? {});
  console.log(`Parley is listening on http://${hostname ?? "localhost"}:${port}`);
  console.log(direct.length ? `Served without Next's request handler: ${direct.join(", ")}` : "Next serves every route (no hot routes were shared)");
});

for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    // Held long-polls would keep it open for up to 25 s; widgets retry on their own.
    setTimeout(() => process.exit(0), 2_000).unref();
  });
}
