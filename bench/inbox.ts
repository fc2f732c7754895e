import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";
import pg from "pg";
import { hashPassword } from "../lib/staff/passwords";
import { sha256Hex } from "../lib/staff/secrets";
import { closedLoop, send, type LoadResult } from "./load";
import { ascending, percentile } from "./stats";
import { BENCH_ORIGIN, type Widget } from "./seed";

// The inbox scenario: (1) the first page of the conversation list with INBOX_CONVERSATIONS
// conversations in the database, as a signed-in agent sees it; (2) live delivery of visitor
// messages to AGENTS signed-in agents, each holding the inbox's event stream
// (/api/v1/inbox/events): the time from sending a visitor message to its event reaching each agent.

export const INBOX_CONVERSATIONS = 10_000;
export const AGENTS = 50;

/** Signed-in agents written straight into the database (a password and a session each); their cookies. */
export async function seedAgents(databaseUrl: string, count = AGENTS): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const passwordHash = await hashPassword("bench password 123");
    const cookies: string[] = [];
    for (let i = 0; i < count; i++) {
      const id = `bench-agent-${i}`;
      const token = `ps_${randomBytes(32).toString("base64url")}`;
      await client.query(
        `INSERT INTO members (id, name, email, role, password_hash) VALUES ($1, $2, $3, 'agent', $4)`,
        [id, `Bench agent ${i}`, `${id}@bench.example`, passwordHash],
      );
      await client.query(
        `INSERT INTO staff_sessions (id, token_hash, member_id, expires_at) VALUES ($1, $2, $3, now() + interval '30 days')`,
        [randomUUID(), sha256Hex(token), id],
      );
      cookies.push(`parley_session=${token}`);
    }
    return cookies;
  } finally {
    await client.end();
  }
}

/** The list's first page, one request at a time: the latency is the server's time plus loopback, no queueing of our own. */
export function listFirstPage(port: number, cookies: string[], durationMs: number): Promise<LoadResult> {
  return closedLoop({
    port,
    connections: 1,
    durationMs,
    next: (worker, iteration) => ({
      method: "GET",
      path: "/api/v1/inbox/conversations?status=all",
      headers: { Cookie: cookies[(worker * 13 + iteration) % cookies.length]! },
    }),
  });
}

export interface DeliveryResult {
  agents: number;
  messages: number;
  expected: number;
  delivered: number;
  p50: number;
  p99: number;
}

/** Opens one event stream per agent, then sends `messages` visitor messages (one per conversation) and times every arrival. */
export async function liveDelivery(port: number, cookies: string[], senders: Widget[], messages: number, perSecond = 5): Promise<DeliveryResult> {
  const sentAt = new Map<string, number>();
  const latencies: number[] = [];
  const streams: http.ClientRequest[] = [];
  await Promise.all(
    cookies.map(
      (cookie) =>
        new Promise<void>((resolve, reject) => {
          const request = http.get({ host: "127.0.0.1", port, path: "/api/v1/inbox/events", headers: { Cookie: cookie } }, (response) => {
            if (response.statusCode !== 200) return reject(new Error(`event stream: ${response.statusCode}`));
            let buffer = "";
            const seen = new Set<string>();
            response.setEncoding("utf8");
            response.on("data", (chunk: string) => {
              buffer += chunk;
              let end: number;
              while ((end = buffer.indexOf("\n\n")) >= 0) {
                const frame = buffer.slice(0, end);
                buffer = buffer.slice(end + 2);
                const data = frame.split("\n").find((line) => line.startsWith("data: "));
                if (!data) continue;
                const event = JSON.parse(data.slice(6)) as { type: string; conversation_id?: string; author_type?: string };
                if (event.type === "ready") resolve();
                if (event.type !== "message" || event.author_type !== "visitor" || !event.conversation_id) continue;
                const start = sentAt.get(event.conversation_id);
                if (start === undefined || seen.has(event.conversation_id)) continue;
                seen.add(event.conversation_id);
                latencies.push(performance.now() - start);
              }
            });
          });
          request.on("error", () => {});
          streams.push(request);
        }),
    ),
  );
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  for (const widget of senders.slice(0, messages)) {
    sentAt.set(widget.conversationId, performance.now());
    void send(
      port,
      {
        method: "POST",
        path: "/api/v1/chat/visitor/messages",
        headers: { Origin: BENCH_ORIGIN, Authorization: `Bearer ${widget.token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ body: "Hello from the bench", client_id: `inbox-bench-${randomUUID()}` }),
      },
      agent,
    ).catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 1000 / perSecond));
  }
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  for (const stream of streams) stream.destroy();
  agent.destroy();
  const sorted = ascending(latencies);
  return {
    agents: cookies.length,
    messages: Math.min(messages, senders.length),
    expected: cookies.length * Math.min(messages, senders.length),
    delivered: latencies.length,
    p50: Math.round(percentile(sorted, 0.5)),
    p99: Math.round(percentile(sorted, 0.99)),
  };
}
