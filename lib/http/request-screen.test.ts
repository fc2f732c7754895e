import { describe, expect, test } from "vitest";
import { config as proxyConfig } from "../../proxy";
import { DEMO_PATHS } from "./page-headers.mjs";
import { isApiPath, isNextInternalHeader, NEXT_INTERNAL_HEADERS, screenRequest } from "./request-screen.mjs";

describe("requests the API never honours", () => {
  test.each([
    ["TRACE", "/api/v1/admin/sites", 404],
    ["PROPFIND", "/", 404],
    ["QUERY", "/api/v1/chat/visitor/messages", 404],
    [undefined, "/", 404],
    ["GET", "/api/v1/chat/visitor/avatars/%ED%A0%80", 400],
    ["GET", "/api/v1/chat/visitor/avatars/%FF", 400],
    ["GET", "/demo/%E0%A4%A", 400],
    ["GET", "/api/v1//admin/sites", 404],
    ["GET", "//api/v1/admin/sites", 404],
    ["GET", "/api/v1/admin/sites//", 404],
    ["GET", "http://example.com/api/v1/admin/sites", 400],
    ["GET", "*", 400],
  ])("%s %s is refused with %i", (method, target, status) => {
    expect(screenRequest(method, target)?.status).toBe(status);
  });

  test.each([
    ["GET", "/api/v1/chat/visitor/messages?cursor=0&wait=25"],
    ["POST", "/api/v1/chat/widget/shop-1/conversations"],
    ["OPTIONS", "/api/v1/chat/visitor/messages"],
    ["GET", "/api/v1/chat/visitor/messages/"], // a trailing slash reaches the route
    ["GET", "/api/v1/chat/visitor/avatars/%C3%A9"],
    ["GET", "/api/v1/chat/visitor/messages?q=%FF//x"], // the query is the route's to judge
    ["HEAD", "/"],
  ])("%s %s passes", (method, target) => {
    expect(screenRequest(method, target)).toBeNull();
  });

  test("internal headers are recognised in any case, and nothing else is", () => {
    for (const name of [...NEXT_INTERNAL_HEADERS, "RSC", "Next-Action", "X-Invoke-Path", "x-invoke-anything", "X-Middleware-Rewrite", "x-nextjs-matched-path"]) {
      expect([name, isNextInternalHeader(name)]).toEqual([name, true]);
    }
    for (const name of ["Authorization", "Origin", "X-Forwarded-For", "x-request-id", "Next", "rscx", "referer", "Idempotency-Key"]) {
      expect([name, isNextInternalHeader(name)]).toEqual([name, false]);
    }
  });

  test("an /api path is recognised as Next routes it: dot segments and percent-encoding resolved", () => {
    for (const path of ["/api", "/api/v1/admin/sites", "/api?x=1", "/%61pi/v1/admin/sites", "/demo/../api/v1/admin/sites", "/demo/%2e%2e/api/v1"]) {
      expect([path, isApiPath(path)]).toEqual([path, true]);
    }
    for (const path of ["/", "/demo", "/apix", "/_next/static/chunks/a.js", "/API/v1"]) expect([path, isApiPath(path)]).toEqual([path, false]);
  });

  test("proxy.ts runs for every internal header it can match (its matcher must be literal, so it is checked here)", () => {
    const matched = proxyConfig.matcher.flatMap((entry) => (entry.has ?? []).map((condition) => condition.key));
    expect(matched.sort()).toEqual([...NEXT_INTERNAL_HEADERS].sort());
    // Besides /api, it runs only for the pages whose headers depend on the configuration.
    const pages = proxyConfig.matcher.filter((entry) => !entry.source.startsWith("/api/"));
    expect(pages.map((entry) => entry.source)).toEqual([...DEMO_PATHS]);
  });
});
