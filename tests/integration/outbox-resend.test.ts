import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { db } from "../../lib/db/client";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite } from "../support/fixtures";
import { as, createStaff, type Staff } from "../support/inbox";
import { rowCounts } from "../support/row-counts";
import { SmtpCapture } from "../support/smtp-capture";
import { fileTicket, ticket } from "../support/tickets";

// The outbox's filter and "resend" (issue 28, item 6): emails kept while SMTP_URL was unset are
// sent once it is set; a suppressed one never is. No worker runs: the cron route delivers.

delete process.env.SMTP_URL;
process.env.CRON_SECRET = "cron-secret-0123456789abcdef";
const smtp = new SmtpCapture();
const VICTIM = "resend-victim@example.com";
let owner: Staff;
let agent: Staff;

const deliver = async () => expect((await api.get("/api/v1/cron/dispatch", { headers: { Authorization: `Bearer ${process.env.CRON_SECRET}` } })).status).toBe(200);
const outbox = async (status?: string) => {
  const response = await api.get(`/api/v1/inbox/outbox${status ? `?status=${status}` : ""}`, as(owner));
  expect(response.status).toBe(200);
  return response.json.result as { id: string; status: string; to: string; suppressed_reason: string | null }[];
};

beforeAll(async () => {
  owner = await createStaff("owner", "Olive Owner");
  agent = await createStaff("agent", "Andy Agent");
  const site = await createSite();
  for (let i = 0; i < 4; i++) await fileTicket(site.id, ticket({ email: VICTIM, subject: `Parcel ${i}` })); // the 4th is over the hourly cap
  await deliver();
});
afterAll(() => smtp.stop());

describe("without SMTP", () => {
  test("the outbox filters by state; a bad filter, no session or an agent are refused", async () => {
    expect(await outbox()).toHaveLength(4);
    expect((await outbox("not_sent")).map((email) => email.to)).toEqual([VICTIM, VICTIM, VICTIM]);
    expect(await outbox("suppressed")).toEqual([expect.objectContaining({ status: "suppressed", suppressed_reason: "hourly_cap" })]);
    expect(await outbox("sent")).toEqual([]);
    expect(await outbox("failed")).toEqual([]);
    expect((await api.get("/api/v1/admin/outbox?status=not_sent", { admin: true })).json.result).toHaveLength(3);
    expectError(await api.get("/api/v1/inbox/outbox?status=lost", as(owner)), 400, "invalid_request");
    expectError(await api.get("/api/v1/admin/outbox?state=sent", { admin: true }), 400, "invalid_request");
    expectError(await api.get("/api/v1/inbox/outbox", as(null)), 401, "unauthorized");
    expectError(await api.get("/api/v1/inbox/outbox", as(agent)), 403, "forbidden");
  });

  test("resending is refused while SMTP_URL is unset, and by role, origin and token; nothing changes", async () => {
    const before = await rowCounts();
    const [email] = await outbox("not_sent");
    expectError(await api.post(`/api/v1/inbox/outbox/${email!.id}/resend`, as(owner)), 400, "invalid_request");
    expectError(await api.post("/api/v1/inbox/outbox/resend", as(owner)), 400, "invalid_request");
    expectError(await api.post(`/api/v1/inbox/outbox/${email!.id}/resend`, as(agent)), 403, "forbidden");
    expectError(await api.post("/api/v1/inbox/outbox/resend", as(owner, { origin: "https://evil.example" })), 403, "origin_not_allowed");
    expectError(await api.post("/api/v1/inbox/outbox/resend", as(null)), 401, "unauthorized");
    expectError(await api.post("/api/v1/admin/outbox/resend", { admin: "wrong-token-0123456789" }), 401, "unauthorized");
    expect(await rowCounts()).toEqual(before);
    expect(await outbox("not_sent")).toHaveLength(3);
  });
});

describe("once SMTP works", () => {
  beforeAll(async () => {
    await smtp.start();
    process.env.SMTP_URL = smtp.url;
    process.env.MAIL_FROM = "Acme Support <support@acme.example>";
    vi.resetModules(); // lib/core/env.ts parses the environment once per module instance
  });

  test("one email, then every one not sent, go out; a suppressed or sent one is refused and never sent", async () => {
    const [suppressed] = await outbox("suppressed");
    const [first, ...others] = await outbox("not_sent");
    const before = await rowCounts();
    expectError(await api.post(`/api/v1/inbox/outbox/${suppressed!.id}/resend`, as(owner)), 400, "invalid_request");
    expectError(await api.post("/api/v1/admin/outbox/em_missing/resend", { admin: true }), 404, "not_found");
    expectError(await api.post(`/api/v1/inbox/outbox/${"x".repeat(101)}/resend`, as(owner)), 400, "invalid_request");
    expect(await rowCounts()).toEqual(before);

    const resent = await api.post(`/api/v1/inbox/outbox/${first!.id}/resend`, as(owner));
    expect(resent.status).toBe(200);
    expect(resent.json.result).toEqual({ id: first!.id, status: "pending" });
    expect((await outbox("pending")).map((email) => email.id)).toEqual([first!.id]);
    await deliver();
    expect(smtp.to(VICTIM)).toHaveLength(1);
    expect((await outbox("sent")).map((email) => email.id)).toEqual([first!.id]);
    expectError(await api.post(`/api/v1/admin/outbox/${first!.id}/resend`, { admin: true }), 400, "invalid_request");

    const all = await api.post("/api/v1/admin/outbox/resend", { admin: true });
    expect(all.json.result).toEqual({ resent: others.length });
    await deliver();
    expect(smtp.to(VICTIM)).toHaveLength(3);
    expect(await outbox("not_sent")).toEqual([]);
    expect(await outbox("suppressed")).toEqual([expect.objectContaining({ id: suppressed!.id, status: "suppressed" })]);
    expect(smtp.to(VICTIM).map((mail) => mail.parsed.subject).sort()).not.toContain(expect.stringContaining("Parcel 3"));
    expect((await api.post("/api/v1/inbox/outbox/resend", as(owner))).json.result).toEqual({ resent: 0 });
    expect(await (await db()).email.count({ where: { status: "sent" } })).toBe(3);
  });

  test("an emailed invite arrives, and its link signs the invitee in", async () => {
    const invited = await api.post("/api/v1/inbox/members/invites", as(owner, { body: { email: "mailed@team.example", name: "Mel", role: "agent", send_email: true } }));
    expect(invited.json.result.emailed).toBe(true);
    await deliver();
    const [mail, ...more] = smtp.to("mailed@team.example");
    expect(more).toEqual([]);
    expect(mail!.parsed.subject).toBe("You are invited to the team's inbox");
    expect(mail!.parsed.text).toContain(invited.json.result.invite_url);
    const code = new URL(invited.json.result.invite_url).searchParams.get("code")!;
    const accepted = await api.post("/api/v1/inbox/invites/accept", as(null, { body: { code, password: "correct horse battery" } }));
    expect(accepted.status).toBe(200);
  });
});
