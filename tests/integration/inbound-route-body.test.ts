import { once } from "node:events";
import type { Server } from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import * as inboundRoute from "../../app/api/v1/inbound/email/route";
import { createFrontServer } from "../../lib/runtime/front.mjs";

// The provider route refuses a 30 MB email (issue #38, defect 1) over a real socket, as `npm start`'s
// front serves it: the sender, still writing, must read the 401 or 413 envelope, never a
// connection reset (the server closing on bytes it has not read resets the connection under its answer).

const SECRET = "inbound-secret-for-tests-0123456789";
process.env.MAIL_REPLY_DOMAIN = "reply.acme.example";
process.env.INBOUND_EMAIL_SECRET = SECRET;

const BODY_BYTES = 30 * 1024 * 1024;
let server: Server;
let port: number;

beforeAll(async () => {
  server = createFrontServer({
    next: (_req, res) => void res.writeHead(404).end(),
    hotRoutes: { "/api/v1/inbound/email": inboundRoute },
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  port = (server.address() as AddressInfo).port;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

/** POSTs a 30 MB body over a raw socket, writing as fast as the server reads; answers what came back, or how it failed. */
function postHuge(headers: Record<string, string>, chunked: boolean): Promise<{ answer: string; error: string | null }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    const received: Buffer[] = [];
    let error: string | null = null;
    socket.on("data", (data) => received.push(data));
    socket.on("error", (failure: NodeJS.ErrnoException) => (error = failure.code ?? failure.message));
    socket.on("close", () => resolve({ answer: Buffer.concat(received).toString("latin1"), error }));
    const head = { Host: "localhost", "Content-Type": "message/rfc822", Connection: "close", ...headers, ...(chunked ? { "Transfer-Encoding": "chunked" } : { "Content-Length": String(BODY_BYTES) }) };
    socket.write(`POST /api/v1/inbound/email HTTP/1.1\r\n${Object.entries(head).map(([name, value]) => `${name}: ${value}\r\n`).join("")}\r\n`);
    const block = Buffer.alloc(1024 * 1024, 0x61);
    let sent = 0;
    const writeMore = () => {
      while (sent < BODY_BYTES && !socket.destroyed) {
        sent += block.byteLength;
        const more = socket.write(chunked ? Buffer.concat([Buffer.from(`${block.byteLength.toString(16)}\r\n`), block, Buffer.from("\r\n")]) : block);
        if (!more) return void socket.once("drain", writeMore);
      }
      if (chunked && !socket.destroyed) socket.write("0\r\n\r\n");
    };
    writeMore();
  });
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1]);
const codeOf = (answer: string) => (JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)) as { result: { code: string } }).result.code;

describe("a 30 MB email posted to the provider route", () => {
  test("without the secret: the sender reads 401 unauthorized, every time", async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const { answer, error } = await postHuge({}, false);
      expect(error).toBeNull();
      expect(statusOf(answer)).toBe(401);
      expect(codeOf(answer)).toBe("unauthorized");
    }
  });

  test("with the secret: the sender reads 413 payload_too_large, whether it declared the length or streamed it chunked", async () => {
    for (const chunked of [false, true, false, true]) {
      const { answer, error } = await postHuge({ Authorization: `Bearer ${SECRET}` }, chunked);
      expect(error).toBeNull();
      expect(statusOf(answer)).toBe(413);
      expect(codeOf(answer)).toBe("payload_too_large");
    }
  });
});
