import { randomUUID } from "node:crypto";
import { db, queryPrepared, type PreparedStatement } from "../db/client";
import { env } from "../core/env";
import { publishSessionsEnded } from "../realtime/inbox-signals";
import type { Member, StaffSession as StaffSessionModel } from "../generated/prisma/client";
import type { SqlRow } from "../core/sql-row";
import { newSecret, sha256Hex } from "./secrets";
import { processSingleton } from "../core/process-registry.mjs";
import { cookieValue } from "../core/cookies";
import { canSignIn, canSignInSql } from "../members/can-sign-in";

// Inbox sessions: an opaque token in the `parley_session` cookie, only its SHA-256 stored. 30 days,
// sliding: a session used more than a minute after its last extension moves 30 days ahead (and the
// cookie is sent again). Ended by sign-out, by deactivating the member, by a change that takes the
// member's sign-in away or changes its email (lib/members/members.ts updateMember) and by an invite
// accepted for an existing member, which also end the sessions' open event streams on every
// instance (lib/inbox/event-stream.ts).

export const SESSION_COOKIE = "parley_session";
export const SESSION_DAYS = 30;
const SESSION_MS = SESSION_DAYS * 24 * 60 * 60 * 1000;
const EXTEND_AFTER_MS = 60_000;

export type StaffRole = "owner" | "agent";

export interface StaffMember {
  id: string;
  name: string;
  email: string;
  role: StaffRole;
  hasPicture: boolean;
}

export interface StaffSession {
  member: StaffMember;
  sessionId: string;
  /** The token again when the session was just extended: the cookie should be sent anew. */
  renewedToken: string | null;
}

// Made only while the member can sign in, checked in the same statement: a sign-in whose check
// began before the member was deactivated cannot leave a session behind. FOR SHARE orders it with a
// deactivation (which locks the row, then deletes the sessions): whichever comes second sees the other.
const CREATE_STAFF_SESSION: PreparedStatement = {
  name: "create_staff_session",
  text: `
    INSERT INTO staff_sessions (id, token_hash, member_id, expires_at)
    SELECT $1, $2, m.id, $4 FROM members m WHERE m.id = $3 AND ${canSignInSql("m")}
    FOR SHARE OF m
    RETURNING id`,
};

/** A new session's token, or null when the member cannot sign in (any more). */
export async function createSession(memberId: string): Promise<string | null> {
  const token = newSecret("ps_");
  const created = await queryPrepared(CREATE_STAFF_SESSION, [randomUUID(), sha256Hex(token), memberId, new Date(Date.now() + SESSION_MS)]);
  return created.length === 1 ? token : null;
}

// Every inbox request and page runs it: prepared, without Prisma.
const FIND_STAFF_SESSION: PreparedStatement = {
  name: "find_staff_session",
  text: `
    SELECT s.id AS session_id, s.expires_at, m.id, m.name, m.email, m.role, m.password_hash, m.deactivated_at, m.avatar_tag
    FROM staff_sessions s JOIN members m ON m.id = s.member_id
    WHERE s.token_hash = $1`,
};

const EXTEND_SESSION: PreparedStatement = {
  name: "extend_staff_session",
  text: `UPDATE staff_sessions SET expires_at = $2 WHERE id = $1`,
};

type SessionRow = SqlRow<StaffSessionModel, "expires_at", { session_id: "id" }> &
  SqlRow<Member, "id" | "name" | "email" | "role" | "password_hash" | "deactivated_at" | "avatar_tag">;

/** The signed-in member behind a cookie's token, or null (unknown, expired, or member deactivated). */
export async function authenticateStaff(token: string | null | undefined, options: { extend?: boolean } = {}): Promise<StaffSession | null> {
  if (!token || token.length > 200) return null;
  const [row] = await queryPrepared<SessionRow>(FIND_STAFF_SESSION, [sha256Hex(token)]);
  const now = Date.now();
  if (!row || row.expires_at.getTime() <= now) return null;
  if (!canSignIn({ role: row.role, passwordHash: row.password_hash, deactivatedAt: row.deactivated_at, email: row.email })) return null;
  let renewedToken: string | null = null;
  // Only where the answer can carry the cookie again (API routes), so cookie and row slide together.
  if (options.extend !== false && row.expires_at.getTime() < now + SESSION_MS - EXTEND_AFTER_MS) {
    await queryPrepared(EXTEND_SESSION, [row.session_id, new Date(now + SESSION_MS)]);
    renewedToken = token;
  }
  return {
    sessionId: row.session_id,
    renewedToken,
    member: { id: row.id, name: row.name, email: row.email!, role: row.role as StaffRole, hasPicture: row.avatar_tag !== null },
  };
}

// The event stream's heartbeat: the same rules by session id, without extending it.
const FIND_STAFF_SESSION_BY_ID: PreparedStatement = {
  name: "find_staff_session_by_id",
  text: `
    SELECT s.expires_at, m.email, m.role, m.password_hash, m.deactivated_at
    FROM staff_sessions s JOIN members m ON m.id = s.member_id
    WHERE s.id = $1`,
};

type SessionStateRow = SqlRow<StaffSessionModel, "expires_at"> & SqlRow<Member, "email" | "role" | "password_hash" | "deactivated_at">;

/** Whether a session still signs its member in (not ended, not expired, member not deactivated). */
export async function sessionIsLive(sessionId: string): Promise<boolean> {
  const [row] = await queryPrepared<SessionStateRow>(FIND_STAFF_SESSION_BY_ID, [sessionId]);
  if (!row || row.expires_at.getTime() <= Date.now()) return false;
  return canSignIn({ role: row.role, passwordHash: row.password_hash, deactivatedAt: row.deactivated_at, email: row.email });
}

export async function endSession(sessionId: string): Promise<void> {
  await (await db()).staffSession.deleteMany({ where: { id: sessionId } });
  await publishSessionsEnded({ sessionId });
}

/** The Set-Cookie value for a session token (or, with null, one that clears the cookie). */
export function sessionCookie(token: string | null): string {
  const secure = env().PUBLIC_URL?.startsWith("https:") ? "; Secure" : "";
  const maxAge = token ? SESSION_MS / 1000 : 0;
  return `${SESSION_COOKIE}=${token ?? ""}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;
}

/** The session token from a Cookie header. */
export const sessionTokenFromCookies = (cookieHeader: string | null): string | null => cookieValue(cookieHeader, SESSION_COOKIE);

// members.inbox_active_at: written at most every 10 s per member (per process), for staff alerts.
const ACTIVITY_EVERY_MS = 10_000;
const lastRecorded = processSingleton("staff activity recorded", () => new Map<string, number>());

export async function recordInboxActivity(memberId: string): Promise<void> {
  const now = Date.now();
  if (now - (lastRecorded.get(memberId) ?? 0) < ACTIVITY_EVERY_MS) return;
  lastRecorded.set(memberId, now);
  await (await db()).member.updateMany({ where: { id: memberId }, data: { inboxActiveAt: new Date(now) } });
}
