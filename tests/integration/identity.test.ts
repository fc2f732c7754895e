import { createHmac } from "node:crypto";
import { describe, expect, test } from "vitest";
import { api } from "../support/api";
import { expectError } from "../support/expectations";
import { createSite, ORIGIN } from "../support/fixtures";
import { rowCounts } from "../support/row-counts";

// Identity verification (decisions.md): POST /admin/sites/{id}/identity-secret, the
// identity_required flag, and starts carrying user_id + user_hash.

const hmac = (secret: string, userId: string) => createHmac("sha256", secret).update(userId).digest("hex");
const start = (siteId: string, body: Record<string, unknown>) => api.post(`/api/v1/chat/widget/${siteId}/conversations`, { origin: ORIGIN, body });

async function siteWithSecret(options: { required?: boolean } = {}) {
  const site = await createSite();
  const created = await api.post(`/api/v1/admin/sites/${site.id}/identity-secret`, { admin: true });
  expect(created.status).toBe(201);
  const secret = created.json.result.identity_secret as string;
  if (options.required) expect((await api.patch(`/api/v1/admin/sites/${site.id}`, { admin: true, body: { identity_required: true } })).status).toBe(200);
  return { site, secret };
}

describe("identity verification", () => {
  test("the secret is random, shown once (never in the site's own view), and a new one replaces the old", async () => {
    const { site, secret } = await siteWithSecret();
    expect(secret).toMatch(/^ids_[A-Za-z0-9_-]{43}$/);
    const view = await api.patch(`/api/v1/admin/sites/${site.id}`, { admin: true, body: {} });
    expect(view.json.result.has_identity_secret).toBe(true);
    expect(JSON.stringify(view.json)).not.toContain(secret);
    const again = await api.post(`/api/v1/admin/sites/${site.id}/identity-secret`, { admin: true });
    const replaced = again.json.result.identity_secret as string;
    expect(replaced).not.toBe(secret);
    expectError(await start(site.id, { user_id: "u1", user_hash: hmac(secret, "u1") }), 403, "identity_invalid");
    expect((await start(site.id, { user_id: "u1", user_hash: hmac(replaced, "u1") })).status).toBe(201);
  });

  test("creating a secret needs the operator token, and a known site", async () => {
    const site = await createSite();
    expectError(await api.post(`/api/v1/admin/sites/${site.id}/identity-secret`, {}), 401, "unauthorized");
    expectError(await api.post(`/api/v1/admin/sites/no-such-site/identity-secret`, { admin: true }), 404, "site_not_found");
  });

  test("a valid pair starts a verified conversation, which the operator read shows with the user id", async () => {
    const { site, secret } = await siteWithSecret();
    const response = await start(site.id, { user_id: "customer-42", user_hash: hmac(secret, "customer-42").toUpperCase(), body: "hi", client_id: "c1" });
    expect(response.status).toBe(201);
    const read = await api.get(`/api/v1/admin/conversations/${response.json.result.conversation_id}`, { admin: true });
    expect(read.json.result).toMatchObject({ user_id: "customer-42", identity_verified: true });
    const anonymous = await start(site.id, {});
    const plain = await api.get(`/api/v1/admin/conversations/${anonymous.json.result.conversation_id}`, { admin: true });
    expect(plain.json.result).toMatchObject({ user_id: null, identity_verified: false });
  });

  test.each([
    ["a wrong hash", (secret: string) => ({ user_id: "u1", user_hash: hmac(secret, "u2") })],
    ["a hash of another secret", () => ({ user_id: "u1", user_hash: hmac("ids_other", "u1") })],
    ["a hash that is not hex", () => ({ user_id: "u1", user_hash: "z".repeat(64) })],
    ["a truncated hash", (secret: string) => ({ user_id: "u1", user_hash: hmac(secret, "u1").slice(0, 63) })],
    ["a user_id without a hash", () => ({ user_id: "u1" })],
    ["a hash without a user_id", (secret: string) => ({ user_hash: hmac(secret, "u1") })],
  ])("%s → 403 identity_invalid, nothing stored", async (_name, body) => {
    const { site, secret } = await siteWithSecret();
    const before = await rowCounts();
    const response = await start(site.id, { ...body(secret), body: "hello", client_id: "x" });
    expectError(response, 403, "identity_invalid");
    expect(response.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(response.json.message).not.toContain(secret);
    expect(await rowCounts()).toEqual(before);
  });

  test("a pair on a site without a secret cannot be verified: 403 identity_invalid", async () => {
    const site = await createSite();
    expectError(await start(site.id, { user_id: "u1", user_hash: "a".repeat(64) }), 403, "identity_invalid");
  });

  test("identity_required: a start without a pair is 403 identity_invalid; with a valid pair 201", async () => {
    const { site, secret } = await siteWithSecret({ required: true });
    expectError(await start(site.id, {}), 403, "identity_invalid");
    expectError(await start(site.id, { body: "hi", client_id: "a" }), 403, "identity_invalid");
    expect((await start(site.id, { user_id: "u9", user_hash: hmac(secret, "u9") })).status).toBe(201);
  });

  test("bounds: user_id over 100 characters or a user_hash over 128 is 400 invalid_request", async () => {
    const { site, secret } = await siteWithSecret();
    expectError(await start(site.id, { user_id: "u".repeat(101), user_hash: hmac(secret, "u".repeat(101)) }), 400, "invalid_request");
    expectError(await start(site.id, { user_id: "u1", user_hash: "a".repeat(129) }), 400, "invalid_request");
    expectError(await start(site.id, { user_id: 5, user_hash: "a" }), 400, "invalid_request");
  });
});
