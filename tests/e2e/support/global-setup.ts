import { createHmac } from "node:crypto";
import { admin, must } from "./admin";
import { CUSTOMER_URL, SERVICE_URL, STAFF } from "./env";
import { warmInbox } from "./inbox-warmup";
import { gracePicture, png } from "./png";

/**
 * Once per run: the staff member the tests reply as, and one pass over every route the widget
 * uses, so that `next dev` has compiled them all before the first test measures anything.
 */
export default async function globalSetup(): Promise<void> {
  const created = await admin("POST", "/members", {
    id: STAFF.id,
    name: STAFF.name,
    avatar: { content_type: "image/png", bytes: gracePicture().toString("base64") },
  });
  if (created.status !== 201 && created.status !== 409) throw new Error(`creating the staff member: ${created.status} ${created.message}`);

  // The widget's team faces (site config): members are shared by all sites, so they are made once
  // here, before any test loads a page, and every page of the run sees the same team.
  for (const [id, name, picture] of [["team-face-one", "Team Face One", true], ["team-face-two", "Team Face Two", false]] as const) {
    const body = { name, shown_in_widget: true, ...(picture ? { avatar: { content_type: "image/png", bytes: gracePicture().toString("base64") } } : {}) };
    const made = await admin("POST", "/members", { id, ...body });
    if (made.status === 409) await must("PATCH", `/members/${id}`, body);
    else if (made.status !== 201) throw new Error(`creating a team member: ${made.status} ${made.message}`);
  }

  const site = `warmup-${Date.now()}`;
  await must("POST", "/sites", { id: site, origins: [CUSTOMER_URL] });
  const widget = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    call(`/api/v1/chat/widget/${site}${path}`, { method: "POST", body, headers });

  await call("/widget.js");
  await call(`/api/v1/chat/widget/${site}/config`);
  await widget("/visitors", { page_url: `${CUSTOMER_URL}/` });
  const started = (await widget("/conversations", { body: "warming up", client_id: "warm-1" })).result;
  const visitor = { Authorization: `Bearer ${started.visitor_token}` };
  await must("POST", `/conversations/${started.conversation_id}/messages`, { author_id: STAFF.id, body: "warm" });
  await must("POST", `/conversations/${started.conversation_id}/presence`, { actor_id: STAFF.id, typing: false });
  await call("/api/v1/chat/visitor/messages?cursor=0&wait=0", { headers: visitor });
  await call("/api/v1/chat/visitor/messages", { method: "POST", body: { body: "again", client_id: "warm-2" }, headers: visitor });
  await call("/api/v1/chat/visitor/presence", { headers: visitor });
  await call(`/api/v1/chat/visitor/avatars/${STAFF.id}`, { headers: visitor });
  const bytes = png(2, 2, () => [0, 0, 0]);
  const ticket = await widget("/tickets", {
    email: "warm@example.com", subject: "warm", body: "warm", files: [{ name: "a.png", content_type: "image/png", bytes: bytes.length }],
  });
  const upload = ticket.result.uploads[0].upload_url as string;
  await call(new URL(upload, SERVICE_URL).href, { method: "PUT", raw: bytes, headers: { "Content-Type": "image/png" } });
  await must("GET", `/tickets?site=${site}`);
  const { identity_secret } = await must("POST", `/sites/${site}/identity-secret`);
  await widget("/history", { user_id: "warm", user_hash: createHmac("sha256", identity_secret).update("warm").digest("hex") });
  await must("GET", `/conversations/${started.conversation_id}`);
  await must("PATCH", `/sites/${site}`, { offline: false });
  await call("/demo");
  await warmInbox();
}

interface CallOptions {
  method?: string;
  body?: unknown;
  raw?: Buffer;
  headers?: Record<string, string>;
}

/** A request as the customer page would send it (its Origin); the answer must be a success. */
async function call(path: string, { method = "GET", body, raw, headers = {} }: CallOptions = {}): Promise<any> {
  const url = path.startsWith("http") ? path : SERVICE_URL + path;
  const response = await fetch(url, {
    method,
    headers: { Origin: CUSTOMER_URL, ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...headers },
    body: raw ? new Blob([new Uint8Array(raw)]) : body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`warm-up ${method} ${url} → ${response.status} ${text.slice(0, 300)}`);
  return text.startsWith("{") ? JSON.parse(text) : text;
}
