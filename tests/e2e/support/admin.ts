import { ADMIN_TOKEN, SERVICE_URL } from "./env";

// The operator API (docs/api.md, "Operator API"): what staff tools do, used to set the scene and
// to check what the widget did.

export interface Envelope<T = unknown> {
  status: number;
  success: boolean;
  result: T;
  message: string;
}

export async function admin<T = any>(method: string, path: string, body?: unknown): Promise<Envelope<T>> {
  const response = await fetch(`${SERVICE_URL}/api/v1/admin${path}`, {
    method,
    headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as Omit<Envelope<T>, "status">;
  return { status: response.status, ...json };
}

/** Like admin(), but the call must succeed. */
export async function must<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const reply = await admin<T>(method, path, body);
  if (reply.status >= 300 || !reply.success) {
    throw new Error(`${method} /api/v1/admin${path} → ${reply.status} ${JSON.stringify(reply.result)} ${reply.message}`);
  }
  return reply.result;
}

export interface Conversation {
  id: string;
  site_id: string;
  status: string;
  offline: boolean;
  visitor_email: string | null;
  last_sequence: number;
}

export const conversations = (site: string) => must<Conversation[]>("GET", `/conversations?site=${encodeURIComponent(site)}`);

export async function onlyConversation(site: string): Promise<Conversation> {
  const list = await conversations(site);
  if (list.length !== 1) throw new Error(`site ${site} has ${list.length} conversations, expected 1`);
  return list[0]!;
}

export const staffSays = (conversation: string, author: string, body: string) =>
  must("POST", `/conversations/${conversation}/messages`, { author_id: author, body });

export const staffTyping = (conversation: string, actor: string, typing: boolean) =>
  must("POST", `/conversations/${conversation}/presence`, { actor_id: actor, typing });
