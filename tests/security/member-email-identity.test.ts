import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { db } from "../../lib/db/client";
import { setupLinkIfNoOwner } from "../../lib/staff/invites";
import { foldEmailCase, hasAsciiLookalike, memberEmailKey } from "../../lib/core/validation/member-email";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { as, codeOf, createStaff, INBOX_ORIGIN, PASSWORD } from "../support/inbox";

// threats.md, "GitHub password reset, 2019 (Unicode case mapping)": an email names a member by
// ASCII case folding only, and an address holding a non-ASCII character that case mapping or NFKC
// turns into ASCII is refused at every door where an email identifies a member. (Single sign-on's
// door: tests/integration/sso-hostile-provider.test.ts.)

const LOOKALIKES = [
  ["Kelvin sign (lower-cases to k)", "\u212Aelvin@team.example"],
  ["dotless ı (upper-cases to I)", "kelv\u0131n@team.example"],
  ["long s (upper-cases to S)", "\u017Fam@team.example"],
  ["dotted İ (lower-cases to i + U+0307)", "\u0130van@team.example"],
  ["fullwidth k (NFKC)", "\uFF4Belvin@team.example"],
  ["Kelvin sign in the domain", "kelvin@\u212Aelvin.example"],
] as const;

describe("GitHub password reset, 2019 (Unicode case mapping): one email rule at every door", { timeout: 120_000 }, () => {
  test("the rule: ASCII look-alikes are refused, and only A-Z is folded", () => {
    for (const [, address] of LOOKALIKES) {
      expect(hasAsciiLookalike(address)).toBe(true);
      expect(memberEmailKey(address)).toBeNull();
    }
    expect(memberEmailKey(" Sam.Smith@Team.EXAMPLE ")).toBe("sam.smith@team.example");
    expect(foldEmailCase("\u212Aelvin@TEAM.example")).toBe("\u212Aelvin@team.example"); // never onto "kelvin"
  });

  test.each(LOOKALIKES)("password sign-in refuses a %s address with 400, naming the field", async (_, address) => {
    const response = await api.post("/api/v1/inbox/session", { origin: INBOX_ORIGIN, body: { email: address, password: PASSWORD } });
    expectError(response, 400, "invalid_request");
    expect(response.json.message).toMatch(/^Invalid body\. email: must not contain a non-ASCII character/);
  });

  test("a member whose address a look-alike folds onto keeps it: sign-in with the look-alike never reaches them", async () => {
    const staff = await createStaff("agent", "Kelvin Real");
    await (await db()).member.update({ where: { id: staff.id }, data: { email: "kelvin@team.example" } });
    expectError(await api.post("/api/v1/inbox/session", { origin: INBOX_ORIGIN, body: { email: "\u212Aelvin@team.example", password: PASSWORD } }), 400, "invalid_request");
    expect((await api.post("/api/v1/inbox/session", { origin: INBOX_ORIGIN, body: { email: "KELVIN@team.example", password: PASSWORD } })).status).toBe(200);
  });

  test.each(LOOKALIKES)("invites, invite acceptance and member changes refuse a %s address", async (_, address) => {
    const owner = await createStaff("owner", "Olive Owner");
    const before = await (await db()).staffInvite.count();
    expectError(await api.post("/api/v1/inbox/members/invites", as(owner, { body: { email: address, name: "Kay", role: "agent" } })), 400, "invalid_request");
    expect(await (await db()).staffInvite.count()).toBe(before);
    expectError(await api.patch(`/api/v1/inbox/members/${owner.id}`, as(owner, { body: { email: address } })), 400, "invalid_request");
    expectError(await api.post("/api/v1/admin/members", { admin: true, body: { id: `kay-${before}`, name: "Kay", email: address } }), 400, "invalid_request");
    expectError(await api.patch(`/api/v1/admin/members/${owner.id}`, { admin: true, body: { email: address } }), 400, "invalid_request");
    expect((await (await db()).member.findUniqueOrThrow({ where: { id: owner.id } })).email).toBe(owner.email);
  });

  test("a setup link without an email refuses a look-alike address at acceptance", async () => {
    await (await db()).member.updateMany({ where: { role: "owner" }, data: { role: "agent" } });
    const link = await setupLinkIfNoOwner();
    const body = { code: codeOf(link!), name: "Kay Owner", email: "\u212Aelvin@team.example", password: PASSWORD };
    expectError(await api.post("/api/v1/inbox/invites/accept", { origin: INBOX_ORIGIN, body }), 400, "invalid_request");
    expect(await (await db()).member.count({ where: { email: { contains: "elvin@team.example" }, role: "owner" } })).toBe(0);
  });

  test("the staff CLI refuses a look-alike address", async () => {
    const script = path.resolve(import.meta.dirname, "../../scripts/staff.ts");
    const run = promisify(execFile)(process.execPath, ["--import", "tsx", script, "invite", "--email", "\u212Aelvin@team.example", "--name", "Kay", "--role", "agent"]);
    const failure = await run.then(() => null, (error: { code: number; stderr: string }) => error);
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain("U+212A");
  });
});
