import { describe, expect, test } from "vitest";
import { api } from "../support/api";
import { createSite, ORIGIN } from "../support/fixtures";
import { expectError } from "../support/expectations";

describe("routes and methods", () => {
  test.each([
    ["GET", "/api/v1/nothing-here"],
    ["POST", "/api/v2/chat/visitor/messages"],
    ["DELETE", "/api/anything/at/all"],
  ])("%s %s → 404 not_found", async (method, path) => {
    const response = await api[method.toLowerCase() as "get"](path);
    expectError(response, 404, "not_found");
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  test.each([
    ["DELETE", "/api/v1/chat/visitor/messages"],
    ["PUT", "/api/v1/chat/visitor/renew"],
    ["GET", "/api/v1/chat/visitor/renew"],
    ["PATCH", "/api/v1/admin/sites"],
  ])("an unsupported method (%s %s) is 404 not_found, never 405", async (method, path) => {
    expectError(await api[method.toLowerCase() as "get"](path, { origin: ORIGIN }), 404, "not_found");
  });

  test("GET on a widget route is 404 not_found", async () => {
    const site = await createSite();
    expectError(await api.get(`/api/v1/chat/widget/${site.id}/conversations`, { origin: ORIGIN }), 404, "not_found");
  });
});
