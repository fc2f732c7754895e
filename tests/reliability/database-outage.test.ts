import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { closeDatabase, db } from "../../lib/db/client";
import { stopListening } from "../../lib/realtime/message-signals";
import { api, type ApiResponse } from "../support/api";
import { TEST_ADMIN_TOKEN } from "../support/database-per-file";
import { createSite, ORIGIN, startConversation, type Started } from "../support/fixtures";
import { ascending, percentile } from "../../bench/stats";
import { sleep } from "../support/load";
import { testDatabaseUrl } from "../support/postgres";
import { requireService } from "../support/requires";
import { captureStderr } from "../support/response-recorder";
import { proxyTheDatabase } from "../support/tcp-proxy";

// PostgreSQL goes away in the middle of traffic and comes back. The service's connection runs
// through a TCP proxy this file controls (DATABASE_URL is re-pointed at it before anything opens
// the database). Eight widgets keep sending throughout, retrying a send that was not acknowledged
// (same client_id) after the Retry-After they were given, capped at 250 ms to keep this short.
// Two breaks: a cut (the server is gone: connections reset, new ones refused) and a partition
// (connections stay open, nothing gets through either way, until the network heals).
// Claims: while it is down every request answers 503 service_unavailable with Retry-After within
// 2 s — for a cut and for a partition alike (docs/api.md) — never a 500 or a hang; once it is back, every widget succeeds within 5 s, with no restart; every acknowledged
// message is stored exactly once. Runs only on PostgreSQL (TEST_DATABASE_URL).

const onPostgres = (await requireService("postgres")) && Boolean(testDatabaseUrl() && process.env.DATABASE_URL);
const proxy = await proxyTheDatabase(onPostgres);
process.env.RATE_LIMITS = "off";
process.env.LOG_LEVEL = "info";

const stderr = captureStderr();
afterAll(async () => {
  stderr.stop();
  await proxy?.restore();
  await stopListening();
  await closeDatabase();
  await proxy?.close();
});

interface Exchange {
  at: number;
  ms: number;
  status: number;
  code?: string;
  retryAfter: string | null;
}

/** A widget that keeps sending until told to stop, retrying each unacknowledged message. */
class Widget {
  readonly exchanges: Exchange[] = [];
  readonly acknowledged = new Map<string, { id: string; sequence: number }>();
  private stopped = false;
  private running: Promise<void> | undefined;

  constructor(
    readonly visitor: Started,
    private readonly clock: () => number,
    private readonly phase: string,
  ) {}

  start(): void {
    this.running = this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async request(call: () => Promise<ApiResponse>): Promise<ApiResponse> {
    const startedAt = performance.now();
    const response = await call();
    this.exchanges.push({
      at: this.clock(),
      ms: performance.now() - startedAt,
      status: response.status,
      code: response.json?.result?.code,
      retryAfter: response.headers.get("retry-after"),
    });
    return response;
  }

  private async loop(): Promise<void> {
    for (let m = 0; !this.stopped; m++) {
      const clientId = `${this.phase}-${m}`;
      // A message once sent is retried until acknowledged, even after stop(): nothing is dropped.
      for (;;) {
        const response = await this.request(() =>
          api.post("/api/v1/chat/visitor/messages", { origin: ORIGIN, token: this.visitor.token, body: { body: `message ${m}`, client_id: clientId } }),
        );
        if (response.status === 200 || response.status === 201) {
          this.acknowledged.set(clientId, { id: response.json.result.message.id, sequence: response.json.result.message.sequence });
          break;
        }
        await sleep(Math.min(250, Number(response.headers.get("retry-after") ?? 1) * 1000));
      }
      if (m % 3 === 0) await this.request(() => api.get(`/api/v1/chat/visitor/messages?cursor=${Math.max(0, m - 2)}`, { origin: ORIGIN, token: this.visitor.token }));
      await sleep(20);
    }
  }
}

const UNAVAILABLE_WITHIN_MS = 2_000;
const RECOVERED_WITHIN_MS = 5_000;
// A partition is told from a slow query by a liveness probe on a connection of its own (lib/db/client.ts):
// the same 2 s as a cut (it was the 6 s client-side query timeout: issue 9, item 6).
const PARTITION_ANSWERED_WITHIN_MS = UNAVAILABLE_WITHIN_MS;
// Long enough for both ways a partition shows: a query on an open connection (no answer: the
// probe) and then, on the retry, a new connection (no handshake: the connect timeout).
const PARTITION_MS = 1_700 + 250 + 1_500 + 1_000;

/** Runs widgets for every visitor through `disrupt`, which breaks the path and mends it. */
async function runThrough(visitors: Started[], phase: string, disrupt: (clock: () => number) => Promise<{ brokeAt: number; mendedAt: number }>) {
  const t0 = performance.now();
  const clock = () => performance.now() - t0;
  const widgets = visitors.map((visitor) => new Widget(visitor, clock, phase));
  widgets.forEach((widget) => widget.start());
  const { brokeAt, mendedAt } = await disrupt(clock);
  await sleep(2_000);
  await Promise.all(widgets.map((widget) => widget.stop()));

  const exchanges = widgets.flatMap((widget) => widget.exchanges);
  const whileBroken = exchanges.filter((exchange) => exchange.at - exchange.ms >= brokeAt && exchange.at <= mendedAt);
  const firstUnavailable = Math.min(...exchanges.filter((exchange) => exchange.status === 503).map((exchange) => exchange.at));
  const recoveredAt = (widget: Widget) => Math.min(...widget.exchanges.filter((e) => e.at - e.ms >= mendedAt && e.status < 300).map((e) => e.at));
  return {
    widgets,
    exchanges,
    whileBroken,
    toFirst503: firstUnavailable - brokeAt,
    toFirstSuccess: Math.min(...widgets.map(recoveredAt)) - mendedAt,
    toEverySuccess: Math.max(...widgets.map(recoveredAt)) - mendedAt,
    slowest: Math.max(...exchanges.map((exchange) => exchange.ms)),
  };
}

function expectOnly503sWhileBroken(run: Awaited<ReturnType<typeof runThrough>>): void {
  expect(run.exchanges.filter((exchange) => exchange.status >= 500 && exchange.status !== 503)).toEqual([]);
  expect(run.whileBroken.length).toBeGreaterThan(8);
  for (const exchange of run.whileBroken) {
    expect(exchange).toMatchObject({ status: 503, code: "service_unavailable" });
    expect(Number(exchange.retryAfter)).toBeGreaterThan(0);
  }
}

describe.runIf(onPostgres)("PostgreSQL unreachable mid-run", () => {
  let siteId: string;
  let visitors: Started[];
  /** Every acknowledgement per conversation, over all phases. */
  const acknowledged = new Map<string, Map<string, { id: string; sequence: number }>>();
  const remember = (widgets: Widget[]) => {
    for (const widget of widgets) {
      const known = acknowledged.get(widget.visitor.conversationId) ?? new Map();
      for (const [clientId, ack] of widget.acknowledged) known.set(clientId, ack);
      acknowledged.set(widget.visitor.conversationId, known);
    }
  };

  async function expectEveryAcknowledgedMessageStoredOnce(): Promise<number> {
    const prisma = await db();
    let total = 0;
    for (const [conversationId, acks] of acknowledged) {
      const stored = await prisma.message.findMany({ where: { conversationId }, select: { id: true, clientId: true, sequence: true }, orderBy: { sequence: "asc" } });
      expect(stored.map((message) => message.sequence)).toEqual(stored.map((_, index) => index + 1));
      expect(new Map(stored.map((message) => [message.clientId, { id: message.id, sequence: message.sequence }]))).toEqual(acks);
      total += stored.length;
    }
    return total;
  }

  beforeAll(async () => {
    siteId = (await createSite()).id;
    visitors = await Promise.all(Array.from({ length: 8 }, () => startConversation(siteId)));
  });

  test("cut (server gone): 503 with Retry-After within 2 s, back within 5 s without a restart, no acknowledged message lost", { timeout: 40_000 }, async () => {
    const run = await runThrough(visitors, "cut", async (clock) => {
      await sleep(1_500);
      const brokeAt = clock();
      await proxy!.cut();

      // While it is down, fresh requests of every family answer 503 quickly.
      await sleep(300);
      const probes = await Promise.all(
        [
          () => api.post(`/api/v1/chat/widget/${siteId}/conversations`, { origin: ORIGIN, body: {} }),
          () => api.get("/api/v1/chat/visitor/presence", { origin: ORIGIN, token: visitors[0]!.token }),
          () => api.post("/api/v1/chat/visitor/renew", { origin: ORIGIN, token: visitors[1]!.token }),
          () => api.get(`/api/v1/admin/conversations?site=${siteId}`, { admin: true }),
        ].map(async (call) => {
          const startedAt = performance.now();
          const response = await call();
          return { response, ms: performance.now() - startedAt };
        }),
      );
      for (const { response, ms } of probes) {
        expect({ status: response.status, code: response.json.result.code }).toEqual({ status: 503, code: "service_unavailable" });
        expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(ms).toBeLessThan(UNAVAILABLE_WITHIN_MS);
      }
      await sleep(2_200);
      const mendedAt = clock();
      await proxy!.restore();
      return { brokeAt, mendedAt };
    });
    remember(run.widgets);

    expectOnly503sWhileBroken(run);
    expect(run.slowest).toBeLessThan(UNAVAILABLE_WITHIN_MS);
    expect(run.toFirst503).toBeLessThan(UNAVAILABLE_WITHIN_MS);
    expect(run.toEverySuccess).toBeLessThan(RECOVERED_WITHIN_MS);
    const stored = await expectEveryAcknowledgedMessageStoredOnce();

    process.stdout.write(
      `database cut: ${run.exchanges.length} requests; cut → first 503 in ${run.toFirst503.toFixed(0)} ms; ${run.whileBroken.length} answers while down, all 503 ` +
        `(p99 ${percentile(ascending(run.whileBroken.map((e) => e.ms)), 0.99).toFixed(0)} ms, slowest request of the run ${run.slowest.toFixed(0)} ms); ` +
        `restore → first success ${run.toFirstSuccess.toFixed(0)} ms, every widget ${run.toEverySuccess.toFixed(0)} ms; ${stored} acknowledged messages stored once\n`,
    );
  });

  test("partition (connections open, nothing answers): 503 within 2 s, never a hang; back within 5 s; nothing lost", { timeout: 40_000 }, async () => {
    const probes: { status: number; code: string; ms: number }[] = [];
    const run = await runThrough(visitors, "partition", async (clock) => {
      await sleep(1_000);
      const brokeAt = clock();
      proxy!.stall();
      // Fresh requests of every family, on pooled connections that are now stuck and then on new
      // ones whose handshake never completes: each answers 503 within 2 s.
      for (const wait of [300, 2_000]) {
        await sleep(wait);
        probes.push(
          ...(await Promise.all(
            [
              () => api.post(`/api/v1/chat/widget/${siteId}/conversations`, { origin: ORIGIN, body: {} }),
              () => api.get("/api/v1/chat/visitor/presence", { origin: ORIGIN, token: visitors[0]!.token }),
              () => api.get(`/api/v1/admin/conversations?site=${siteId}`, { admin: true }),
            ].map(async (call) => {
              const startedAt = performance.now();
              const response = await call();
              return { status: response.status, code: response.json.result?.code, ms: performance.now() - startedAt };
            }),
          )),
        );
      }
      await sleep(Math.max(0, PARTITION_MS - (clock() - brokeAt)));
      const mendedAt = clock();
      await proxy!.restore();
      return { brokeAt, mendedAt };
    });
    remember(run.widgets);

    // A request started in the partition is answered 503 — or, if still waiting when the network
    // heals, served normally. Nothing else, and nothing slower than the query timeout.
    expect(run.exchanges.filter((exchange) => exchange.status >= 500 && exchange.status !== 503)).toEqual([]);
    for (const widget of run.widgets) expect(widget.exchanges.some((exchange) => exchange.status === 503)).toBe(true);
    for (const exchange of run.whileBroken) {
      expect(exchange).toMatchObject({ status: 503, code: "service_unavailable" });
      expect(Number(exchange.retryAfter)).toBeGreaterThan(0);
    }
    for (const probe of probes) expect(probe).toMatchObject({ status: 503, code: "service_unavailable", ms: expect.any(Number) });
    expect(Math.max(...probes.map((probe) => probe.ms))).toBeLessThan(PARTITION_ANSWERED_WITHIN_MS);
    expect(run.toFirst503).toBeLessThan(PARTITION_ANSWERED_WITHIN_MS);
    expect(run.slowest).toBeLessThan(PARTITION_ANSWERED_WITHIN_MS);
    expect(run.toEverySuccess).toBeLessThan(RECOVERED_WITHIN_MS);
    const stored = await expectEveryAcknowledgedMessageStoredOnce();

    process.stdout.write(
      `database partition: ${run.exchanges.length} requests; first 503 after ${run.toFirst503.toFixed(0)} ms; ${run.whileBroken.length} answers while partitioned, all 503 ` +
        `(slowest request ${run.slowest.toFixed(0)} ms, slowest fresh probe ${Math.max(...probes.map((probe) => probe.ms)).toFixed(0)} ms); heal → first success ${run.toFirstSuccess.toFixed(0)} ms, every widget ${run.toEverySuccess.toFixed(0)} ms; ` +
        `${stored} acknowledged messages stored once\n`,
    );
  });

  test("the outage is logged as database_unavailable, with no 500 and no credential in the log", () => {
    const lines = stderr.lines();
    expect(lines.some((line) => line.includes('"database_unavailable"'))).toBe(true);
    expect(lines.filter((line) => line.includes('"unhandled_error"'))).toEqual([]);
    for (const line of lines) {
      expect(line).not.toContain(TEST_ADMIN_TOKEN);
      for (const visitor of visitors) expect(line).not.toContain(visitor.token);
    }
  });
});
