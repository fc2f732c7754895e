import http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { send } from "./load";
import { PROBE_LABEL_NAME, REFUND_PROBE } from "./rules-setup";
import { BENCH_ORIGIN, onPostgres, type Widget } from "./seed";
import { ascending, percentile } from "./stats";

// "A rule's actions land within a second at p99" (issue 44): `widgets.length` visitors' messages,
// paced at `perSecond`, each on a conversation of its own, each matching the probe rule
// (bench/rules-setup.ts), which labels the conversation. The latency of one event is the time from
// the visitor's message to the rule's `labelled` timeline line, both as the database stamped them
// (created_at: the start of each writing transaction, the same clock), so the client's own delays do
// not count and nothing needs polling per message.

export interface RuleLatency {
  events: number;
  landed: number;
  p50: number;
  p99: number;
  max: number;
  perSecond: number;
  /** Where the time went, p50/p99 of each stage (ms): the message to its rules' job, the job's wait in the queue, the job's start to the label. */
  stages: Record<"dispatched" | "queued" | "ran", { p50: number; p99: number }>;
}

export async function measureRuleLatency(port: number, url: string, widgets: Widget[], perSecond: number, timeoutMs = 30_000): Promise<RuleLatency> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const sends: Promise<unknown>[] = [];
  try {
    for (const [i, widget] of widgets.entries()) {
      sends.push(
        send(port, {
          method: "POST",
          path: "/api/v1/chat/visitor/messages",
          headers: { Origin: BENCH_ORIGIN, Authorization: `Bearer ${widget.token}`, "Content-Type": "application/json" },
          body: JSON.stringify({ body: REFUND_PROBE, client_id: `probe-${i}-${Date.now()}` }),
        }, agent).then((answer) => {
          if (answer.status !== 201 && answer.status !== 200) throw new Error(`probe send: ${answer.status} ${answer.body.slice(0, 200)}`);
        }),
      );
      await sleep(1000 / perSecond);
    }
    await Promise.all(sends);
  } finally {
    agent.destroy();
  }
  const ids = widgets.map((widget) => widget.conversationId);
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const latencies = await onPostgres(url, async (client) => {
      const { rows } = await client.query<{ ms: number; dispatched: number; queued: number; ran: number }>(
        `SELECT extract(epoch FROM l.created_at - m.created_at) * 1000 AS ms,
                extract(epoch FROM j.created_on - m.created_at) * 1000 AS dispatched,
                extract(epoch FROM j.started_on - j.created_on) * 1000 AS queued,
                extract(epoch FROM l.created_at - j.started_on) * 1000 AS ran
           FROM messages m
           JOIN messages l ON l.conversation_id = m.conversation_id AND l.event = 'labelled' AND l.details ? 'rule' AND l.details->'added' ? $3
           LEFT JOIN pgboss.job j ON j.name = 'conversation-rules' AND j.data->>'messageId' = m.id
          WHERE m.conversation_id = ANY($1::text[]) AND m.body = $2 AND m.author_type = 'visitor'`,
        [ids, REFUND_PROBE, PROBE_LABEL_NAME],
      );
      return rows;
    });
    if (latencies.length >= widgets.length || performance.now() > deadline) {
      const spread = (values: number[]) => {
        const sorted = ascending(values.map(Number));
        return { p50: Math.round(percentile(sorted, 0.5)), p99: Math.round(percentile(sorted, 0.99)), max: Math.round(sorted.at(-1) ?? 0) };
      };
      const stage = (pick: (row: (typeof latencies)[number]) => number) => {
        const { p50, p99 } = spread(latencies.map(pick));
        return { p50, p99 };
      };
      return {
        events: widgets.length,
        landed: latencies.length,
        ...spread(latencies.map((row) => row.ms)),
        perSecond,
        stages: { dispatched: stage((row) => row.dispatched), queued: stage((row) => row.queued), ran: stage((row) => row.ran) },
      };
    }
    await sleep(250);
  }
}
