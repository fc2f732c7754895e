// npm run bench:notifications — the figures of docs/reliability.md "Notifications", on a scratch
// PostgreSQL database (BENCH_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/postgres):
//   1. what the outbox trigger costs the send path (appendMessage with the trigger on and off),
//   2. a 1,000-message burst: every message.created event delivered, once each, enqueue→delivered,
//   3. a worker killed (SIGKILL) mid-delivery: what is lost (nothing) and what is sent twice.
// Short by design (about a minute on 2 cores). BENCH_BURST sets the burst size.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { seedBench } from "./seed";
import { ascending, percentile, timed } from "./stats";

const server = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const BURST = Number(process.env.BENCH_BURST ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const PARTS = (process.env.BENCH_PARTS ?? "trigger,burst,crash").split(",");
const name = `parley_notify_bench_${Date.now()}`;
const url = Object.assign(new URL(server), { pathname: `/${name}` }).toString();

process.env.DATABASE_URL = url;
process.env.ADMIN_TOKEN = `bench-admin-${randomUUID()}`;
process.env.LOG_LEVEL = "error";
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "on";

const { closeDatabase, db } = await import("../lib/db/client");
const { appendMessage } = await import("../lib/conversations/append-message");
const { startNotificationWorker } = await import("../lib/notifications/worker");
const { createWebhook } = await import("../lib/webhooks/webhooks");
const { WebhookReceiver, eventually } = await import("../tests/support/webhook-receiver");

const onServer = async (sql: string) => {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  await client.query(sql).finally(() => client.end());
};
const round = (n: number) => Math.round(n * 10) / 10;

async function sendMany(conversations: string[], count: number, onSent?: (id: string, at: number) => void) {
  let next = 0;
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const index = next++;
        const [{ message }, ms] = await timed(() =>
          appendMessage({
            conversationId: conversations[index % conversations.length]!,
            authorType: "visitor",
            authorId: "bench-visitor",
            kind: "message",
            body: `burst ${index}`,
            clientId: randomUUID(),
          }),
        );
        latencies.push(ms);
        onSent?.(message.id, Date.now());
      }
    }),
  );
  return latencies;
}

async function main() {
  await onServer(`CREATE DATABASE "${name}"`);
  const report: string[] = [];
  const receiver = await new WebhookReceiver().start();
  try {
    const prisma = await db(); // migrates
    const conversations = (await seedBench(url, 100)).map((widget) => widget.conversationId).slice(50); // short histories
    await prisma.notificationEvent.deleteMany({});

    // 1. The trigger's cost on the send path: alternate rounds with it disabled and enabled.
    const rounds: Record<"off" | "on", number[][]> = { off: [], on: [] };
    await sendMany(conversations, 300); // warm-up
    for (let round = 0; round < (PARTS.includes("trigger") ? 3 : 0); round++) {
      for (const state of ["off", "on"] as const) {
        await prisma.$executeRawUnsafe(`ALTER TABLE "messages" ${state === "off" ? "DISABLE" : "ENABLE"} TRIGGER "messages_notify"`);
        rounds[state].push(await sendMany(conversations, 1000));
      }
    }
    await prisma.$executeRawUnsafe(`ALTER TABLE "messages" ENABLE TRIGGER "messages_notify"`);
    for (const state of PARTS.includes("trigger") ? (["off", "on"] as const) : []) {
      const all = rounds[state].flat();
      report.push(`send (appendMessage, ${CONCURRENCY} concurrent) trigger ${state}: p50 ${round(percentile(ascending(all), 0.5))} ms, p99 ${round(percentile(ascending(all), 0.99))} ms, ${all.length} sends`);
    }
    await prisma.notificationEvent.deleteMany({});

    // 2. The burst.
    const hook = await createWebhook({ url: receiver.url, events: ["message.created"] });
    receiver.useSecret(hook.secret);
    const worker = await startNotificationWorker({});
    const sentAt = new Map<string, number>();
    const burstStart = Date.now();
    await sendMany(conversations, PARTS.includes("burst") ? BURST : 0, (id, at) => sentAt.set(id, at));
    const sendSeconds = (Date.now() - burstStart) / 1000;
    await eventually(() => {
      if (PARTS.includes("burst") && new Set(receiver.received.map((r) => r.id)).size < BURST) throw new Error("waiting");
    }, 120_000, 100);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const ids = receiver.received.map((request) => request.id);
    const lag = receiver.received.map((request) => request.at - sentAt.get(request.payload.data.message.id)!);
    report.push(
      `burst of ${BURST} messages (sent in ${round(sendSeconds)} s): ${new Set(ids).size} events delivered, ${ids.length - new Set(ids).size} twice, ` +
        `${receiver.received.filter((r) => !r.verified).length} failed signature checks; enqueue→delivered p50 ${percentile(ascending(lag), 0.5)} ms, p99 ${percentile(ascending(lag), 0.99)} ms, max ${Math.max(...lag)} ms`,
    );
    if (PARTS.includes("burst")) {
      // Where the time goes: outbox → delivery row (dispatch), delivery row → receiver (queue + HTTP).
      const rows = await prisma.webhookDelivery.findMany({ select: { eventId: true, createdAt: true } });
      const created = new Map(rows.map((row) => [row.eventId, row.createdAt.getTime()]));
      const dispatch = receiver.received.map((r) => created.get(r.id)! - sentAt.get(r.payload.data.message.id)!);
      const deliver = receiver.received.map((r) => r.at - created.get(r.id)!);
      report.push(
        `  of which dispatch (commit → delivery row) p50 ${percentile(ascending(dispatch), 0.5)} ms, p99 ${percentile(ascending(dispatch), 0.99)} ms; ` +
          `delivery row → received p50 ${percentile(ascending(deliver), 0.5)} ms, p99 ${percentile(ascending(deliver), 0.99)} ms`,
      );
    }
    await worker.stop();
    receiver.received.length = 0;

    // 3. A worker process killed mid-delivery; another one takes over.
    const timings = { webhookTimeoutMs: 3_000, maintenanceSeconds: 1, dispatchPollMs: 50 };
    receiver.delayMs = 500; // slow answers, so attempts are in flight when the process dies
    const child = spawn(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "notification-worker-process.ts")], {
      env: { ...process.env, NOTIFY_TIMINGS: JSON.stringify(timings) },
      stdio: ["ignore", "pipe", "inherit"],
    });
    await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
    const crashMessages = PARTS.includes("crash") ? 200 : 0;
    const crashSent = new Set<string>();
    await sendMany(conversations, crashMessages, (id) => crashSent.add(id));
    await eventually(() => {
      if (crashMessages > 0 && receiver.received.length < 20) throw new Error("waiting");
    }, 30_000, 20);
    child.kill("SIGKILL");
    const killedAt = Date.now();
    const beforeKill = receiver.received.length;
    const successor = await startNotificationWorker({ timings });
    // Done when every event reached the receiver and every delivery is recorded as succeeded
    // (the attempts the dead worker had in flight are made again once their hold runs out).
    await eventually(async () => {
      const got = new Set(receiver.received.map((r) => r.payload.data.message.id));
      if ([...crashSent].some((id) => !got.has(id))) throw new Error("waiting");
      if ((await prisma.webhookDelivery.count({ where: { status: { not: "succeeded" } } })) > 0) throw new Error("waiting");
    }, 120_000, 100);
    const recovered = (Date.now() - killedAt) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const crashIds = receiver.received.map((request) => request.id);
    const pending = await prisma.webhookDelivery.count({ where: { status: { not: "succeeded" } } });
    report.push(
      `worker killed (SIGKILL) after ${beforeKill} of ${crashMessages} deliveries had reached the receiver: ` +
        `${new Set(crashIds).size}/${crashMessages} events delivered, 0 lost, ${crashIds.length - new Set(crashIds).size} delivered twice (same webhook-id), ` +
        `all delivered ${round(recovered)} s after the kill (hold ${timings.webhookTimeoutMs / 1000 + 5} s); deliveries not succeeded: ${pending}`,
    );
    await successor.stop();
  } finally {
    await receiver.stop();
    await closeDatabase();
    await onServer(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
  console.log(report.join("\n"));
}

await main();
process.exit(0);
