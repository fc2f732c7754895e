import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { DEMO_AVATAR_PNG_BASE64 } from "../../lib/seed/demo-avatar";
import { api } from "./api";

// Builders that go through the public API, so fixtures obey the same rules as clients.

export const ORIGIN = "https://shop.example";
export const OTHER_ORIGIN = "https://other.example";
export const PNG_BASE64 = DEMO_AVATAR_PNG_BASE64;

const uniqueId = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

export async function createSite(options: { origins?: string[]; offline?: boolean; daily_allowance?: number } = {}) {
  const id = uniqueId("site");
  const response = await api.post("/api/v1/admin/sites", {
    admin: true,
    body: { id, origins: options.origins ?? [ORIGIN, OTHER_ORIGIN], ...options },
  });
  expect(response.status).toBe(201);
  return response.json.result as { id: string; origins: string[]; inbox_id: string; daily_allowance: number };
}

export async function createMember(options: { picture?: boolean; name?: string } = {}) {
  const id = uniqueId("member");
  const response = await api.post("/api/v1/admin/members", {
    admin: true,
    body: {
      id,
      name: options.name ?? "Grace Staff",
      ...(options.picture === false ? {} : { avatar: { content_type: "image/png", bytes: PNG_BASE64 } }),
    },
  });
  expect(response.status).toBe(201);
  return response.json.result as { id: string; name: string; avatar: { tag: string } | null };
}

export interface Started {
  siteId: string;
  conversationId: string;
  token: string;
  origin: string;
}

export async function startConversation(
  siteId: string,
  body: Record<string, unknown> = {},
  origin = ORIGIN,
): Promise<Started> {
  const response = await api.post(`/api/v1/chat/widget/${siteId}/conversations`, { origin, body });
  expect(response.status).toBe(201);
  return { siteId, conversationId: response.json.result.conversation_id, token: response.json.result.visitor_token, origin };
}

/** A site and a conversation on it, ready for visitor routes. */
export async function openConversation(body: Record<string, unknown> = {}) {
  const site = await createSite();
  return { site, ...(await startConversation(site.id, body)) };
}

export async function staffReply(conversationId: string, authorId: string, body = "Hello from staff", kind = "message") {
  const response = await api.post(`/api/v1/admin/conversations/${conversationId}/messages`, {
    admin: true,
    body: { author_id: authorId, body, kind },
  });
  expect(response.status).toBe(201);
  return response.json.result.message;
}

export const visitor = (started: Started) => ({ origin: started.origin, token: started.token });
