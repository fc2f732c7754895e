import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { api, BASE_URL, type CallOptions } from "./api";

// Staff accounts through the real flow: the operator creates a member and an invite, the
// invitee accepts it (from the inbox's own origin) and gets a session cookie.

export const INBOX_ORIGIN = new URL(BASE_URL).origin;
export const PASSWORD = "correct horse battery";

export interface Staff {
  id: string;
  email: string;
  cookie: string;
  role: "owner" | "agent";
}

export function cookieFrom(setCookie: string | null): string {
  expect(setCookie).toMatch(/^parley_session=ps_/);
  return setCookie!.split(";")[0]!;
}

export async function inviteUrl(memberId: string, email: string, role: "owner" | "agent"): Promise<string> {
  const response = await api.post(`/api/v1/admin/members/${memberId}/invite`, { admin: true, body: { email, role } });
  expect(response.status).toBe(201);
  return response.json.result.invite_url;
}

export const codeOf = (url: string) => new URL(url).searchParams.get("code")!;

/** `origin`: the service's own (PUBLIC_URL), for files that set PUBLIC_URL. */
export async function createStaff(role: "owner" | "agent" = "agent", name = "Grace Staff", origin = INBOX_ORIGIN): Promise<Staff> {
  const id = `staff-${randomUUID().slice(0, 8)}`;
  const email = `${id}@team.example`;
  expect((await api.post("/api/v1/admin/members", { admin: true, body: { id, name } })).status).toBe(201);
  const url = await inviteUrl(id, email, role);
  const accepted = await api.post("/api/v1/inbox/invites/accept", { origin, body: { code: codeOf(url), password: PASSWORD } });
  expect(accepted.status).toBe(200);
  return { id, email, role, cookie: cookieFrom(accepted.headers.get("set-cookie")) };
}

/** Options for an inbox call as `staff`: its cookie, and the inbox's Origin unless given. */
export const as = (staff: Staff | null, options: CallOptions = {}): CallOptions => ({
  origin: INBOX_ORIGIN,
  ...options,
  headers: { ...(staff ? { Cookie: staff.cookie } : {}), ...options.headers },
});
