import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, test } from "vitest";
import { INBOX_CHANNEL, MESSAGE_CHANNEL, eachEntry } from "../../lib/contracts/events";
import { APPEND_MESSAGE, APPEND_MESSAGE_SIGNALLED_AFTER } from "../../lib/conversations/statements";
import { appendValues } from "../../lib/conversations/append-message";
import { NOTIFY_PAYLOAD_BYTES, flushed, notifyAfterCommit, packPayloads } from "../../lib/realtime/coalesced-notify";
import { ensureListening, subscribe } from "../../lib/realtime/message-signals";
import { openConversation } from "../support/fixtures";
import { requireService } from "../support/requires";

const onPostgres = await requireService("postgres");

// The notification lock (docs/performance.md): the hot append commits without NOTIFY, and its
// process NOTIFYs afterwards, many writes' signals in one payload per channel, split under
// PostgreSQL's payload limit; every listener splits them again.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("packing signals into payloads", () => {
  test("joins entries by newline and splits before the byte limit, keeping every entry in order", () => {
    const entries = Array.from({ length: 600 }, (_, i) => `${randomUUID()}-${i}`);
    const payloads = packPayloads(entries);
    expect(payloads.length).toBeGreaterThan(2);
    for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThan(NOTIFY_PAYLOAD_BYTES);
    const unpacked: string[] = [];
    for (const payload of payloads) eachEntry(payload, (entry) => unpacked.push(entry));
    expect(unpacked).toEqual(entries);
  });

  test("counts bytes, not characters", () => {
    const entries = Array.from({ length: 40 }, () => "é".repeat(150)); // 300 bytes each
    const payloads = packPayloads(entries, 1_000);
    expect(payloads).toHaveLength(14); // three entries (902 bytes) fit, a fourth would not
    for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThan(1_000);
  });

  test("a single payload is one entry", () => {
    const seen: string[] = [];
    eachEntry("conversation-1", (entry) => seen.push(entry));
    expect(seen).toEqual(["conversation-1"]);
  });
});

describe.runIf(onPostgres)("signals after commit on PostgreSQL", () => {
  const clients: pg.Client[] = [];
  afterAll(() => Promise.all(clients.map((client) => client.end())));

  /** Another process's listener: a connection of its own LISTENing on the channels; the payloads it receives. */
  async function otherListener(): Promise<{ channel: string; payload: string }[]> {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    clients.push(client);
    await client.connect();
    const received: { channel: string; payload: string }[] = [];
    client.on("notification", (message) => received.push({ channel: message.channel, payload: message.payload ?? "" }));
    await client.query(`LISTEN ${MESSAGE_CHANNEL}; LISTEN ${INBOX_CHANNEL}`);
    return received;
  }

  test("the signals queued in one turn reach another listener as one payload per channel", async () => {
    const received = await otherListener();
    const ids = ["c-1", "c-2", "c-3"];
    for (const id of ids) notifyAfterCommit(MESSAGE_CHANNEL, id);
    notifyAfterCommit(INBOX_CHANNEL, "m c-1 visitor message");
    notifyAfterCommit(MESSAGE_CHANNEL, "c-2"); // twice in one flush: sent once
    await flushed();
    await sleep(200);
    expect(received).toEqual([
      { channel: MESSAGE_CHANNEL, payload: "c-1\nc-2\nc-3" },
      { channel: INBOX_CHANNEL, payload: "m c-1 visitor message" },
    ]);
  });

  test("a batch beyond the payload limit arrives split, every id once, and wakes this process's long-polls", async () => {
    const received = await otherListener();
    expect(await ensureListening()).toBe(true);
    const ids = Array.from({ length: 500 }, () => randomUUID()); // ~18.5 kB of ids
    const subscriptions = ids.map((id) => subscribe(id));
    const woken = subscriptions.map((subscription) => subscription.next(5_000));
    for (const id of ids) notifyAfterCommit(MESSAGE_CHANNEL, id);
    await flushed();
    expect(new Set(await Promise.all(woken))).toEqual(new Set(["message"]));
    for (const subscription of subscriptions) subscription.close();
    await sleep(200);
    expect(received.length).toBeGreaterThanOrEqual(3);
    const unpacked: string[] = [];
    for (const { payload } of received) eachEntry(payload, (id) => unpacked.push(id));
    expect(unpacked).toEqual(ids);
  });

  test("the hot append commits without NOTIFY; the statement other writers use still NOTIFYs on commit", async () => {
    const started = await openConversation({ body: "hi", client_id: "first" });
    const received = await otherListener();
    const writer = new pg.Client({ connectionString: process.env.DATABASE_URL });
    clients.push(writer);
    await writer.connect();
    const message = (clientId: string) => ({ conversationId: started.conversationId, authorType: "visitor" as const, authorId: "v", kind: "message" as const, body: clientId, clientId });

    const [later] = (await writer.query(APPEND_MESSAGE_SIGNALLED_AFTER.text, appendValues(message("later")))).rows;
    expect(later.sequence).toBe(2);
    await sleep(200);
    expect(received).toEqual([]); // neither the statement's NOTIFY nor the inbox trigger's

    await writer.query(APPEND_MESSAGE.text, appendValues(message("at-commit")));
    await sleep(200);
    expect(received).toEqual([
      { channel: MESSAGE_CHANNEL, payload: started.conversationId },
      { channel: INBOX_CHANNEL, payload: `m ${started.conversationId} visitor message` },
    ]);
  });
});
