import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import nextConfig from "../../next.config.mjs";
import { parseEnv } from "../../lib/core/env";
import { demoContentSecurityPolicy, runtimePageHeaders } from "../../lib/http/page-headers.mjs";
import { productionBuildExists, send, startServer, type RunningServer } from "../support/production-server";

// Security headers of the pages (lib/http/page-headers.mjs). Three levels of proof:
// 1. the static rules, as next.config.mjs hands them to Next, each compiled by Next's own
//    buildCustomRoute (what `next build` writes into routes-manifest.json);
// 2. the rules the configuration decides (the /demo CSP), as proxy.ts sets them per request;
// 3. the real production server (`npm start`) answering /demo with a PUBLIC_URL the build never
//    saw: the policy is the running server's, not the build's.

const ROOT = path.resolve(import.meta.dirname, "../..");
// The function `next build` compiles each headers() rule with into routes-manifest.json.
const { buildCustomRoute } = createRequire(import.meta.url)(path.join(ROOT, "node_modules/next/dist/lib/build-custom-route.js")) as {
  buildCustomRoute: (type: "header", route: HeaderRule) => HeaderRule & { regex: string };
};

interface HeaderRule {
  source: string;
  headers: { key: string; value: string }[];
}
const rules = (await nextConfig.headers!()) as HeaderRule[];

/** The headers Next and proxy.ts would send for `pathname` under `config`: every matching rule, later ones overriding. */
function configuredHeaders(pathname: string, config: Record<string, string> = { NODE_ENV: "production" }): Headers {
  const headers = new Headers();
  for (const rule of rules) {
    if (!new RegExp(buildCustomRoute("header", rule).regex).test(pathname)) continue;
    for (const { key, value } of rule.headers) headers.set(key, value);
  }
  for (const [key, value] of runtimePageHeaders(pathname, parseEnv(config)) ?? []) headers.set(key, value);
  return headers;
}

function directives(csp: string | string[] | null | undefined): Map<string, string[]> {
  return new Map(
    String(csp ?? "")
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...values]) => [name!, values]),
  );
}

function expectStrictDemoPolicy(csp: string | string[] | null | undefined): void {
  const policy = directives(csp);
  expect(policy.get("default-src")).toEqual(["'self'"]);
  expect(policy.get("script-src")).toEqual(["'self'", "'unsafe-inline'"]);
  expect(policy.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
  expect(policy.get("img-src")).toEqual(["'self'", "data:", "blob:"]);
  expect(policy.get("connect-src")?.[0]).toBe("'self'");
  expect(policy.get("connect-src")!.slice(1).every((origin) => /^https?:\/\/[^/*\s]+$/.test(origin))).toBe(true);
  expect(policy.get("object-src")).toEqual(["'none'"]);
  expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
  expect(policy.get("base-uri")).toEqual(["'self'"]);
  expect(policy.get("form-action")).toEqual(["'self'"]);
}

describe("page security headers (lib/http/page-headers.mjs)", () => {
  test.each(["/demo", "/demo/"])("%s sends a strict Content-Security-Policy and refuses framing", (pathname) => {
    const headers = configuredHeaders(pathname);
    expectStrictDemoPolicy(headers.get("content-security-policy"));
    expect(headers.get("x-frame-options")).toBe("DENY");
  });

  test.each(["/", "/demo", "/widget.js", "/api/v1/chat/visitor/messages"])("%s sends nosniff and a Referrer-Policy", (pathname) => {
    const headers = configuredHeaders(pathname);
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    expect(headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  });

  test.each(["/inbox", "/inbox/", "/inbox/sign-in", "/inbox/settings", "/inbox/settings/webhooks/wh_1", "/inbox/outbox", "/inbox/conversations/c-1"])(
    "%s refuses framing (X-Frame-Options and frame-ancestors)",
    (pathname) => {
      const headers = configuredHeaders(pathname);
      expect(headers.get("x-frame-options")).toBe("DENY");
      expect(directives(headers.get("content-security-policy")).get("frame-ancestors")).toEqual(["'none'"]);
    },
  );

  test("pages outside the inbox are not caught by its rule", () => {
    for (const pathname of ["/inboxes", "/api/v1/inbox/conversations", "/widget.js"]) {
      expect(configuredHeaders(pathname).get("x-frame-options"), pathname).toBeNull();
    }
  });

  test("the widget script itself is not held to the demo page's policy (customer pages load it)", () => {
    expect(configuredHeaders("/widget.js").get("content-security-policy")).toBeNull();
    expect(configuredHeaders("/demox").get("content-security-policy")).toBeNull();
  });

  test("the inbox's pages refuse framing", () => {
    for (const pathname of ["/inbox", "/inbox/", "/inbox/conversations/abc"]) {
      const headers = configuredHeaders(pathname);
      expect([pathname, headers.get("x-frame-options"), directives(headers.get("content-security-policy")).get("frame-ancestors")]).toEqual([
        pathname,
        "DENY",
        ["'none'"],
      ]);
    }
    expect(configuredHeaders("/inboxes").get("x-frame-options")).toBeNull();
  });

  test("/reference loads scripts, data and fonts from this service only, with no 'unsafe-*' for scripts", () => {
    const policy = directives(configuredHeaders("/reference").get("content-security-policy"));
    for (const directive of ["default-src", "script-src", "connect-src", "base-uri", "form-action"]) expect(policy.get(directive), directive).toEqual(["'self'"]);
    expect(policy.get("font-src")).toEqual(["'self'", "data:"]);
    expect(policy.get("object-src")).toEqual(["'none'"]);
  });

  test("Scalar's bundle for /reference, named by its version, is cached for good", () => {
    expect(configuredHeaders("/scalar/api-reference-1.46.4.js").get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(configuredHeaders("/scalar/api-reference-1.46.4.js").get("content-security-policy")).toBeNull();
  });

  test("connect-src follows the upload destination: the public origin, and the S3 bucket when configured", () => {
    const local = directives(demoContentSecurityPolicy(parseEnv({ PUBLIC_URL: "https://chat.example.com/x" }))).get("connect-src");
    expect(local).toEqual(["'self'", "https://chat.example.com"]);
    const unset = directives(demoContentSecurityPolicy(parseEnv({ PORT: "4321" }))).get("connect-src");
    expect(unset).toEqual(["'self'", "http://localhost:4321"]);
    const s3 = directives(demoContentSecurityPolicy(parseEnv({ PUBLIC_URL: "https://chat.example.com", S3_BUCKET: "files", S3_REGION: "eu-west-1" }))).get("connect-src");
    expect(s3).toEqual(["'self'", "https://chat.example.com", "https://s3.eu-west-1.amazonaws.com", "https://files.s3.eu-west-1.amazonaws.com"]);
    const pathStyle = directives(
      demoContentSecurityPolicy(parseEnv({ PUBLIC_URL: "https://chat.example.com", S3_BUCKET: "files", S3_ENDPOINT: "http://127.0.0.1:9000", S3_FORCE_PATH_STYLE: "true" })),
    ).get("connect-src");
    expect(pathStyle).toEqual(["'self'", "https://chat.example.com", "http://127.0.0.1:9000"]);
    const dev = directives(demoContentSecurityPolicy(parseEnv({ NODE_ENV: "development" }))).get("script-src");
    expect(dev).toContain("'unsafe-eval'"); // next dev's fast refresh; never in a production build
  });
});

describe.skipIf(!productionBuildExists())("page security headers on the real production server (`npm start`)", () => {
  // A public origin no build ever ran with: the policy must come from the running server.
  const PUBLIC_URL = "https://chat-runtime-csp.example";
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer("front", { PUBLIC_URL });
  });
  afterAll(() => server?.stop());

  test("/demo names the running server's PUBLIC_URL in connect-src, with every other header", async () => {
    for (const target of ["/demo", "/demo/"]) {
      const demo = await send(server.port, "GET", target);
      expect(demo.status).toBe(200);
      expectStrictDemoPolicy(demo.headers["content-security-policy"]);
      expect(directives(demo.headers["content-security-policy"]).get("connect-src")).toEqual(["'self'", PUBLIC_URL]);
      expect(demo.headers["x-frame-options"]).toBe("DENY");
      expect(demo.headers["x-content-type-options"]).toBe("nosniff");
      expect(demo.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
      expect(demo.headers["x-powered-by"]).toBeUndefined();
    }
  });

  test("/, the widget and the API keep the site-wide headers; no page but /demo gets its policy", async () => {
    const home = await send(server.port, "GET", "/");
    expect(home.headers["x-content-type-options"]).toBe("nosniff");
    expect(home.headers["content-security-policy"]).toBeUndefined();
    const widget = await send(server.port, "GET", "/widget.js");
    expect(widget.headers["cache-control"]).toBe("public, max-age=300, must-revalidate");
    expect(widget.headers["content-security-policy"]).toBeUndefined();
    const api = await send(server.port, "GET", "/api/v1/chat/visitor/messages", { headers: { Origin: "https://nobody.example" } });
    expect(api.status).toBe(401);
    expect(api.headers["cache-control"]).toBe("no-store");
    expect(api.headers["x-content-type-options"]).toBe("nosniff");
    expect(api.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    // The widget's hot routes skip Next's request handler (lib/runtime/front.mjs).
    expect(server.output()).toContain("Served without Next's request handler: /api/v1/chat/visitor/messages, /api/v1/chat/visitor/presence");
  });
});
