import { readdirSync } from "node:fs";
import path from "node:path";
import type { RouteHandler } from "../../lib/api/route";
import { TEST_ADMIN_TOKEN } from "./database-per-file";
import { assertDocumentedAnswer } from "./openapi-contract";

// Calls the real route handlers the way Next.js would: the URL is matched against app/api's
// folders ([param], [...catchAll]) with static segments first, and the handler gets a Request.

export const BASE_URL = "http://localhost:3000";
const APP_DIR = path.resolve(import.meta.dirname, "../../app");

interface RouteFile {
  segments: string[];
  file: string;
}

function findRouteFiles(dir: string, segments: string[] = []): RouteFile[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return findRouteFiles(path.join(dir, entry.name), [...segments, entry.name]);
    return entry.name === "route.ts" ? [{ segments, file: path.join(dir, entry.name) }] : [];
  });
}

const rank = (segment: string) => (segment.startsWith("[...") ? 2 : segment.startsWith("[") ? 1 : 0);
const routeFiles = findRouteFiles(APP_DIR).sort((a, b) => {
  for (let i = 0; i < Math.max(a.segments.length, b.segments.length); i++) {
    const difference = rank(a.segments[i] ?? "") - rank(b.segments[i] ?? "");
    if (difference !== 0) return difference;
  }
  return 0;
});

function match(pathname: string): { file: string; params: Record<string, string | string[]> } | null {
  const parts = pathname.split("/").filter(Boolean).map(decodeURIComponent);
  for (const route of routeFiles) {
    const params: Record<string, string | string[]> = {};
    let matched = true;
    for (let i = 0; i < route.segments.length && matched; i++) {
      const segment = route.segments[i]!;
      if (segment.startsWith("[...")) {
        params[segment.slice(4, -1)] = parts.slice(i);
        return parts.length > i ? { file: route.file, params } : null;
      }
      if (segment.startsWith("[")) params[segment.slice(1, -1)] = parts[i]!;
      else matched = segment === parts[i];
      if (parts[i] === undefined) matched = false;
    }
    if (matched && parts.length === route.segments.length) return { file: route.file, params };
  }
  return null;
}

export interface CallOptions {
  origin?: string | null;
  token?: string;
  /** true: the test operator token; a string: that bearer. */
  admin?: boolean | string;
  body?: unknown;
  /** Sent as is (bad JSON, huge bodies); Content-Type defaults to JSON. */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
}

export interface ApiResponse<Result = any> {
  status: number;
  headers: Headers;
  json: { success: boolean; result: Result; message: string };
}

export async function call<Result = any>(method: string, pathAndQuery: string, options: CallOptions = {}): Promise<ApiResponse<Result>> {
  const url = new URL(pathAndQuery, BASE_URL);
  const headers = new Headers(options.headers);
  if (options.origin) headers.set("Origin", options.origin);
  if (options.token) headers.set("Authorization", `Bearer ${options.token}`);
  if (options.admin) headers.set("Authorization", `Bearer ${options.admin === true ? TEST_ADMIN_TOKEN : options.admin}`);
  let body: string | Uint8Array | undefined = options.rawBody;
  if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && !headers.has("Content-Type")) headers.set("Content-Type", "application/json");

  const request = new Request(url, { method, headers, body: body as BodyInit | undefined });
  const route = match(url.pathname);
  if (!route) throw new Error(`No route file matches ${url.pathname}`);
  const module = (await import(route.file)) as Record<string, RouteHandler>;
  const handler = module[method];
  if (!handler) throw new Error(`${route.file} exports no ${method}`);
  const response = await handler(request, { params: Promise.resolve(route.params) });
  const text = await response.text();
  const json = text ? JSON.parse(text) : null;
  assertDocumentedAnswer(method, url.pathname, response.status, json);
  return { status: response.status, headers: response.headers, json };
}

export const api = {
  get: <R = any>(p: string, o?: CallOptions) => call<R>("GET", p, o),
  post: <R = any>(p: string, o?: CallOptions) => call<R>("POST", p, o),
  patch: <R = any>(p: string, o?: CallOptions) => call<R>("PATCH", p, o),
  put: <R = any>(p: string, o?: CallOptions) => call<R>("PUT", p, o),
  delete: <R = any>(p: string, o?: CallOptions) => call<R>("DELETE", p, o),
  options: <R = any>(p: string, o?: CallOptions) => call<R>("OPTIONS", p, o),
};
