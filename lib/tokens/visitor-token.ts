import { createHash, randomBytes, randomUUID } from "node:crypto";
import { db, queryPrepared, type PrismaClient } from "../db/client";
import type { Conversation, Site, VisitorToken } from "../generated/prisma/client";
import { FIND_VISITOR_SESSION } from "./statements";
import { AppError } from "../core/errors";
import { originNotAllowed, siteAllowsOrigin, type VisitorSite } from "../sites/find-site";
import type { SqlRow } from "../core/sql-row";

// Visitor tokens: `vt_` + 32 random bytes (base64url). Only the SHA-256 is stored. A token is
// bound to one conversation and the exact Origin it was issued to, and lives 24 hours.

export const TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;
const TOKEN_SHAPE = /^vt_[A-Za-z0-9_-]{43}$/;
const BEARER = /^Bearer ([^\s]+)$/;

type Transaction = Omit<PrismaClient, "$connect" | "$disconnect" | "$on" | "$transaction" | "$extends">;

export interface VisitorSession {
  tokenId: string;
  /** The Origin the token was issued to. */
  origin: string;
  expiresAt: Date;
  /** As of authentication: `lastSequence` is the highest sequence the conversation had then. */
  conversation: { id: string; status: string; visitorId: string; visitorName: string | null; lastSequence: number };
  site: VisitorSite;
  /**
   * performance.now() just before the lookup was sent: a message committed after the lookup's
   * snapshot (so not counted in `lastSequence`) is signalled later than this.
   */
  lookedUpAt: number;
}

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** A new token, its hash (what is stored) and its expiry; the clear token exists only here. */
export function newVisitorToken(now = new Date()): { token: string; hash: string; expiresAt: Date } {
  const token = `vt_${randomBytes(32).toString("base64url")}`;
  return { token, hash: hashToken(token), expiresAt: new Date(now.getTime() + TOKEN_LIFETIME_SECONDS * 1000) };
}

/** Creates a token row for the conversation and returns the token, the only time it exists in clear. */
async function issueVisitorToken(tx: Transaction, conversationId: string, origin: string): Promise<{ token: string; expiresAt: Date }> {
  const { token, hash, expiresAt } = newVisitorToken();
  await tx.visitorToken.create({ data: { id: randomUUID(), hash, conversationId, origin, expiresAt } });
  return { token, expiresAt };
}

/**
 * A fresh token for each conversation, bound to `origin` (a verified user's history): the clear
 * tokens, in the order given, exist only in this answer.
 */
export async function issueVisitorTokens(conversationIds: string[], origin: string): Promise<{ token: string; expiresAt: Date }[]> {
  const now = new Date();
  const issued = conversationIds.map((conversationId) => ({ conversationId, ...newVisitorToken(now) }));
  await (await db()).visitorToken.createMany({
    data: issued.map(({ conversationId, hash, expiresAt }) => ({ id: randomUUID(), hash, conversationId, origin, expiresAt })),
  });
  return issued.map(({ token, expiresAt }) => ({ token, expiresAt }));
}

const unauthorized = () => new AppError("unauthorized", "A valid visitor token is required.");

/** FIND_VISITOR_SESSION's row. */
export type SessionRow = SqlRow<VisitorToken, "origin" | "expires_at" | "rotated_at", { token_id: "id" }> &
  SqlRow<Conversation, "status" | "visitor_id" | "visitor_name" | "last_sequence", { conversation_id: "id" }> &
  SqlRow<Site, "inbox_id" | "origins" | "offline" | "answers", { site_id: "id"; site_name: "name" }>;

/** Resolves `Authorization: Bearer vt_…` to its session, or rejects with 401. */
export async function authenticateVisitor(authorization: string | null): Promise<VisitorSession> {
  const hash = bearerTokenHash(authorization);
  const lookedUpAt = performance.now();
  const [row] = await queryPrepared<SessionRow>(FIND_VISITOR_SESSION, [hash]);
  return sessionFromRow(row, lookedUpAt);
}

/** The hash to look the presented token up by (FIND_VISITOR_SESSION), or throws 401. */
export function bearerTokenHash(authorization: string | null): string {
  const token = authorization?.match(BEARER)?.[1];
  if (!token || !TOKEN_SHAPE.test(token)) throw unauthorized();
  return hashToken(token);
}

/** The session of FIND_VISITOR_SESSION's row, or throws 401 (unknown, rotated or expired token). */
export function sessionFromRow(row: SessionRow | undefined, lookedUpAt: number): VisitorSession {
  if (!row || row.rotated_at) throw unauthorized();
  if (row.expires_at.getTime() <= Date.now()) {
    throw new AppError("token_expired", "The visitor token has expired; start a new conversation.");
  }
  return {
    tokenId: row.token_id,
    origin: row.origin,
    expiresAt: row.expires_at,
    conversation: {
      id: row.conversation_id,
      status: row.status,
      visitorId: row.visitor_id,
      visitorName: row.visitor_name,
      lastSequence: row.last_sequence,
    },
    site: { id: row.site_id, name: row.site_name, inboxId: row.inbox_id, origins: row.origins, offline: row.offline, answers: row.answers },
    lookedUpAt,
  };
}

/**
 * The Origin rules of a visitor request, after its token: the token's own Origin (403
 * origin_mismatch), still on the site's allowlist (403 origin_not_allowed). Null when both hold.
 */
export function visitorOriginError(visitor: VisitorSession, origin: string | null): AppError | null {
  if (origin !== visitor.origin) return new AppError("origin_mismatch", "This visitor token belongs to another website.");
  if (!siteAllowsOrigin(visitor.site, origin)) return originNotAllowed();
  return null;
}

/** Rotates the presented token: it dies at once, and a new one lives 24 h. One winner per token. */
export async function renewVisitorToken(session: VisitorSession): Promise<{ visitor_token: string; expires_at: string }> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const rotated = await tx.visitorToken.updateMany({
      where: { id: session.tokenId, rotatedAt: null },
      data: { rotatedAt: new Date() },
    });
    if (rotated.count !== 1) throw unauthorized();
    if (session.expiresAt.getTime() <= Date.now()) {
      throw new AppError("token_expired", "The visitor token has expired; start a new conversation.");
    }
    const { token, expiresAt } = await issueVisitorToken(tx, session.conversation.id, session.origin);
    return { visitor_token: token, expires_at: expiresAt.toISOString() };
  });
}
