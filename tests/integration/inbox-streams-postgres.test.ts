import net from "node:net";
import pg from "pg";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { INBOX_CHANNEL, stopInboxListening } from "../../lib/realtime/inbox-signals";
import { api } from "../support/api";
import { abortEventStreams, openEventStream, type EventStream } from "../support/event-stream";
import { openConversation } from "../support/fixtures";
import { as, createStaff } from "../support/inbox";
import { requireService } from "../support/requires";

const onPostgres = await requireService("postgres");

// The inbox's live channel behind a transaction pooler (issue #23, item 8). DATABASE_URL goes
// through a stand-in for one (PgBouncer in transaction mode): it carries every query, but a session
// that sends LISTEN is ended, since LISTEN cannot work through a pooler. DIRECT_DATABASE_URL is the
// database itself, as docs/deploy.md says to configure it. Also: the "session ended" signal travels
// as a NOTIFY, so every instance's listener gets it (items 2).

interface PoolerStandIn {
  port: number;
  /** Sessions ended because they sent LISTEN. */
  refusedListens: number;
  close(): Promise<void>;
}

/** The SQL of a frontend Query ('Q') or Parse ('P') message, else null. */
function sqlOf(type: number, body: Buffer): string | null {
  const cstrings = body.toString("utf8").split("\0");
  if (type === 0x51) return cstrings[0] ?? null; // Query: the text
  if (type === 0x50) return cstrings[1] ?? null; // Parse: the statement's name, then its text
  return null;
}

async function startPoolerStandIn(target: { host: string; port: number }): Promise<PoolerStandIn> {
  const sockets = new Set<net.Socket>();
  const state = { refusedListens: 0 };
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    // Frontend messages: startup messages (length first, no type byte; an SSL or GSS request is
    // followed by another), then a type byte and a length each.
    let buffered = Buffer.alloc(0);
    let startup = true;
    client.on("data", (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        if (startup) {
          if (buffered.length < 8) break;
          const length = buffered.readInt32BE(0);
          if (buffered.length < length) break;
          const code = buffered.readInt32BE(4);
          startup = code === 80877103 || code === 80877104; // SSLRequest, GSSENCRequest
          buffered = buffered.subarray(length);
          continue;
        }
        if (buffered.length < 5) break;
        const length = buffered.readInt32BE(1);
        if (buffered.length < 1 + length) break;
        const sql = sqlOf(buffered[0]!, buffered.subarray(5, 1 + length));
        buffered = buffered.subarray(1 + length);
        if (sql && /^\s*LISTEN\b/i.test(sql)) {
          state.refusedListens += 1;
          drop();
          return;
        }
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => client.write(chunk));
    client.on("error", drop).on("close", drop);
    upstream.on("error", drop).on("close", drop);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    get refusedListens() {
      return state.refusedListens;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

let pooler: PoolerStandIn | undefined;
if (onPostgres) {
  // Before anything reads the environment (lib/core/env.ts parses it once).
  const direct = new URL(process.env.DATABASE_URL!);
  pooler = await startPoolerStandIn({ host: direct.hostname, port: Number(direct.port || 5432) });
  const pooled = new URL(direct);
  pooled.hostname = "127.0.0.1";
  pooled.port = String(pooler.port);
  process.env.DIRECT_DATABASE_URL = direct.toString();
  process.env.DATABASE_URL = pooled.toString();
}

afterEach(() => abortEventStreams());
afterAll(async () => {
  await stopInboxListening();
  await pooler?.close();
});

async function opened(cookie: string): Promise<EventStream> {
  const stream = await openEventStream(cookie);
  expect(stream.status).toBe(200);
  expect(await stream.ready()).toBe(true);
  return stream;
}

describe.runIf(onPostgres)("the inbox's live channel on PostgreSQL behind a transaction pooler", () => {
  test("with DATABASE_URL refusing LISTEN and DIRECT_DATABASE_URL direct, inbox events still arrive on the stream", async () => {
    const agent = await createStaff("agent", "Paula Pooled");
    const stream = await opened(agent.cookie);
    const chat = await openConversation({ body: "through the pooler" });
    expect(await stream.until(() => stream.text.includes(chat.conversationId), 5_000)).toBe(true);
    expect(pooler!.refusedListens).toBe(0);
  });

  test("sign-out and deactivation end streams through a NOTIFY that every instance's listener receives", async () => {
    // Another instance: a LISTEN connection of its own on the direct URL. On PostgreSQL this
    // instance's streams end the same way, through its LISTEN connection: there is no shortcut
    // inside the process.
    const otherInstance = new pg.Client({ connectionString: process.env.DIRECT_DATABASE_URL });
    const received: string[] = [];
    otherInstance.on("notification", (message) => message.payload && received.push(message.payload));
    await otherInstance.connect();
    try {
      await otherInstance.query(`LISTEN ${INBOX_CHANNEL}`);
      const owner = await createStaff("owner", "Olly Owner");
      const agent = await createStaff("agent", "Sid Signout");
      const prisma = await db();
      const [session] = await prisma.staffSession.findMany({ where: { memberId: agent.id } });
      const stream = await opened(agent.cookie);
      expect((await api.delete("/api/v1/inbox/session", as(agent))).status).toBe(200);
      expect(await stream.ended()).toBe(true);

      const deactivated = await createStaff("agent", "Dot Deactivated");
      const theirs = await opened(deactivated.cookie);
      const ownersStream = await opened(owner.cookie);
      expect((await api.post(`/api/v1/inbox/members/${deactivated.id}/deactivate`, as(owner))).status).toBe(200);
      expect(await theirs.ended()).toBe(true);
      expect(ownersStream.done).toBe(false);

      const expected = [`s ${session!.id}`, `d ${deactivated.id}`];
      expect(await stream.until(() => expected.every((payload) => received.includes(payload)), 2_000)).toBe(true);
    } finally {
      await otherInstance.end();
    }
  });
});
