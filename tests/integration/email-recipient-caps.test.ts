import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { db, separatePostgresExecutor, sqlExecutor } from "../../lib/db/client";
import { ConfigError, parseEnv } from "../../lib/core/env";
import { storeEmails, type EmailDraft } from "../../lib/email/sending/outbox";
import { startNotificationWorker, type NotificationWorker } from "../../lib/notifications/worker";
import { api } from "../support/api";
import { createMember, createSite } from "../support/fixtures";
import { as, createStaff } from "../support/inbox";
import { testDatabaseUrl } from "../support/postgres";
import { awayFromWindowEdge, forwardedFor, randomIp } from "../support/rate-limits";
import { SmtpCapture } from "../support/smtp-capture";
import { listTickets, postTicket, ticket } from "../support/tickets";
import { eventually } from "../support/webhook-receiver";

// Issue 23: the service could be made to mail a stranger at volume (30 tickets from 3 addresses in
// a minute, one victim's email on each: 30 acknowledgements). Automatic emails to one address are
// capped per site, 3 an hour and 10 a day (decisions.md, "Email in both directions"); the rest
// are kept in the outbox as `suppressed`. Real SMTP server, real per-IP rate limits (10 tickets a
// minute per IP, the default, behind one trusted proxy).

process.env.RATE_LIMITS = "on";
process.env.TRUSTED_PROXY_HOPS = "1";
delete process.env.RATE_LIMIT_TICKETS_PER_MINUTE;
delete process.env.EMAIL_RECIPIENT_HOURLY_CAP;
delete process.env.EMAIL_RECIPIENT_DAILY_CAP;

const smtp = new SmtpCapture();
const workers: NotificationWorker[] = [];
const pools: { end(): Promise<void> }[] = [];

beforeAll(async () => {
  await smtp.start();
  process.env.SMTP_URL = smtp.url;
  process.env.MAIL_FROM = "Acme Support <support@acme.example>";
  workers.push(await startNotificationWorker({ timings: { dispatchPollMs: 50 } }));
});
afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
  await Promise.all(pools.map((pool) => pool.end()));
  await smtp.stop();
});
beforeEach(() => awayFromWindowEdge());

const victimAddress = () => `victim-${randomUUID().slice(0, 8)}@example.com`;
/** The same address in other cases: what an attacker tries to slip past a cap. */
const caseVariants = (address: string) => [address, address.toUpperCase(), address.replace(/^v/, "V").replace("example", "Example")];
const mailsTo = (address: string) => smtp.mails.filter((mail) => mail.to.some((to) => to.toLowerCase() === address));
const settle = (ms = 1_500) => new Promise((resolve) => setTimeout(resolve, ms));

async function fileFrom(siteId: string, ip: string, email: string, subject = "Please help") {
  const response = await postTicket(siteId, ticket({ email, subject }), { headers: forwardedFor(ip) });
  expect(response.status).toBe(201);
  return response.json.result as { number: number };
}

interface OutboxRow {
  id: string;
  kind: string;
  to: string;
  status: string;
  sent: boolean;
  suppressed_reason: string | null;
  ticket_id: string | null;
}

async function outboxTo(address: string): Promise<OutboxRow[]> {
  const response = await api.get("/api/v1/admin/outbox", { admin: true });
  expect(response.status).toBe(200);
  return (response.json.result as OutboxRow[]).filter((email) => email.to.toLowerCase() === address);
}

/** Waits until `count` emails to the address are stored and every one is settled (sent or suppressed). */
const settledOutbox = (address: string, count: number) =>
  eventually(async () => {
    const rows = await outboxTo(address);
    expect(rows).toHaveLength(count);
    expect(rows.filter((row) => row.status === "pending")).toEqual([]);
    return rows;
  }, 20_000);

/** Moves every email to the address back in time, as if it had been written that long ago. */
async function age(address: string, interval: string) {
  await (await sqlExecutor()).executeSql(
    `UPDATE "emails" SET "created_at" = "created_at" - $2::interval WHERE lower("recipient") = $1`,
    [address, interval],
  );
}

// Thirty tickets, their emails and the SMTP round trips take a while on a busy machine.
describe("per-recipient caps on automatic emails", { timeout: 60_000 }, () => {
  test("30 tickets from 3 IPs to one address in mixed case: 3 acknowledgements sent, 27 kept as suppressed", async () => {
    const site = await createSite();
    const victim = victimAddress();
    const variants = caseVariants(victim);
    const ips = [randomIp(), randomIp(), randomIp()];
    for (let i = 0; i < 30; i++) await fileFrom(site.id, ips[i % 3]!, variants[i % variants.length]!);

    const outbox = await settledOutbox(victim, 30);
    await settle();
    expect(mailsTo(victim)).toHaveLength(3);
    expect(outbox.every((email) => email.kind === "ticket_acknowledgement")).toBe(true);
    expect(outbox.filter((email) => email.status === "sent")).toHaveLength(3);
    const suppressed = outbox.filter((email) => email.status === "suppressed");
    expect(suppressed).toHaveLength(27);
    for (const email of suppressed) expect(email).toMatchObject({ sent: false, suppressed_reason: "hourly_cap" });
    // The inbox's outbox answers the same.
    const inboxOutbox = await api.get("/api/v1/inbox/outbox", as(await createStaff("owner")));
    expect(inboxOutbox.status).toBe(200);
    expect(inboxOutbox.json.result.filter((email: OutboxRow) => email.to.toLowerCase() === victim && email.status === "suppressed")).toHaveLength(27);

    // Another site's ticket to the same address is counted on its own.
    const other = await createSite();
    await fileFrom(other.id, randomIp(), victim.toUpperCase());
    await eventually(() => expect(mailsTo(victim)).toHaveLength(4), 15_000);

    // Staff replies are never suppressed, however many (the address is at its cap already).
    const member = await createMember();
    const ticketId = (await listTickets(site.id))[0]!.id;
    for (let i = 0; i < 4; i++) {
      const reply = await api.post(`/api/v1/admin/tickets/${ticketId}/replies`, {
        admin: true,
        body: { author_id: member.id, body: `We are on it (${i}).` },
      });
      expect(reply.status).toBe(201);
    }
    await eventually(() => expect(mailsTo(victim)).toHaveLength(8), 15_000);
    expect(mailsTo(victim).filter((mail) => mail.parsed.text?.includes("We are on it"))).toHaveLength(4);
    // The outbox marks an email sent after the SMTP server took it: a moment after its arrival.
    await eventually(async () => {
      const replies = (await outboxTo(victim)).filter((email) => email.kind === "ticket_reply");
      expect(replies).toHaveLength(4);
      for (const email of replies) expect(email).toMatchObject({ status: "sent", suppressed_reason: null });
    }, 15_000);
  });

  test("the hourly cap frees up after an hour; the daily cap holds at 10 until a day has passed", async () => {
    const site = await createSite();
    const victim = victimAddress();
    const ip = randomIp();
    // Three rounds of 3 an hour: 9 in the day.
    for (let round = 1; round <= 3; round++) {
      for (let i = 0; i < 3; i++) await fileFrom(site.id, ip, victim);
      await settledOutbox(victim, round * 3);
      await eventually(() => expect(mailsTo(victim)).toHaveLength(round * 3), 15_000);
      await age(victim, "61 minutes");
    }
    for (let i = 0; i < 3; i++) await fileFrom(site.id, randomIp(), victim);
    const outbox = await settledOutbox(victim, 12);
    await settle();
    expect(mailsTo(victim)).toHaveLength(10);
    expect(outbox.filter((email) => email.status === "suppressed").map((email) => email.suppressed_reason)).toEqual(["daily_cap", "daily_cap"]);

    // The first round is now just over 24 h old, the others not: 7 sent in the last day, 3 to go.
    await age(victim, "21 hours");
    for (let i = 0; i < 4; i++) await fileFrom(site.id, randomIp(), victim);
    const later = await settledOutbox(victim, 16);
    await settle();
    expect(mailsTo(victim)).toHaveLength(13);
    expect(later.filter((email) => email.status === "suppressed")).toHaveLength(3);
  });

  test("tickets filed all at once still get no more than the cap, on every instance", async () => {
    if (testDatabaseUrl()) {
      // On PostgreSQL a second instance (its own pool, dispatcher and queue workers) races the first.
      const executor = separatePostgresExecutor(process.env.DATABASE_URL!);
      pools.push(executor);
      workers.push(await startNotificationWorker({ executor, timings: { dispatchPollMs: 20 } }));
    }
    const site = await createSite();
    const victim = victimAddress();
    const variants = caseVariants(victim);
    const ips = [randomIp(), randomIp(), randomIp()];
    const responses = await Promise.all(
      Array.from({ length: 24 }, (_, i) => postTicket(site.id, ticket({ email: variants[i % 3] }), { headers: forwardedFor(ips[i % 3]!) })),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(24).fill(201));
    const outbox = await settledOutbox(victim, 24);
    await settle();
    expect(mailsTo(victim)).toHaveLength(3);
    expect(outbox.filter((email) => email.status === "suppressed")).toHaveLength(21);
  });

  test("concurrent transactions storing emails to one address never pass the cap together", async () => {
    const site = await createSite();
    const victim = victimAddress();
    const onPostgres = Boolean(testDatabaseUrl());
    const executor = onPostgres ? separatePostgresExecutor(process.env.DATABASE_URL!, 12) : await sqlExecutor();
    if (onPostgres) pools.push(executor as ReturnType<typeof separatePostgresExecutor>);
    const draft = (i: number): EmailDraft => ({
      kind: "ticket_acknowledgement",
      recipient: i % 2 ? victim.toUpperCase() : victim,
      subject: `ack ${i}`,
      text: "text",
      html: "<p>html</p>",
      siteId: site.id,
    });
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        executor.transaction(async (sql) => {
          // Read something first, so that every transaction is open before any stores its email.
          await sql.executeSql("SELECT pg_sleep(0.05)");
          await storeEmails(sql, [draft(i)]);
        }),
      ),
    );
    const { rows } = await executor.executeSql(`SELECT "status" FROM "emails" WHERE lower("recipient") = $1`, [victim]);
    expect(rows).toHaveLength(12);
    expect(rows.filter((row: { status: string }) => row.status !== "suppressed")).toHaveLength(3);
  });

  test("one batch holding many emails to one address keeps the first 3, other addresses and staff alerts untouched", async () => {
    const site = await createSite();
    const victim = victimAddress();
    const bystander = victimAddress();
    const member = "alerted@acme.example";
    const draft = (kind: EmailDraft["kind"], recipient: string, subject: string): EmailDraft => ({
      kind,
      recipient,
      subject,
      text: "t",
      html: "h",
      siteId: site.id,
    });
    const drafts = [
      ...[0, 1, 2, 3, 4].map((i) => draft("visitor_follow_up", ` ${i % 2 ? victim.toUpperCase() : victim} `, `f${i}`)),
      ...[0, 1].map((i) => draft("ticket_acknowledgement", bystander, `b${i}`)),
      ...[0, 1, 2, 3, 4].map((i) => draft("staff_alert", member, `s${i}`)),
    ];
    const executor = await sqlExecutor();
    const jobs = await executor.transaction((sql) => storeEmails(sql, drafts));
    expect(jobs).toHaveLength(3 + 2 + 5); // none for the suppressed ones
    const { rows } = await executor.executeSql(
      `SELECT "subject", "status", "suppressed_reason" FROM "emails" WHERE "site_id" = $1 ORDER BY "subject"`,
      [site.id],
    );
    const statusOf = Object.fromEntries(rows.map((row: { subject: string; status: string }) => [row.subject, row.status]));
    expect(statusOf).toEqual({
      ...{ b0: "pending", b1: "pending" },
      ...{ f0: "pending", f1: "pending", f2: "pending", f3: "suppressed", f4: "suppressed" },
      ...{ s0: "pending", s1: "pending", s2: "pending", s3: "pending", s4: "pending" },
    });
  });
});

test("the caps default to decisions.md's and must be positive integers", () => {
  const defaults = parseEnv({});
  expect(defaults.EMAIL_RECIPIENT_HOURLY_CAP).toBe(3);
  expect(defaults.EMAIL_RECIPIENT_DAILY_CAP).toBe(10);
  expect(parseEnv({ EMAIL_RECIPIENT_HOURLY_CAP: "5", EMAIL_RECIPIENT_DAILY_CAP: "" })).toMatchObject({
    EMAIL_RECIPIENT_HOURLY_CAP: 5,
    EMAIL_RECIPIENT_DAILY_CAP: 10,
  });
  for (const bad of ["0", "-1", "2.5", "many"]) {
    expect(() => parseEnv({ EMAIL_RECIPIENT_HOURLY_CAP: bad })).toThrow(ConfigError);
    expect(() => parseEnv({ EMAIL_RECIPIENT_DAILY_CAP: bad })).toThrow(/EMAIL_RECIPIENT_DAILY_CAP/);
  }
});
