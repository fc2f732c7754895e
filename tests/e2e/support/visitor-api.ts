import { expect } from "@playwright/test";
import { CUSTOMER_URL, SERVICE_URL } from "./env";

// A visitor on the customer's origin, through the widget's own routes (no browser needed).

export interface ApiVisitor {
  conversationId: string;
  say(body: string): Promise<void>;
}

let sent = 0;

export async function apiVisitor(siteId: string, start: { name?: string; body: string }): Promise<ApiVisitor> {
  const response = await fetch(`${SERVICE_URL}/api/v1/chat/widget/${siteId}/conversations`, {
    method: "POST",
    headers: { Origin: CUSTOMER_URL, "Content-Type": "application/json" },
    body: JSON.stringify({ ...start, client_id: `start-${++sent}` }),
  });
  expect(response.status).toBe(201);
  const { result } = (await response.json()) as { result: { conversation_id: string; visitor_token: string } };
  return {
    conversationId: result.conversation_id,
    async say(body) {
      const reply = await fetch(`${SERVICE_URL}/api/v1/chat/visitor/messages`, {
        method: "POST",
        headers: { Origin: CUSTOMER_URL, Authorization: `Bearer ${result.visitor_token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ body, client_id: `say-${++sent}` }),
      });
      expect(reply.status).toBe(201);
    },
  };
}
