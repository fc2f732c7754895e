// npx tsx bench/inbound-email.ts — how many replies per second the built-in SMTP listener accepts
// (docs/notifications.md, "Replies by email"), on a scratch PostgreSQL database
// (BENCH_DATABASE_URL, default postgresql://postgres@127.0.0.1:5432/postgres). Each email is a
// visitor's reply with a valid token, sent over SMTP by nodemailer (BENCH_CONNECTIONS connections),
// and is parsed, authenticated (DNS answered locally: no records, so DMARC "none"), checked and
// posted before the listener answers 250. BENCH_MAILS sets the count. Loopback only; about a minute.
import { randomUUID } from "node:crypto";
import nodemailer from "nodemailer";
import pg from "pg";
import { seedBench } from "./seed";
import { timed } from "./stats";

const server = process.env.BENCH_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const MAILS = Number(process.env.BENCH_MAILS ?? 500);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const name = `parley_inbound_bench_${Date.now()}`;
const url = Object.assign(new URL(server), { pathname: `/${name}` }).toString();
const DOMAIN = "reply.bench.example";

process.env.DATABASE_URL = url;
process.env.ADMIN_TOKEN = `bench-admin-${randomUUID()}`;
process.env.LOG_LEVEL = "error";
process.env.MAIL_REPLY_DOMAIN = DOMAIN;

const { closeDatabase, db } = await import("../lib/db/client");
const { useDnsResolver } = await import("../lib/email/inbound/authenticate");
const { startInboundSmtpListener } = await import("../lib/email/inbound/smtp-listener");
const { replyToken } = await import("../lib/email/links/reply-token");

const onServer = async (sql: string) => {
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  await client.query(sql).finally(() => client.end());
};

async function main() {
  await onServer(`CREATE DATABASE "${name}"`);
  useDnsResolver(async (query) => {
    throw Object.assign(new Error(`ENOTFOUND ${query}`), { code: "ENOTFOUND" });
  });
  const listener = await startInboundSmtpListener({ port: 0, host: "127.0.0.1" });
  try {
    const prisma = await db(); // migrates
    // A first connection can take longer than the client's 2 s on a busy machine: try a few times.
    for (let attempt = 1; ; attempt++) {
      try {
        await prisma.$queryRaw`SELECT 1`;
        break;
      } catch (error) {
        if (attempt === 5) throw error;
      }
    }
    const conversations = (await seedBench(url, 100)).map((widget) => widget.conversationId);
    await prisma.$executeRawUnsafe(`UPDATE "conversations" SET "visitor_email" = 'v-' || "id" || '@visitor.example'`);
    const addresses = await Promise.all(
      conversations.map(async (id) => ({
        from: `v-${id}@visitor.example`,
        to: `r+${await replyToken({ thread: { kind: "conversation", id }, recipient: { kind: "visitor" } })}@${DOMAIN}`,
      })),
    );
    const client = nodemailer.createTransport({ host: "127.0.0.1", port: listener.port, pool: true, maxConnections: CONNECTIONS, maxMessages: Infinity });
    const send = (index: number) => {
      const { from, to } = addresses[index % addresses.length]!;
      const quoted = "On Tue, Acme Support wrote:\n> Which colour would you like?\n> Blue or red.";
      return client.sendMail({ from, to, subject: "Re: your conversation", text: `Reply ${index}, the blue one.\n\n${quoted}` });
    };
    await Promise.all(Array.from({ length: 20 }, (_, index) => send(MAILS + index))); // warm-up
    const [, ms] = await timed(() => Promise.all(Array.from({ length: MAILS }, (_, index) => send(index))));
    const seconds = ms / 1000;
    client.close();
    const accepted = await prisma.inboundEmail.count({ where: { outcome: "accepted" } });
    console.log(`${MAILS} replies over ${CONNECTIONS} SMTP connections in ${seconds.toFixed(1)} s: ${(MAILS / seconds).toFixed(0)} mails/s accepted and posted (${accepted - 20} posted)`);
  } finally {
    await listener.close();
    await closeDatabase();
    await onServer(`DROP DATABASE "${name}" WITH (FORCE)`);
  }
}

await main();
