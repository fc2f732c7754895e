import { describe, expect, test } from "vitest";
import { dailyUsage } from "../../lib/allowance/daily-allowance";
import { db } from "../../lib/db/client";
import { api, type ApiResponse } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite, ORIGIN } from "../support/fixtures";
import { ascending, percentile } from "../../bench/stats";
import { pool, seededRandom } from "../support/load";
import { postTicket, ticket } from "../support/tickets";

// Concurrency invariants under a bounded load: LOAD_VISITORS visitors (default 200), LOAD_AT_ONCE
// of them at a time (default 20), each sending LOAD_MESSAGES messages (default 25). A share of
// the sends (20 %) is sent twice at once with the same client_id, as a widget retrying a send
// whose answer it never saw; halfway through, every visitor renews its token twice at once while
// sending. Afterwards: each message stored exactly once, sequences 1..N per conversation, exactly
// one winner per renew race, and the daily allowance never exceeded.

process.env.RATE_LIMITS = "off"; // load, not abuse: the limits have their own tests

const VISITORS = Number(process.env.LOAD_VISITORS ?? 200);
const MESSAGES = Number(process.env.LOAD_MESSAGES ?? 25);
const AT_ONCE = Number(process.env.LOAD_AT_ONCE ?? 20);
const RETRY_SHARE = 0.2;
const RENEW_AT = Math.floor(MESSAGES / 2);
const SEED = Number(process.env.LOAD_SEED ?? 20261122);

interface Acknowledged {
  id: string;
  sequence: number;
  clientId: string;
}

interface VisitorOutcome {
  conversationId: string;
  token: string;
  acknowledged: Acknowledged[];
  renewStatuses: number[];
}

const stats = { sends: 0, retriedPairs: 0, duplicatesAnswered: 0, sentDuringRenew401: 0, latencies: [] as number[] };

async function timed(request: () => Promise<ApiResponse>): Promise<ApiResponse> {
  const startedAt = performance.now();
  const response = await request();
  stats.latencies.push(performance.now() - startedAt);
  stats.sends += 1;
  return response;
}

const send = (token: string, clientId: string, body: string) =>
  timed(() => api.post("/api/v1/chat/visitor/messages", { origin: ORIGIN, token, body: { body, client_id: clientId } }));

function acknowledged(response: ApiResponse, clientId: string): Acknowledged {
  expect([200, 201]).toContain(response.status);
  const message = response.json.result.message;
  expect(message.client_id).toBe(clientId);
  return { id: message.id, sequence: message.sequence, clientId };
}

async function visitorLife(siteId: string, index: number): Promise<VisitorOutcome> {
  const random = seededRandom(SEED + index);
  const started = await api.post(`/api/v1/chat/widget/${siteId}/conversations`, { origin: ORIGIN, body: { name: `Visitor ${index}` } });
  expect(started.status).toBe(201);
  let token: string = started.json.result.visitor_token;
  const acknowledgedMessages: Acknowledged[] = [];
  let renewStatuses: number[] = [];

  for (let m = 0; m < MESSAGES; m++) {
    const clientId = `v${index}-m${m}`;
    const body = `Message ${m} from visitor ${index}`;
    if (m === RENEW_AT) {
      // Two renews and a send race on the same token.
      const [first, second, during] = await Promise.all([
        api.post("/api/v1/chat/visitor/renew", { origin: ORIGIN, token }),
        api.post("/api/v1/chat/visitor/renew", { origin: ORIGIN, token }),
        send(token, clientId, body),
      ]);
      renewStatuses = [first.status, second.status].sort();
      const winner = [first, second].find((response) => response.status === 200);
      if (winner) token = winner.json.result.visitor_token;
      let sent = during;
      if (sent.status === 401) {
        stats.sentDuringRenew401 += 1;
        sent = await send(token, clientId, body); // the widget retries with its new token
      }
      acknowledgedMessages.push(acknowledged(sent, clientId));
    } else if (random() < RETRY_SHARE) {
      const pair = await Promise.all([send(token, clientId, body), send(token, clientId, body)]);
      stats.retriedPairs += 1;
      expect(pair.map((response) => response.status).sort()).toEqual([200, 201]);
      expect(pair.map((response) => response.json.result.duplicate).sort()).toEqual([false, true]);
      const [a, b] = pair.map((response) => acknowledged(response, clientId));
      expect(a).toEqual(b);
      stats.duplicatesAnswered += 1;
      acknowledgedMessages.push(a!);
    } else {
      const response = await send(token, clientId, body);
      expect(response.status).toBe(201);
      acknowledgedMessages.push(acknowledged(response, clientId));
    }
  }
  return { conversationId: started.json.result.conversation_id, token, acknowledged: acknowledgedMessages, renewStatuses };
}

describe("under concurrent load nothing is lost, doubled or overdrawn", () => {
  test(`${VISITORS} visitors × ${MESSAGES} messages, ${AT_ONCE} at a time, with retried sends and racing renews`, { timeout: 110_000 }, async () => {
    const site = await createSite({ daily_allowance: VISITORS });
    const startedAt = performance.now();
    const outcomes = await pool(VISITORS, AT_ONCE, (index) => visitorLife(site.id, index));
    const seconds = (performance.now() - startedAt) / 1000;

    // Exactly one winner per renew race, and the loser a plain 401.
    for (const outcome of outcomes) expect(outcome.renewStatuses).toEqual([200, 401]);

    // Every acknowledged message stored exactly once, sequences 1..N in every conversation.
    const prisma = await db();
    const rows = await prisma.$queryRaw<{ conversation_id: string; messages: number; distinct_sequences: number; first: number; last: number; distinct_clients: number }[]>`
      SELECT m.conversation_id, count(*)::int AS messages, count(DISTINCT m.sequence)::int AS distinct_sequences,
             min(m.sequence)::int AS first, max(m.sequence)::int AS last, count(DISTINCT m.client_id)::int AS distinct_clients
      FROM messages m JOIN conversations c ON c.id = m.conversation_id
      WHERE c.site_id = ${site.id}
      GROUP BY m.conversation_id`;
    expect(rows.length).toBe(VISITORS);
    for (const row of rows) {
      expect(row).toMatchObject({ messages: MESSAGES, distinct_sequences: MESSAGES, first: 1, last: MESSAGES, distinct_clients: MESSAGES });
    }
    const stored = new Map(
      (
        await prisma.message.findMany({
          where: { conversation: { siteId: site.id } },
          select: { id: true, sequence: true, clientId: true, conversationId: true },
        })
      ).map((message) => [message.id, message]),
    );
    for (const outcome of outcomes) {
      expect(outcome.acknowledged.length).toBe(MESSAGES);
      for (const ack of outcome.acknowledged) {
        expect(stored.get(ack.id)).toEqual({ id: ack.id, sequence: ack.sequence, clientId: ack.clientId, conversationId: outcome.conversationId });
      }
    }
    expect(stored.size).toBe(VISITORS * MESSAGES);

    // One live token per conversation: the renew winner's.
    const liveTokens = await prisma.visitorToken.groupBy({
      by: ["conversationId"],
      where: { conversation: { siteId: site.id }, rotatedAt: null },
      _count: { _all: true },
    });
    expect(liveTokens.length).toBe(VISITORS);
    expect(liveTokens.every((group) => group._count._all === 1)).toBe(true);

    // Each visitor reads back its own history, complete and in order, with the token it ended with.
    await pool(VISITORS, AT_ONCE, async (index) => {
      const outcome = outcomes[index]!;
      const listed = await api.get("/api/v1/chat/visitor/messages?limit=100", { origin: ORIGIN, token: outcome.token });
      expect(listed.status).toBe(200);
      expect(listed.json.result.items.map((item: { id: string }) => item.id)).toEqual(outcome.acknowledged.map((ack) => ack.id));
    });

    // The allowance was exactly the number of visitors: it is spent, and stays so under a burst.
    const burst = await Promise.all([
      ...Array.from({ length: 10 }, () => api.post(`/api/v1/chat/widget/${site.id}/conversations`, { origin: ORIGIN, body: {} })),
      ...Array.from({ length: 10 }, () => postTicket(site.id, ticket())),
    ]);
    for (const response of burst) expectError(response, 429, "daily_allowance_exhausted");
    expect(await dailyUsage(prisma, site.inbox_id)).toBe(VISITORS);

    process.stdout.write(
      `load: ${VISITORS} visitors × ${MESSAGES} messages in ${seconds.toFixed(1)} s; ${stats.sends} sends ` +
        `(${stats.retriedPairs} retried pairs answered once as new and once as duplicate, ${stats.sentDuringRenew401} sends refused mid-renew and resent), ` +
        `${VISITORS * 2} renews (${VISITORS} winners); send latency p50 ${percentile(ascending(stats.latencies), 0.5).toFixed(1)} ms, ` +
        `p99 ${percentile(ascending(stats.latencies), 0.99).toFixed(1)} ms; ${stored.size} messages stored, each once\n`,
    );
  });

  test("[Chatwoot CVE-2022-3741] a burst of starts and tickets never overdraws the daily allowance", async () => {
    const allowance = 30;
    const site = await createSite({ daily_allowance: allowance });
    const responses = await Promise.all([
      ...Array.from({ length: 40 }, (_, i) => api.post(`/api/v1/chat/widget/${site.id}/conversations`, { origin: ORIGIN, body: { body: `hi ${i}` } })),
      ...Array.from({ length: 40 }, (_, i) => postTicket(site.id, ticket({ subject: `Ticket ${i}` }))),
    ]);
    const created = responses.filter((response) => response.status === 201);
    const refused = responses.filter((response) => response.status !== 201);
    expect(created.length).toBe(allowance);
    for (const response of refused) expectError(response, 429, "daily_allowance_exhausted");

    const prisma = await db();
    const [conversations, tickets] = await Promise.all([prisma.conversation.count({ where: { siteId: site.id } }), prisma.ticket.count({ where: { siteId: site.id } })]);
    expect(conversations + tickets).toBe(allowance);
    expect(await dailyUsage(prisma, site.inbox_id)).toBe(allowance);
    // Ticket numbers stay gapless from the client's view even though refused draws raced them.
    const numbers = (await prisma.ticket.findMany({ where: { siteId: site.id }, select: { number: true } })).map((row) => row.number).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: tickets }, (_, i) => i + 1));
  });
});
