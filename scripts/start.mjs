// `npm start`: the production server. Next.js serves the app, and lib/runtime/front.mjs serves the
// widget's hot routes directly and screens every request first (see there). Build first: `npm run build`.
// PORT (default 3000) and HOSTNAME (default: all interfaces) as for `next start`.
import path from "node:path";
import { parseEnvOrExit } from "../lib/core/env-schema.mjs";
import { createFrontServer } from "../lib/runtime/front.mjs";
import { configureHeap } from "../lib/runtime/heap-policy.mjs";
import { appProvided, pendingWorkSettled, requestStop, stopRequested } from "../lib/core/lifecycle.mjs";
import { installFrontSecret } from "../lib/core/peer.mjs";
import { replyHandlerOf } from "../lib/core/reply-handlers.mjs";

process.env.NODE_ENV = "production"; // before Next (and React) load
configureHeap(); // before the app allocates in earnest
// Parsed as the app parses it: a bad value stops the server here, before Next loads, with the
// message the app would give.
const { PORT: port, HOSTNAME: hostname, REQUEST_TIMEOUT_MS, SHUTDOWN_TIMEOUT_MS } = parseEnvOrExit(process.env);
// Before Next starts: the service's start (instrumentation.ts) tells whether a front passes the
// client's address to the route handlers, by this secret being there.
installFrontSecret();
// A stop asked for while the service starts (migrations may be running) does not kill the process
// mid-step: the step in progress commits or rolls back, no other begins, then the process stops.
const stopWhileStarting = (signal) => {
  console.log(`${signal} during the start: stopping once the migration step in progress has finished`);
  requestStop();
};
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, stopWhileStarting);
const { default: next } = await import("next");

const app = next({ dev: false, dir: path.resolve(import.meta.dirname, ".."), hostname: hostname ?? "localhost", port });
const handleWithNext = app.getRequestHandler();
await app.prepare();
// instrumentation.ts hands the app over once migrations and seeding are done.
const service = await appProvided();
for (const signal of ["SIGTERM", "SIGINT"]) process.off(signal, stopWhileStarting);
if (stopRequested()) {
  await service.close();
  await app.close();
  process.exit(0);
}

const server = createFrontServer({
  next: (req, res) => handleWithNext(req, res),
  hotRoutes: service.hotRoutes,
  requestTimeoutMs: REQUEST_TIMEOUT_MS,
});
// Thousands of widgets may reconnect at once after a deploy or a network blip.
server.listen({ port, host: hostname, backlog: 4096 }, () => {
  console.log(`Parley is listening on http://${hostname ?? "localhost"}:${port}`);
  // A route whose exports the route pipeline did not make is served by Next after all (slower): say so.
  const paths = Object.keys(service.hotRoutes);
  const served = paths.filter((hotPath) => Object.values(service.hotRoutes[hotPath] ?? {}).some((handler) => replyHandlerOf(handler)));
  console.log(`Served without Next's request handler: ${served.join(", ")}`);
  const leftToNext = paths.filter((hotPath) => !served.includes(hotPath));
  if (leftToNext.length > 0) console.error(`Left to Next (no route pipeline behind their exports): ${leftToNext.join(", ")}`);
});

// A graceful shutdown (docs/deploy.md): no new connections, held long-polls answered at once with
// an empty page, requests in flight and their after-work finished, then the worker and the
// database closed. Whatever is still running after SHUTDOWN_TIMEOUT_MS is cut off (exit 1).
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, async () => {
    console.log(`${signal}: finishing the requests in flight, then stopping`);
    setTimeout(() => {
      console.error(`Requests still in flight after ${SHUTDOWN_TIMEOUT_MS} ms: stopping anyway`);
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS).unref();
    await server.drain();
    await pendingWorkSettled(); // what answered requests left running (lib/http/after-response.ts)
    await service.close();
    await app.close();
    process.exit(0);
  });
}
