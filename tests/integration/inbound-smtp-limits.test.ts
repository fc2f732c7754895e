import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import net from "node:net";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import nodemailer from "nodemailer";

// The mail door under load (issue #38, defect 1): the SMTP listener runs in a process of its own
// and a real client (nodemailer) streams a message far past the 25 MB cap while the test reads
// that process's resident memory; then the connection cap and the idle timeout, over raw sockets.

const DOMAIN = "reply.acme.example";
const CAP_BYTES = 25 * 1024 * 1024;
const STREAMED_BYTES = 200 * 1024 * 1024;
const MAX_CLIENTS = 5;
const IDLE_TIMEOUT_MS = 1_000;

let child: ChildProcess;
let port: number;

beforeAll(async () => {
  child = spawn(process.execPath, ["--import", "tsx", "tests/support/smtp-listener-process.ts"], {
    env: { ...process.env, MAIL_REPLY_DOMAIN: DOMAIN, LISTENER_MAX_CLIENTS: String(MAX_CLIENTS), LISTENER_IDLE_TIMEOUT_MS: String(IDLE_TIMEOUT_MS) },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [line] = (await once(child.stdout!, "data")) as [Buffer];
  port = (JSON.parse(line.toString()) as { port: number }).port;
});

afterAll(async () => {
  if (child.exitCode === null) {
    child.kill("SIGTERM");
    await once(child, "exit");
  }
});

const residentBytes = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024;

/** An email of `bytes` bytes, made as it is read: lines of 998 letters, never held whole. */
function hugeMessage(bytes: number): Readable {
  const line = Buffer.from(`${"a".repeat(998)}\r\n`);
  const block = Buffer.concat(Array.from({ length: 256 }, () => line));
  let sent = 0;
  return new Readable({
    read() {
      if (sent === 0) this.push(`From: a@visitor.example\r\nTo: r+abc@${DOMAIN}\r\nSubject: big\r\n\r\n`);
      if (sent >= bytes) return void this.push(null);
      sent += block.byteLength;
      this.push(block);
    },
  });
}

/** A raw SMTP connection: resolves with the greeting (220, or 421 when refused). */
async function connect(): Promise<{ socket: net.Socket; greeting: string }> {
  const socket = net.connect(port, "127.0.0.1");
  socket.on("error", () => {});
  const [data] = (await once(socket, "data")) as [Buffer];
  return { socket, greeting: data.toString() };
}

/**
 * `MAX_CLIENTS` connections, all greeted 220. The first test's client may still be counted by the
 * listener for a moment after it gave up (its close is not yet seen there), so a set with a 421
 * in it is let go and tried again until the deadline; a cap below MAX_CLIENTS never gets a full set.
 */
async function fullHouse(deadlineMs = 5 * IDLE_TIMEOUT_MS): Promise<{ socket: net.Socket; greeting: string }[]> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const held = await Promise.all(Array.from({ length: MAX_CLIENTS }, connect));
    if (held.every(({ greeting }) => greeting.startsWith("220 ")) || Date.now() > until) return held;
    for (const { socket } of held) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("the inbound SMTP listener holds its door", () => {
  test("a message streamed far past the 25 MB cap is answered 552 while the listener's memory stays far below its size", async () => {
    const pid = child.pid!;
    const before = residentBytes(pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(pid))), 25);
    try {
      const client = nodemailer.createTransport({ host: "127.0.0.1", port, secure: false, ignoreTLS: true });
      const sending = client.sendMail({ envelope: { from: "a@visitor.example", to: [`r+abc@${DOMAIN}`] }, raw: hugeMessage(STREAMED_BYTES) });
      await expect(sending).rejects.toMatchObject({ responseCode: 552 });
      client.close();
    } finally {
      clearInterval(sampler);
    }
    // Kept whole, the message would grow it by its 200 MB; what is allowed is the cap's 25 MB (kept
    // until the cap is passed), socket buffers and garbage not yet collected: bounded by the cap, not the stream.
    expect(peak - before).toBeLessThan(3 * CAP_BYTES);
  }, 50_000);

  test(`connections past ${MAX_CLIENTS} are refused with 421, and an idle one is closed`, async () => {
    const held = await fullHouse();
    for (const { greeting } of held) expect(greeting).toMatch(/^220 /);
    const extra = await connect();
    expect(extra.greeting).toMatch(/^421 /);
    await once(extra.socket, "close");

    const since = Date.now();
    await Promise.all(held.map(({ socket }) => (socket.closed ? null : once(socket, "close"))));
    expect(Date.now() - since).toBeLessThan(IDLE_TIMEOUT_MS * 5);
    // Room again once they are gone.
    const again = await connect();
    expect(again.greeting).toMatch(/^220 /);
    again.socket.destroy();
  });
});
