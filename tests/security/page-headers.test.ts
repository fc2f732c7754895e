import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import nextConfig, { demoContentSecurityPolicy } from "../../next.config.mjs";

// Security headers of the pages. Two levels of proof:
// 1. the headers() table of next.config.mjs, each rule compiled by Next's own buildCustomRoute
//    (what `next build` writes into routes-manifest.json), always;
// 2. the real production server (`npm start`: scripts/start.mjs) answering /demo, when a production build newer than next.config.mjs
//    exists (CI builds right before the tests). Next fixes headers() at build time, so an older
//    build would prove nothing — then this part is skipped rather than run against stale headers.

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

/** The headers Next would send for `pathname`: every matching rule, later ones overriding. */
function configuredHeaders(pathname: string): Headers {
  const headers = new Headers();
  for (const rule of rules) {
    if (!new RegExp(buildCustomRoute("header", rule).regex).test(pathname)) continue;
    for (const { key, value } of rule.headers) headers.set(key, value);
  }
  return headers;
}

function directives(csp: string | null): Map<string, string[]> {
  return new Map(
    (csp ?? "")
      .split(";")
      .map((part) => part.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...values]) => [name!, values]),
  );
}

function expectStrictDemoPolicy(csp: string | null): void {
  const policy = directives(csp);
  expect(policy.get("default-src")).toEqual(["'self'"]);
  expect(policy.get("script-src")).toEqual(["'self'", "'unsafe-inline'"]);
  expect(policy.get("style-src")).toEqual(["'self'", "'unsafe-inline'"]);
  expect(policy.get("img-src")).toEqual(["'self'", "data:"]);
  expect(policy.get("connect-src")?.[0]).toBe("'self'");
  expect(policy.get("connect-src")!.slice(1).every((origin) => /^https?:\/\/[^/*\s]+$/.test(origin))).toBe(true);
  expect(policy.get("object-src")).toEqual(["'none'"]);
  expect(policy.get("frame-ancestors")).toEqual(["'none'"]);
  expect(policy.get("base-uri")).toEqual(["'self'"]);
  expect(policy.get("form-action")).toEqual(["'self'"]);
}

describe("page security headers (next.config.mjs)", () => {
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

  test("connect-src follows the upload destination: the public origin, and the S3 bucket when configured", () => {
    const local = directives(demoContentSecurityPolicy({ PUBLIC_URL: "https://chat.example.com/x" })).get("connect-src");
    expect(local).toEqual(["'self'", "https://chat.example.com"]);
    const s3 = directives(demoContentSecurityPolicy({ PUBLIC_URL: "https://chat.example.com", S3_BUCKET: "files", S3_REGION: "eu-west-1" })).get("connect-src");
    expect(s3).toEqual(["'self'", "https://chat.example.com", "https://s3.eu-west-1.amazonaws.com", "https://files.s3.eu-west-1.amazonaws.com"]);
    const dev = directives(demoContentSecurityPolicy({ NODE_ENV: "development" })).get("script-src");
    expect(dev).toContain("'unsafe-eval'"); // next dev's fast refresh; never in a production build
  });
});

const buildId = path.join(ROOT, ".next/BUILD_ID");
const freshBuild = (() => {
  try {
    return statSync(buildId).mtimeMs > statSync(path.join(ROOT, "next.config.mjs")).mtimeMs;
  } catch {
    return false;
  }
})();

let server: ChildProcess | undefined;
const dataDir = mkdtempSync(path.join(tmpdir(), "parley-headers-"));
afterAll(() => {
  if (server?.pid) process.kill(server.pid);
  rmSync(dataDir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe.runIf(freshBuild)("page security headers on the real production server (`npm start`)", () => {
  test("/demo, / and the API answer with the configured headers", { timeout: 60_000 }, async () => {
    const port = await freePort();
    const env: Record<string, string | undefined> = { ...process.env, PORT: String(port), DATA_DIR: dataDir, NODE_ENV: "production", LOG_LEVEL: "silent" };
    delete env.DATABASE_URL;
    env.HOSTNAME = "127.0.0.1";
    server = spawn(process.execPath, [path.join(ROOT, "scripts/start.mjs")], { cwd: ROOT, env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "ignore"] });
    let stdout = "";
    server.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 45_000;
    let demo: Response | undefined;
    while (!demo && Date.now() < deadline) {
      demo = await fetch(`${base}/demo`).catch(() => undefined);
      if (!demo) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(demo?.status).toBe(200);
    expectStrictDemoPolicy(demo!.headers.get("content-security-policy"));
    expect(demo!.headers.get("x-content-type-options")).toBe("nosniff");
    expect(demo!.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(demo!.headers.get("x-powered-by")).toBeNull();

    const home = await fetch(`${base}/`);
    expect(home.headers.get("x-content-type-options")).toBe("nosniff");
    const apiResponse = await fetch(`${base}/api/v1/chat/visitor/messages`, { headers: { Origin: "https://nobody.example" } });
    expect(apiResponse.status).toBe(401);
    expect(apiResponse.headers.get("cache-control")).toBe("no-store");
    expect(apiResponse.headers.get("x-content-type-options")).toBe("nosniff");
    expect(apiResponse.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    // The widget's hot routes skip Next's request handler (lib/server/front.mjs).
    expect(stdout).toContain("Served without Next's request handler: /api/v1/chat/visitor/messages, /api/v1/chat/visitor/presence");
  });
});
