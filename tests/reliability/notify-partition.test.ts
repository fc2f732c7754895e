import { afterAll, describe, expect, test } from "vitest";
import { closeDatabase } from "../../lib/db/client";
import { MESSAGE_CHANNEL } from "../../lib/contracts/events";
import { flushed, notifyAfterCommit } from "../../lib/realtime/coalesced-notify";
import { listenerConnection } from "../../lib/realtime/listener";
import { ensureListening, stopListening } from "../../lib/realtime/message-signals";
import { testDatabaseUrl } from "../support/postgres";
import { requireService } from "../support/requires";
import { proxyTheDatabase } from "../support/tcp-proxy";

// The coalesced NOTIFYs go on the process's LISTEN connection (lib/realtime/coalesced-notify.ts).
// When the network between it and PostgreSQL is partitioned, the connection gives no error for a
// long time: a flush must not hang there (every later signal of the process would queue behind
// it). The connection is dropped instead (the listener reconnects, its consumers look for
// themselves), and the flush ends. Runs only on PostgreSQL, through a TCP proxy this file controls.

const onPostgres = (await requireService("postgres")) && Boolean(testDatabaseUrl() && process.env.DATABASE_URL);
const proxy = await proxyTheDatabase(onPostgres);

afterAll(async () => {
  await proxy?.restore();
  await stopListening();
  await closeDatabase();
  await proxy?.close();
});

describe.runIf(onPostgres)("a coalesced NOTIFY on a partitioned LISTEN connection", () => {
  test("ends within a few seconds, and the silent connection is dropped", { timeout: 20_000 }, async () => {
    expect(await ensureListening()).toBe(true);
    const silent = listenerConnection();
    expect(silent).not.toBeNull();
    proxy!.stall();
    const startedAt = performance.now();
    notifyAfterCommit(MESSAGE_CHANNEL, "partitioned-conversation");
    await flushed();
    expect(performance.now() - startedAt).toBeLessThan(8_000); // 2 s on the listener, then the pool's own timeout
    expect(listenerConnection()).not.toBe(silent);
    await proxy!.restore();
    expect(await ensureListening()).toBe(true); // back, on a new connection
    expect(listenerConnection()).not.toBe(silent);
  });
});
