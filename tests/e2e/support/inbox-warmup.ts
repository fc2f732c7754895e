import { must } from "./admin";
import { SERVICE_URL } from "./env";

/**
 * Once per run (global setup): an owner signed in through a real invite opens every inbox page and
 * API route once, so `next dev` has compiled them before a test times anything.
 */
export async function warmInbox(): Promise<void> {
  const id = `warmup-owner-${Date.now().toString(36)}`;
  await must("POST", "/members", { id, name: "Warm-up owner" });
  const { invite_url } = await must<{ invite_url: string }>("POST", `/members/${id}/invite`, { email: `${id}@team.example`, role: "owner" });
  const code = new URL(invite_url).searchParams.get("code")!;
  await fetch(invite_url);
  const accepted = await fetch(`${SERVICE_URL}/api/v1/inbox/invites/accept`, {
    method: "POST",
    headers: { Origin: SERVICE_URL, "Content-Type": "application/json" },
    body: JSON.stringify({ code, password: "warm-up password 123" }),
  });
  if (!accepted.ok) throw new Error(`warm-up: accepting an invite → ${accepted.status}`);
  const cookie = accepted.headers.get("set-cookie")!.split(";")[0]!;
  const get = (path: string) => fetch(`${SERVICE_URL}${path}`, { headers: { Cookie: cookie } }).then((response) => response.text());
  const conversations = JSON.parse(await get("/api/v1/inbox/conversations?status=all")).result.items as { id: string }[];
  const tickets = JSON.parse(await get("/api/v1/inbox/tickets")).result.items as { id: string; attachments: { id: string }[] }[];
  await Promise.all(["/inbox/sign-in", "/inbox/setup?code=x", "/inbox/invite?code=x"].map(get));
  await get("/inbox");
  if (conversations[0]) await get(`/inbox/conversations/${conversations[0].id}`);
  await get("/inbox/tickets");
  if (tickets[0]) await get(`/inbox/tickets/${tickets[0].id}`);
  await get("/inbox/settings");
  await Promise.all(["/inbox/outbox", "/inbox/reports", "/inbox/articles", "/inbox/articles/new", "/inbox/articles/warm-up", "/api/v1/inbox/articles", "/api/v1/inbox/articles/warm-up", "/inbox/settings/webhooks/warm-up", "/api/v1/inbox/webhooks", "/api/v1/inbox/outbox", "/api/v1/inbox/saved-replies", "/api/v1/inbox/labels"].map(get));
  const events = new AbortController();
  const stream = await fetch(`${SERVICE_URL}/api/v1/inbox/events`, { headers: { Cookie: cookie }, signal: events.signal });
  events.abort();
  await stream.body?.cancel().catch(() => {});
  const post = (path: string, body?: unknown) =>
    fetch(`${SERVICE_URL}${path}`, { method: "POST", headers: { Cookie: cookie, Origin: SERVICE_URL, "Content-Type": "application/json" }, body: JSON.stringify(body ?? {}) });
  if (conversations[0]) {
    const base = `/api/v1/inbox/conversations/${conversations[0].id}`;
    await post(`${base}/typing`, { typing: false });
    await post(`${base}/messages`, { body: "warm", kind: "note" });
    await post(`${base}/assign`, { member_id: null });
    await post(`${base}/reopen`);
    await post(`${base}/close`);
    await fetch(`${SERVICE_URL}${base}/labels`, { method: "PUT", headers: { Cookie: cookie, Origin: SERVICE_URL, "Content-Type": "application/json" }, body: '{"labels":[]}' });
  }
  if (tickets[0]?.attachments[0]) await get(`/api/v1/inbox/attachments/${tickets[0].attachments[0].id}`);
  await fetch(`${SERVICE_URL}/api/v1/inbox/session`, { method: "DELETE", headers: { Cookie: cookie, Origin: SERVICE_URL } });
}
