import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, test } from "vitest";
import { contractOf } from "../../lib/api/route";
import { openApiDocument } from "../../lib/openapi/document";
import { operations } from "../../lib/openapi/operations";
import { api } from "../support/api";
import { compileContract } from "../support/openapi-contract";

// The OpenAPI document against the code it describes: every route file and method is in it, with
// the very schemas the route validates with, and the document itself is valid OpenAPI 3.1. (Every
// answer of the integration suite is checked against it by tests/support/api.ts.)

const APP_API = path.resolve(import.meta.dirname, "../../app/api");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
// Not operations: the catch-all 404 and the document itself.
const NOT_OPERATIONS = new Set(["/api/{path}", "/api/v1/openapi.json"]);

function routeFiles(dir: string, segments: string[] = []): { template: string; file: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return routeFiles(path.join(dir, entry.name), [...segments, entry.name]);
    if (entry.name !== "route.ts") return [];
    const template = `/api/${segments.map((segment) => segment.replace(/^\[(?:\.\.\.)?(\w+)\]$/, "{$1}")).join("/")}`;
    return [{ template, file: path.join(dir, entry.name) }];
  });
}

describe("the OpenAPI document", () => {
  test("is valid OpenAPI 3.1", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(openApiDocument()));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  test("uses no format a validator does not know: ajv compiles every answer's schema without a word", () => {
    const said: string[] = [];
    const collect = (...parts: unknown[]) => said.push(parts.map(String).join(" "));
    compileContract({ log: collect, warn: collect, error: collect });
    expect(said).toEqual([]);
    const formats = new Set([...JSON.stringify(openApiDocument()).matchAll(/"format":"([^"]+)"/g)].map(([, format]) => format));
    expect([...formats].sort()).toEqual(["base64", "binary", "date-time", "uri"]);
  });

  test("lists every route and method under app/api, with the schemas each route validates with", async () => {
    const found: string[] = [];
    for (const { template, file } of routeFiles(APP_API)) {
      if (NOT_OPERATIONS.has(template)) continue;
      const module = (await import(file)) as Record<string, unknown>;
      for (const method of METHODS) {
        const contract = contractOf(module[method]);
        if (!contract) continue; // the 404 answer of a method the route does not support
        found.push(`${method} ${template}`);
        const operation = operations.find((candidate) => candidate.method === method && candidate.path === template);
        expect(operation, `${method} ${template} is missing from lib/openapi/operations/<family>/<resource>.ts (listed in lib/openapi/operations.ts)`).toBeDefined();
        expect(operation!.family, `${method} ${template}: family`).toBe(contract.family);
        expect(operation!.body === contract.body, `${method} ${template}: the document's body schema is not the one the route validates with`).toBe(true);
        expect(operation!.query === contract.query, `${method} ${template}: the document's query schema is not the one the route validates with`).toBe(true);
      }
    }
    expect(operations.map(({ method, path: template }) => `${method} ${template}`).sort()).toEqual(found.sort());
  });

  test("marks the operator API and the service's own routes as extensions, and not the spec's eight", () => {
    const spec = operations.filter((operation) => !operation.extension).map(({ method, path: template }) => `${method} ${template}`);
    expect(spec.sort()).toEqual(
      [
        "POST /api/v1/chat/widget/{siteID}/conversations",
        "POST /api/v1/chat/widget/{siteID}/tickets",
        "POST /api/v1/chat/widget/{siteID}/visitors",
        "POST /api/v1/chat/visitor/messages",
        "GET /api/v1/chat/visitor/messages",
        "GET /api/v1/chat/visitor/presence",
        "GET /api/v1/chat/visitor/avatars/{userID}",
        "POST /api/v1/chat/visitor/renew",
      ].sort(),
    );
  });

  test("is built from schema modules only, never from a service", () => {
    const lib = path.resolve(import.meta.dirname, "../../lib");
    const dir = path.join(lib, "openapi");
    const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"));
    const imports = files.flatMap((file) =>
      [...readFileSync(path.join(dir, file), "utf8").matchAll(/^import (type )?.* from "([^"]+)";$/gm)].map(([, typeOnly, from = ""]) => ({
        file,
        typeOnly,
        // Relative to lib/: `contracts/inbox`, `openapi/operation`, `core/errors`; a package stays as written.
        from: from.startsWith(".") ? path.relative(lib, path.resolve(dir, path.dirname(file), from)) : from,
      })),
    );
    expect(imports.length).toBeGreaterThan(10);
    const services = imports.filter(
      ({ typeOnly, from }) => !typeOnly && !from.startsWith("contracts/") && !from.startsWith("openapi/") && from !== "core/errors" && from !== "zod",
    );
    expect(services).toEqual([]);
  });

  test("names each operation's method, path and family once: by its route folder and method", () => {
    const dir = path.resolve(import.meta.dirname, "../../lib/openapi/operations");
    const repeated = readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".ts"))
      .filter((file) => /^\s*(method|path|family):/m.test(readFileSync(path.join(dir, file), "utf8")));
    expect(repeated).toEqual([]);
  });

  test("is served at /api/v1/openapi.json", async () => {
    const response = await api.get("/api/v1/openapi.json");
    expect(response.status).toBe(200);
    expect(response.json).toEqual(openApiDocument());
  });
});

describe("the interactive reference", () => {
  test("/reference is an HTML page that reads /api/v1/openapi.json", async () => {
    const { GET } = await import("../../app/reference/route");
    const response = GET();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await response.text()).toContain("/api/v1/openapi.json");
  });
});
