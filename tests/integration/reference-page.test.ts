import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { GET } from "../../app/reference/route";
import { OPENAPI_DOCUMENT_PATH, SCALAR_SCRIPT_PATH, SCALAR_VERSION } from "../../lib/http/reference-page.mjs";
import { copyScalar } from "../../scripts/copy-scalar.mjs";
import { productionBuildExists, send, startServer, type RunningServer } from "../support/production-server";

// /reference (issue 23: a blank page without internet, when Scalar came from a CDN): the page and
// everything it loads come from this service, and it links to the OpenAPI document should the
// viewer not load.

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Every URL the page's markup names: src, href and data-url attributes. */
const urlsIn = (html: string) => [...html.matchAll(/\s(?:src|href|data-url)="([^"]*)"/g)].map(([, url]) => url!);

describe("the /reference page", () => {
  test("names no other origin: its script, its document and its links are paths on this service", async () => {
    const response = GET();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).not.toMatch(/https?:|\/\/[a-z0-9]/i);
    expect(urlsIn(html).length).toBeGreaterThan(0);
    for (const url of urlsIn(html)) expect(url, url).toMatch(/^\/[^/]/);
    expect(html.match(/<script[^>]* src="([^"]+)"/)?.[1]).toBe(SCALAR_SCRIPT_PATH);
  });

  test("links to the OpenAPI document itself, for when the viewer does not load", async () => {
    const html = await GET().text();
    expect(html).toContain(`<a href="${OPENAPI_DOCUMENT_PATH}">`);
    // Scalar hides that line once it has drawn the reference (its customCss), not before.
    expect(html).toMatch(/<p class="parley-reference-fallback">/);
    expect(html).toContain("parley-reference-fallback { display: none; }");
  });

  test("the Scalar it names is the one package.json pins", () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { devDependencies: Record<string, string> };
    expect(pkg.devDependencies["@scalar/api-reference"]).toBe(SCALAR_VERSION);
    expect(SCALAR_SCRIPT_PATH).toBe(`/scalar/api-reference-${SCALAR_VERSION}.js`);
  });

  test("scripts/copy-scalar.mjs puts the package's browser bundle where the page loads it", () => {
    const out = mkdtempSync(path.join(tmpdir(), "parley-scalar-"));
    try {
      const written = copyScalar(out);
      expect(written).toBe(path.join(out, SCALAR_SCRIPT_PATH));
      const script = readFileSync(written!, "utf8");
      expect(script).toContain("createApiReference"); // the global it defines: window.Scalar
      expect(script).toContain(`@scalar/api-reference@${SCALAR_VERSION}`);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!productionBuildExists())("/reference on the real production server (`npm start`)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer("front");
  });
  afterAll(() => server?.stop());

  test("the page's script answers 200 with JavaScript, cached for good; the page allows scripts from 'self' only", async () => {
    expect(existsSync(path.join(ROOT, "public", SCALAR_SCRIPT_PATH)), "npm run build copies the bundle").toBe(true);
    const page = await send(server.port, "GET", "/reference");
    expect(page.status).toBe(200);
    const policy = String(page.headers["content-security-policy"]);
    expect(policy).toContain("script-src 'self';");
    expect(policy).toContain("connect-src 'self';");

    const src = page.body.match(/<script[^>]* src="([^"]+)"/)?.[1];
    expect(src).toBe(SCALAR_SCRIPT_PATH);
    const script = await send(server.port, "GET", src!);
    expect(script.status).toBe(200);
    expect(script.headers["content-type"]).toMatch(/^(application|text)\/javascript/);
    expect(script.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(script.body).toContain("createApiReference");

    const document = await send(server.port, "GET", OPENAPI_DOCUMENT_PATH);
    expect([document.status, document.json?.openapi]).toEqual([200, "3.1.1"]);
  });
});
