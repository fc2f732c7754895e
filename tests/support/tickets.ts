import { readdirSync } from "node:fs";
import path from "node:path";
import { expect } from "vitest";
import { api, type ApiResponse } from "./api";
import { ORIGIN } from "./fixtures";

// Builders for ticket and upload tests.

export const PNG_BYTES = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
export const PDF_BYTES = Buffer.from("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n");

export const ticket = (overrides: Record<string, unknown> = {}) => ({
  email: "ada@example.com",
  subject: "My order",
  body: "It has not arrived.",
  ...overrides,
});

export const file = (overrides: Record<string, unknown> = {}) => ({
  name: "photo.png",
  content_type: "image/png",
  bytes: PNG_BYTES.length,
  ...overrides,
});

export function postTicket(
  siteId: string,
  body: unknown,
  options: { origin?: string | null; key?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  const headers = { ...options.headers, ...(options.key !== undefined ? { "Idempotency-Key": options.key } : {}) };
  return api.post(`/api/v1/chat/widget/${siteId}/tickets`, { origin: options.origin === undefined ? ORIGIN : options.origin, body, headers });
}

export async function fileTicket(siteId: string, body: unknown = ticket(), options: { key?: string } = {}) {
  const response = await postTicket(siteId, body, options);
  expect(response.status).toBe(201);
  return response.json.result as { number: number; subject: string; uploads: { attachment_id: string; upload_url: string; name: string }[] };
}

export async function listTickets(siteId: string) {
  const response = await api.get(`/api/v1/admin/tickets?site=${siteId}`, { admin: true });
  expect(response.status).toBe(200);
  return response.json.result as {
    id: string;
    number: number;
    inbox_id: string;
    priority: string;
    subject: string;
    attachments: { id: string; name: string; content_type: string; bytes: number; uploaded: boolean }[];
  }[];
}

/** PUT to one of the service's own upload URLs, the way the widget does. */
export function putUpload(
  url: string,
  bytes: Uint8Array,
  options: { contentType?: string; contentLength?: string | null; origin?: string | null } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { "Content-Type": options.contentType ?? "image/png" };
  const length = options.contentLength === undefined ? String(bytes.byteLength) : options.contentLength;
  if (length !== null) headers["Content-Length"] = length;
  return api.put(url, { rawBody: bytes, headers, origin: options.origin === undefined ? ORIGIN : options.origin });
}

/** Every file (not folder) below `dir`, relative paths, sorted. */
export function filesUnder(dir: string): string[] {
  const walk = (folder: string): string[] => {
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return [];
    }
    return entries.flatMap((entry) =>
      entry.isDirectory() ? walk(path.join(folder, entry.name)) : [path.relative(dir, path.join(folder, entry.name))],
    );
  };
  return walk(dir).sort();
}
