import { spawn } from "node:child_process";
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { cpuMs } from "./processes";
import type { HoldersResult, HoldersStart } from "./widget-holders";

// npx tsx bench/holders-cpu.ts [widgets=2000] [answer after ms=100] [seconds=8] — what the
// open-widgets load generator (bench/widget-holders.ts) costs itself, in CPU time per request:
// one holders process against a trivial local server that answers every long-poll after a fixed
// delay (with an empty presence list when it asks for one). Measured after the ramp; the server counts the requests
// and the connections opened meanwhile (few: the widgets' connections are kept alive).

const [widgetCount = 2_000, answerAfterMs = 100, seconds = 8] = process.argv.slice(2).map(Number);

let requests = 0;
let connections = 0;
const server = http.createServer((request, response) => {
  requests++;
  const answer = (body: string) => response.writeHead(200, { "Content-Type": "application/json" }).end(body);
  const query = new URL(request.url!, "http://bench").searchParams;
  const cursor = Number(query.get("cursor"));
  const presence = query.has("presence") ? `,"presence":[]` : "";
  setTimeout(() => answer(`{"result":{"items":[],"next_cursor":${cursor}${presence}}}`), answerAfterMs);
});
server.on("connection", () => connections++);
server.listen(0, "127.0.0.1");
await once(server, "listening");

const holders = path.join(import.meta.dirname, "widget-holders.ts");
const child = spawn(process.execPath, ["--import", "tsx", holders], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
const start: HoldersStart = {
  widgets: Array.from({ length: widgetCount }, (_, i) => ({ conversationId: `c${i}`, token: `token-${i}`, cursor: i })),
  ports: [(server.address() as AddressInfo).port],
  localAddresses: Array.from({ length: 8 }, (_, i) => `127.0.0.${i + 2}`),
  rampMs: 2_000,
};
child.send(start);
await once(child, "message"); // "held"
child.send("measure"); // errors count from here

const before = { cpu: cpuMs(child.pid!), requests, connections };
await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
const cpu = cpuMs(child.pid!) - before.cpu;
const measured = requests - before.requests;
const connectionsOpened = connections - before.connections;
child.send("stop");
const [result] = (await once(child, "message")) as [HoldersResult];
server.closeAllConnections();
server.close();
console.log(
  JSON.stringify({
    widgets: widgetCount,
    answerAfterMs,
    requestsPerSecond: Math.round(measured / seconds),
    holdersCpuPercent: Math.round((cpu / (seconds * 1000)) * 100),
    holdersCpuUsPerRequest: Math.round((cpu * 1000) / measured),
    connectionsOpened,
    errors: result.errorCauses,
    staleConnectionRetries: result.staleConnectionRetries,
  }),
);
