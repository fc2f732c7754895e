import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { db, sqlExecutor } from "../../lib/db/client";
import { runStaffAlerts } from "../../lib/email/staff-alerts";
import type { JobContext } from "../../lib/jobs/context";
import type { JobSpec } from "../../lib/jobs/queue";
import { DEFAULT_TIMINGS, type NotificationTimings } from "../../lib/jobs/timings";
import { startNotificationWorker, type NotificationWorker } from "../../lib/notifications/worker";
import { deactivateMember } from "../../lib/staff/team";
import { api } from "../support/api";
import { createMember, createSite, openConversation, startConversation, type Started } from "../support/fixtures";
import { as, createStaff } from "../support/inbox";
import { SmtpCapture } from "../support/smtp-capture";
import { fileTicket, listTickets, ticket } from "../support/tickets";
import { eventually, WebhookReceiver } from "../support/webhook-receiver";
import { unsubscribeCall } from "../support/unsubscribe";

// Every email trigger against a real SMTP server (smtp-server), read back with mailparser. The
// rules' delays are injected (60 s → 300 ms and so on); their defaults are checked below.

const smtp = new SmtpCapture();
// The one webhook receiver below listens on loopback.
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "on";
const PUBLIC_URL = "https://parley.example";

const TIMINGS: Partial<NotificationTimings> = {
  staffIdleMs: 60_000, // as in production: only "nobody had the inbox open for 60 s" matters here
  staffAlertIntervalMs: 4_000,
  followUpDelayMs: 800,
  emailRetryDelaySeconds: 1,
  dispatchPollMs: 50,
  jobExpirySeconds: 10,
  maintenanceSeconds: 1,
};

let worker: NotificationWorker | null = null;

beforeAll(async () => {
  await smtp.start();
  process.env.SMTP_URL = smtp.url;
  process.env.MAIL_FROM = "Acme Support <support@acme.example>";
  process.env.PUBLIC_URL = PUBLIC_URL;
  worker = await startNotificationWorker({ timings: TIMINGS });
});
afterAll(async () => {
  await worker?.stop();
  await smtp.stop();
});
afterEach(async () => {
  // Members are global: each test starts with none reachable by email.
  await (await db()).member.updateMany({ data: { email: null, inboxActiveAt: null } });
});

let counter = 0;
async function staffMember(options: { notify?: boolean; email?: boolean } = {}) {
  const member = await createMember({ name: "Grace Staff" });
  const email = options.email === false ? null : `staff${++counter}@acme.example`;
  await (await db()).member.update({ where: { id: member.id }, data: { email, notify: options.notify ?? true } });
  return { ...member, email };
}

const sendVisitorMessage = (started: Started, body: string) =>
  api.post("/api/v1/chat/visitor/messages", { origin: started.origin, token: started.token, body: { body, client_id: crypto.randomUUID() } });

const staffReply = (conversationId: string, authorId: string, body: string) =>
  api.post(`/api/v1/admin/conversations/${conversationId}/messages`, { admin: true, body: { author_id: authorId, body } });

/** The member's two alerts, once the second (sent when the interval ends) has arrived. */
const secondAlert = (recipient: string) =>
  eventually(() => {
    const mails = smtp.to(recipient);
    expect(mails).toHaveLength(2);
    return mails;
  }, 15_000);

const settle = (ms = 1_500) => new Promise((resolve) => setTimeout(resolve, ms));

describe("staff alerts", () => {
  test("a new conversation with a body emails every member with an email and notify on, once", async () => {
    const alerted = await staffMember();
    const quiet = await staffMember({ notify: false });
    await staffMember({ email: false });
    const started = await openConversation({ name: "Ada <b>", body: "Where is <script>my order</script>?" });

    const [mail] = await eventually(() => {
      const mails = smtp.to(alerted.email!);
      expect(mails).toHaveLength(1);
      return mails;
    });
    const { parsed } = mail!;
    expect(parsed.from?.text).toContain("support@acme.example");
    expect(parsed.subject).toContain("Ada <b>");
    expect(parsed.text).toContain("Where is <script>my order</script>?");
    expect(parsed.text).toContain(`${PUBLIC_URL}/inbox/conversations/${started.conversationId}`);
    expect(parsed.html).toContain("Where is &lt;script&gt;my order&lt;/script&gt;?");
    expect(parsed.html).not.toContain("<script>");
    expect(parsed.html).toContain(`${PUBLIC_URL}/inbox/conversations/${started.conversationId}`);
    expect(parsed.text).toMatch(/^site-/); // the site's name heads every email
    await settle(500);
    expect(smtp.to(quiet.email!)).toHaveLength(0);
    await eventually(async () => {
      const outbox = (await api.get("/api/v1/admin/outbox", { admin: true })).json.result;
      expect(outbox.find((email: any) => email.to === alerted.email)).toMatchObject({ kind: "staff_alert", status: "sent", sent: true });
    });
  });

  test("at most one per conversation and member per interval; later messages fold into the next", async () => {
    const member = await staffMember();
    const started = await openConversation({ body: "first" });
    await eventually(() => expect(smtp.to(member.email!)).toHaveLength(1));
    await sendVisitorMessage(started, "second");
    await sendVisitorMessage(started, "third");
    await settle(800);
    expect(smtp.to(member.email!)).toHaveLength(1); // still inside the interval
    const mails = await secondAlert(member.email!);
    expect(mails[1]!.parsed.text).toContain("second");
    expect(mails[1]!.parsed.text).toContain("third");
    expect(mails[1]!.parsed.text).not.toContain("first");
    await settle(TIMINGS.staffAlertIntervalMs! + 500);
    expect(smtp.to(member.email!)).toHaveLength(2);
  });

  test("a burst of visitor messages inside the interval waits as one check, not one job per message", async () => {
    const member = await staffMember();
    const started = await openConversation({ body: "first" });
    await eventually(() => expect(smtp.to(member.email!)).toHaveLength(1));
    for (let i = 0; i < 12; i++) await sendVisitorMessage(started, `more ${i}`);
    await settle(800);
    const { rows } = await (await sqlExecutor()).executeSql(
      `SELECT count(*)::int AS waiting FROM pgboss.job WHERE name = 'staff-alert' AND state = 'created' AND data->>'conversationId' = $1`,
      [started.conversationId],
    );
    expect(rows[0].waiting).toBe(1); // the check at the end of the interval, which folds all twelve
    const mails = await secondAlert(member.email!);
    expect(mails[1]!.parsed.text).toContain("sent 12 messages");
    expect(mails[1]!.parsed.text).toContain("more 11");
  });

  test("one batch checks several conversations, and two instances running it at once alert each member once", async () => {
    const bodies = ["first question", "second question", "third question"];
    const started = await Promise.all(bodies.map((body) => openConversation({ body })));
    await worker!.dispatchNow(); // dispatched while nobody takes alerts: no check is queued for them
    const members = [await staffMember(), await staffMember()];
    const ids = started.map((conversation) => conversation.conversationId);
    const executor = await sqlExecutor();
    const queued: JobSpec[] = [];
    const context: JobContext = {
      executor,
      timings: { ...DEFAULT_TIMINGS, ...TIMINGS },
      addJobs: async (_sql, jobs) => void queued.push(...jobs),
      wakeDeliveries: () => {},
    };
    await Promise.all([runStaffAlerts(context, ids), runStaffAlerts(context, [...ids].reverse())]);

    const { rows } = await executor.executeSql(
      `SELECT "member_id", "conversation_id", "text_body" FROM "emails" WHERE "kind" = 'staff_alert' AND "conversation_id" = ANY($1::text[])`,
      [ids],
    );
    expect(rows).toHaveLength(ids.length * members.length);
    for (const member of members) {
      ids.forEach((id, index) => {
        const alerts = rows.filter((row: any) => row.member_id === member.id && row.conversation_id === id);
        expect(alerts).toHaveLength(1);
        expect(alerts[0].text_body).toContain(bodies[index]);
      });
    }
    expect(queued.filter((job) => job.name === "email-send")).toHaveLength(rows.length);
  });

  test("nobody is alerted while a member had the inbox open in the last 60 s", async () => {
    const member = await createStaff("agent", "Wanda Watcher", PUBLIC_URL); // only a member who can sign in has the inbox open
    await (await db()).member.update({ where: { id: member.id }, data: { inboxActiveAt: new Date(Date.now() - 30_000) } });
    await openConversation({ body: "someone is watching" });
    await settle();
    expect(smtp.to(member.email!)).toHaveLength(0);
    // Over 60 s ago no longer counts.
    await (await db()).member.update({ where: { id: member.id }, data: { inboxActiveAt: new Date(Date.now() - 61_000) } });
    await openConversation({ body: "now nobody is" });
    await eventually(() => expect(smtp.to(member.email!)).toHaveLength(1));
  });

  test("the inbox activity of a member who can no longer sign in (deactivated, email removed) holds no alert back (reliability 16c)", async () => {
    const recipient = await staffMember();
    const deactivated = await createStaff("agent", "Dora Deactivated", PUBLIC_URL);
    const emailless = await createStaff("agent", "Eli Emailless", PUBLIC_URL);
    await (await db()).member.updateMany({
      where: { id: { in: [deactivated.id, emailless.id] } },
      data: { inboxActiveAt: new Date(Date.now() - 30_000) },
    });
    await deactivateMember(deactivated.id); // what POST /api/v1/inbox/members/{id}/deactivate runs, without an owner who would count as active
    expect((await api.patch(`/api/v1/admin/members/${emailless.id}`, { admin: true, body: { email: null } })).status).toBe(200);
    await openConversation({ body: "nobody who can sign in is watching" });
    await eventually(() => expect(smtp.to(recipient.email!)).toHaveLength(1));
  });
  test("a team's conversation alerts only members who may see it, and only they hold an alert back by watching (docs/teams.md)", async () => {
    const insider = await createStaff("agent", "Ines Insider", PUBLIC_URL);
    const outsider = await createStaff("agent", "Otis Outsider", PUBLIC_URL);
    const watcher = await createStaff("agent", "Walt Watching", PUBLIC_URL); // in no team: watching the inbox, but cannot see it
    const prisma = await db();
    await prisma.team.create({ data: { id: "tm_alerts", name: "Alerts", nameKey: "alerts", members: { create: [{ memberId: insider.id }] } } });
    await prisma.member.update({ where: { id: watcher.id }, data: { inboxActiveAt: new Date(Date.now() - 30_000) } });
    const site = await createSite();
    expect((await api.patch(`/api/v1/admin/sites/${site.id}`, { admin: true, body: { default_team_id: "tm_alerts" } })).status).toBe(200);
    await startConversation(site.id, { body: "for the team" });
    await eventually(() => expect(smtp.to(insider.email!)).toHaveLength(1));
    await settle();
    expect(smtp.to(outsider.email!)).toHaveLength(0);
    expect(smtp.to(watcher.email!)).toHaveLength(0);
  });
  test("a deactivated member is alerted no more, though their email and notify stay", async () => {
    const colleague = await createStaff("agent", "Carl Colleague", PUBLIC_URL);
    const leaver = await createStaff("agent", "Lea Leaver", PUBLIC_URL);
    await deactivateMember(leaver.id);
    await openConversation({ body: "who hears this?" });
    await eventually(() => expect(smtp.to(colleague.email!)).toHaveLength(1));
    await settle();
    expect(smtp.to(leaver.email!)).toHaveLength(0);
  });
});

describe("visitor follow-ups", () => {
  test("unseen staff replies are emailed once with a one-click unsubscribe that works", async () => {
    const member = await staffMember({ notify: false });
    const started = await openConversation({ email: "visitor@example.com", name: "Ada" });
    await staffReply(started.conversationId, member.id, "We shipped it <today>.");
    await staffReply(started.conversationId, member.id, "Tracking: 123");
    const [mail] = await eventually(() => {
      const mails = smtp.to("visitor@example.com");
      expect(mails).toHaveLength(1);
      return mails;
    });
    const { parsed } = mail!;
    expect(parsed.text).toContain("We shipped it <today>.");
    expect(parsed.text).toContain("Tracking: 123");
    expect(parsed.html).toContain("We shipped it &lt;today&gt;.");
    expect(parsed.text).toContain(started.site.id); // the site's name
    const header = (name: string) => parsed.headerLines.find((line) => line.key === name)?.line.replace(/^[^:]+:\s*/, "");
    const unsubscribeUrl = /^<(.+)>$/.exec(header("list-unsubscribe") ?? "")?.[1] ?? "";
    expect(unsubscribeUrl).toMatch(new RegExp(`^${PUBLIC_URL}/api/v1/email/unsubscribe\\?`));
    expect(header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    expect(parsed.text).toContain(unsubscribeUrl);

    const path = unsubscribeUrl.slice(PUBLIC_URL.length);
    expect((await unsubscribeCall("GET", path)).status).toBe(200); // shows a button, records nothing
    expect(await (await db()).visitorFollowUp.findUnique({ where: { conversationId: started.conversationId } })).toMatchObject({ unsubscribedAt: null });
    expect((await unsubscribeCall("POST", path.replace(/signature=[^&]+/, "signature=forged"))).status).toBe(404);
    const done = await unsubscribeCall("POST", path, "List-Unsubscribe=One-Click");
    expect(done.status).toBe(200);
    expect(await (await db()).visitorFollowUp.findUnique({ where: { conversationId: started.conversationId } })).toMatchObject({
      unsubscribedAt: expect.any(Date),
    });
    await staffReply(started.conversationId, member.id, "Anything else?");
    await settle(TIMINGS.followUpDelayMs! + 1_200);
    expect(smtp.to("visitor@example.com")).toHaveLength(1);
  });

  test("cancelled when the visitor sees the replies first", async () => {
    const member = await staffMember({ notify: false });
    const started = await openConversation({ email: "reader@example.com" });
    const reply = await staffReply(started.conversationId, member.id, "Seen in time");
    // What the visitor's list endpoint records when it sends the reply (decisions.md "Seen").
    await (await db()).conversation.update({
      where: { id: started.conversationId },
      data: { visitorSeenSequence: reply.json.result.message.sequence },
    });
    await settle(TIMINGS.followUpDelayMs! + 1_200);
    expect(smtp.to("reader@example.com")).toHaveLength(0);
  });

  test("no email without a visitor email, and none before the delay", async () => {
    const member = await staffMember({ notify: false });
    const started = await openConversation({ email: "patient@example.com" });
    await staffReply(started.conversationId, member.id, "Soon");
    await settle(300);
    expect(smtp.to("patient@example.com")).toHaveLength(0);
    await eventually(() => expect(smtp.to("patient@example.com")).toHaveLength(1));
    const before = smtp.mails.length;
    const anonymous = await openConversation();
    await staffReply(anonymous.conversationId, member.id, "Hello?");
    await settle(TIMINGS.followUpDelayMs! + 1_200);
    expect(smtp.mails.length).toBe(before);
  });

  test("after a close the follow-up carries one-click rating links that rate that close", async () => {
    const member = await staffMember({ notify: false });
    const started = await openConversation({ email: "rater@example.com" });
    await staffReply(started.conversationId, member.id, "Fixed, closing this.");
    expect((await api.post(`/api/v1/admin/conversations/${started.conversationId}/close`, { admin: true })).status).toBe(200);
    const [mail] = await eventually(() => {
      const mails = smtp.to("rater@example.com");
      expect(mails).toHaveLength(1);
      return mails;
    });
    const links = [...mail!.parsed.text!.matchAll(/https:\/\/parley\.example(\/api\/v1\/chat\/rate\?\S+)/g)].map((match) => match[1]!);
    expect(links.map((link) => new URLSearchParams(link.split("?")[1]).get("score"))).toEqual(["1", "2", "3", "4", "5"]);
    for (const link of links) expect(mail!.parsed.html).toContain(link.replaceAll("&", "&amp;"));

    const { POST: rate } = await import("../../app/api/v1/chat/rate/route");
    const form = new URLSearchParams(links[3]!.split("?")[1]);
    const rated = await rate(new Request("http://localhost:3000/api/v1/chat/rate", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: form }));
    expect(rated.status).toBe(201);
    expect(await (await db()).conversationRating.findMany({ where: { conversationId: started.conversationId }, select: { score: true } })).toEqual([{ score: 4 }]);
  });
});

describe("tickets", () => {
  test("the filer gets an acknowledgement with the number, and each staff reply keeps it", async () => {
    const started = await openConversation();
    const filed = await fileTicket(started.site.id, ticket({ email: "filer@example.com", subject: "Broken <zip>" }));
    const [ack] = await eventually(() => {
      const mails = smtp.to("filer@example.com");
      expect(mails).toHaveLength(1);
      return mails;
    });
    expect(ack!.parsed.subject).toBe(`[#${filed.number}] Broken <zip>`);
    expect(ack!.parsed.html).toContain("Broken &lt;zip&gt;");

    const ticketId = (await listTickets(started.site.id))[0]!.id;
    const member = await staffMember({ notify: false });
    const reply = await api.post(`/api/v1/admin/tickets/${ticketId}/replies`, {
      admin: true,
      body: { author_id: member.id, body: "Fixed in 2.1" },
    });
    expect(reply.status).toBe(201);
    expect(reply.json.result).toMatchObject({ ticket_id: ticketId, ticket_number: filed.number, author_name: "Grace Staff", body: "Fixed in 2.1" });
    const mails = await eventually(() => {
      const mails = smtp.to("filer@example.com");
      expect(mails).toHaveLength(2);
      return mails;
    });
    expect(mails[1]!.parsed.subject).toBe(`Re: [#${filed.number}] Broken <zip>`);
    expect(mails[1]!.parsed.text).toContain("Fixed in 2.1");
  });

  test("a reply from the inbox reaches the filer, the number in the subject", async () => {
    const started = await openConversation();
    const filed = await fileTicket(started.site.id, ticket({ email: "inbox-filer@example.com", subject: "Login fails" }));
    await eventually(() => expect(smtp.to("inbox-filer@example.com")).toHaveLength(1));
    const ticketId = (await listTickets(started.site.id))[0]!.id;
    const agent = await createStaff("agent", "Andy Agent", PUBLIC_URL);
    const reply = await api.post(`/api/v1/inbox/tickets/${ticketId}/replies`, as(agent, { origin: PUBLIC_URL, body: { body: "Reset it from the sign-in page." } }));
    expect(reply.status).toBe(201);
    const mails = await eventually(() => {
      const mails = smtp.to("inbox-filer@example.com");
      expect(mails).toHaveLength(2);
      return mails;
    });
    expect(mails[1]!.parsed.subject).toBe(`Re: [#${filed.number}] Login fails`);
    expect(mails[1]!.parsed.text).toContain("Reset it from the sign-in page.");
    expect(mails[1]!.parsed.text).toContain("Andy Agent");
  });

  test("a bad reply is a 400 or 404 and stores nothing", async () => {
    const started = await openConversation();
    await fileTicket(started.site.id, ticket({ email: "nobody@example.com" }));
    const ticketId = (await listTickets(started.site.id))[0]!.id;
    const member = await staffMember({ notify: false });
    const post = (id: string, body: unknown) => api.post(`/api/v1/admin/tickets/${id}/replies`, { admin: true, body });
    expect((await post(ticketId, { author_id: member.id, body: "" })).status).toBe(400);
    expect((await post(ticketId, { author_id: member.id, body: "x", extra: 1 })).status).toBe(400);
    expect((await post(ticketId, { author_id: "ghost", body: "x" })).status).toBe(404);
    expect((await post("no-such-ticket", { author_id: member.id, body: "x" })).status).toBe(404);
    expect(await (await db()).ticketReply.count({ where: { ticketId } })).toBe(0);
  });
});

describe("SMTP connections", () => {
  test("emails share a few kept connections instead of one each", async () => {
    const started = await openConversation();
    const before = smtp.connections;
    const recipients = Array.from({ length: 6 }, (_, i) => `pooled${i}@example.com`);
    await Promise.all(recipients.map((email) => fileTicket(started.site.id, ticket({ email }))));
    await eventually(() => expect(recipients.map((email) => smtp.to(email).length)).toEqual(Array(6).fill(1)));
    expect(smtp.connections - before).toBeLessThan(recipients.length);
  });

  test("after the SMTP server restarts, the next email goes out at its first attempt", async () => {
    const started = await openConversation();
    await fileTicket(started.site.id, ticket({ email: "before-restart@example.com" }));
    await eventually(() => expect(smtp.to("before-restart@example.com")).toHaveLength(1));
    await smtp.stop(); // closes the connection the pool keeps
    await smtp.start();
    await fileTicket(started.site.id, ticket({ email: "after-restart@example.com" }));
    await eventually(() => expect(smtp.to("after-restart@example.com")).toHaveLength(1));
    await eventually(async () =>
      expect(await (await db()).email.findFirstOrThrow({ where: { recipient: "after-restart@example.com" } })).toMatchObject({
        status: "sent",
        attempts: 1,
        lastError: null,
      }),
    );
  });
});

test("SMTP down: the email is retried and sent when the server is back, nothing lost", async () => {
  smtp.down = true;
  try {
    const started = await openConversation();
    await fileTicket(started.site.id, ticket({ email: "later@example.com" }));
    await eventually(async () => {
      const email = await (await db()).email.findFirstOrThrow({ where: { recipient: "later@example.com" } });
      expect(email.attempts).toBeGreaterThanOrEqual(1);
      expect(email.status).toBe("pending");
      expect(email.lastError).toMatch(/^SMTP /);
    });
    expect(smtp.to("later@example.com")).toHaveLength(0);
  } finally {
    smtp.down = false;
  }
  await eventually(() => expect(smtp.to("later@example.com")).toHaveLength(1), 15_000);
  await eventually(async () =>
    expect((await (await db()).email.findFirstOrThrow({ where: { recipient: "later@example.com" } })).status).toBe("sent"),
  );
});

test("the rules' delays default to decisions.md's", () => {
  expect(DEFAULT_TIMINGS.staffIdleMs).toBe(60_000);
  expect(DEFAULT_TIMINGS.staffAlertIntervalMs).toBe(10 * 60_000);
  expect(DEFAULT_TIMINGS.followUpDelayMs).toBe(10 * 60_000);
  // "within 1 minute": the dispatcher and the queue poll well inside it.
  expect(DEFAULT_TIMINGS.dispatchPollMs + DEFAULT_TIMINGS.jobPollMs).toBeLessThan(5_000);
});


describe("with a webhook taking every message", () => {
  // The dispatcher then reads the messages with their webhook payloads, not only what the rules need.
  test("the rules still see each message: the staff are alerted, the visitor followed up", async () => {
    const receiver = await new WebhookReceiver().start();
    const created = await api.post("/api/v1/admin/webhooks", { admin: true, body: { url: receiver.url, events: ["message.created"] } });
    expect(created.status).toBe(201);
    try {
      const member = await staffMember();
      const started = await openConversation({ body: "Anyone there?", email: "reader@example.com" });
      await eventually(() => expect(smtp.to(member.email!)).toHaveLength(1));
      await staffReply(started.conversationId, member.id, "Yes, here.");
      const [followUp] = await eventually(() => {
        const mails = smtp.to("reader@example.com");
        expect(mails).toHaveLength(1);
        return mails;
      }, 10_000);
      expect(followUp!.parsed.text).toContain("Yes, here.");
      await eventually(() =>
        expect(receiver.received.filter((delivery) => delivery.payload.data.conversation_id === started.conversationId)).toHaveLength(2),
      );
    } finally {
      await api.delete(`/api/v1/admin/webhooks/${created.json.result.id}`, { admin: true });
      await receiver.stop();
    }
  });
});
