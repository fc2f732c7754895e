import { expect } from "vitest";
import { db } from "../../lib/db/client";
import { hashToken } from "../../lib/tokens/visitor-token";
import { serviceSigningSecret } from "../../lib/secrets/signing-secret";
import { signUpload } from "../../lib/uploads/upload-signature";
import { api } from "./api";
import { createMember, createSite, ORIGIN, OTHER_ORIGIN, staffReply, startConversation, type Started } from "./fixtures";
import { createStaff, type Staff } from "./inbox";
import { file, fileTicket, PNG_BYTES, putUpload, ticket } from "./tickets";

// One small world with something of everything for the security suites to aim at: two open
// conversations with staff replies, a closed one, a rotated, an expired and a no-longer-allowed
// token, members who replied here, elsewhere, only in a note, or without a picture, ticket
// uploads still pending, already done, and signed but expired, and two signed-in staff (an owner
// and an agent, with the inbox's session cookie) with a ticket and a webhook to aim the inbox at.

export const THIRD_ORIGIN = "https://third.example";

export interface Upload {
  attachment_id: string;
  upload_url: string;
}

export interface World {
  siteId: string;
  offlineSiteId: string;
  /** Conversation A on `siteId` from ORIGIN: members.inA and members.noPicture replied, members.noteOnly wrote a note. */
  a: Started;
  /** Conversation B on `siteId`: members.inB replied. */
  b: Started;
  closed: Started;
  /** Started from THIRD_ORIGIN, which was removed from its site's allowlist afterwards. */
  narrowed: Started;
  expired: Started;
  rotatedToken: string;
  members: { inA: string; inB: string; noteOnly: string; noPicture: string };
  /** The Idempotency-Key of a ticket already filed on `siteId`. */
  ticketKey: string;
  uploads: { pendingPng: Upload; otherPending: Upload; done: Upload; expiredUrl: string };
  staff: { owner: Staff; agent: Staff };
  /** A ticket filed on `siteId` (the keyed one). */
  ticketId: string;
  /** A webhook (operator and inbox webhook routes). */
  webhookId: string;
}

export async function buildWorld(): Promise<World> {
  const site = await createSite({ origins: [ORIGIN, OTHER_ORIGIN], daily_allowance: 1_000_000 });
  const offline = await createSite({ origins: [ORIGIN], offline: true });
  const narrowSite = await createSite({ origins: [THIRD_ORIGIN, ORIGIN] });
  const [inA, inB, noteOnly, noPicture] = await Promise.all([
    createMember(),
    createMember(),
    createMember(),
    createMember({ picture: false }),
  ]);

  const a = await startConversation(site.id, { body: "Hello, is anyone there?", client_id: "a-1" });
  const b = await startConversation(site.id, { body: "A private question." });
  await staffReply(a.conversationId, inA!.id, "Hi, how can I help?");
  await staffReply(a.conversationId, noPicture!.id, "I am here too.");
  await staffReply(a.conversationId, noteOnly!.id, "Internal: customer looks upset", "note");
  await staffReply(b.conversationId, inB!.id, "Answer for B only.");

  const closed = await startConversation(site.id);
  expect((await api.post(`/api/v1/admin/conversations/${closed.conversationId}/close`, { admin: true })).status).toBe(200);

  const narrowed = await startConversation(narrowSite.id, {}, THIRD_ORIGIN);
  expect((await api.patch(`/api/v1/admin/sites/${narrowSite.id}`, { admin: true, body: { origins: [ORIGIN] } })).status).toBe(200);

  const expired = await startConversation(site.id);
  await (await db()).visitorToken.update({
    where: { hash: hashToken(expired.token) },
    data: { expiresAt: new Date(Date.now() - 1000) },
  });

  const toRotate = await startConversation(site.id);
  const renewed = await api.post("/api/v1/chat/visitor/renew", { origin: ORIGIN, token: toRotate.token });
  expect(renewed.status).toBe(200);

  const ticketKey = "hostile-world-ticket-1";
  await fileTicket(site.id, ticket({ subject: "Keyed" }), { key: ticketKey });
  const [pendingPng, otherPending, done] = (await fileTicket(site.id, ticket({ files: [file(), file({ name: "b.png" }), file({ name: "c.png" })] }))).uploads as unknown as [
    Upload,
    Upload,
    Upload,
  ];
  expect((await putUpload(done.upload_url, PNG_BYTES)).status).toBe(200);
  const expiredUrl = await signedUploadUrl(pendingPng, Math.floor(Date.now() / 1000) - 60);

  const owner = await createStaff("owner", "Olive Owner");
  const agent = await createStaff("agent", "Andy Agent");
  const ticketId = (await (await db()).ticket.findFirstOrThrow({ where: { siteId: site.id, subject: "Keyed" }, select: { id: true } })).id;
  const webhook = await api.post("/api/v1/admin/webhooks", { admin: true, body: { url: "https://hooks.example.com/parley", events: ["ticket.created"] } });
  expect(webhook.status).toBe(201);

  return {
    siteId: site.id,
    offlineSiteId: offline.id,
    a,
    b,
    closed,
    narrowed,
    expired,
    rotatedToken: toRotate.token,
    members: { inA: inA!.id, inB: inB!.id, noteOnly: noteOnly!.id, noPicture: noPicture!.id },
    ticketKey,
    uploads: { pendingPng, otherPending, done, expiredUrl },
    staff: { owner, agent },
    ticketId,
    webhookId: webhook.json.result.id,
  };
}

/** The upload URL of `upload`, correctly signed (with the service's secret) for another expiry. */
export async function signedUploadUrl(upload: Upload, expires: number): Promise<string> {
  const attachment = await (await db()).ticketAttachment.findUniqueOrThrow({ where: { id: upload.attachment_id } });
  const url = new URL(upload.upload_url);
  url.searchParams.set("expires", String(expires));
  url.searchParams.set(
    "signature",
    signUpload({ attachmentId: attachment.id, bytes: attachment.bytes, contentType: attachment.contentType, expires }, await serviceSigningSecret()),
  );
  return url.toString();
}

/** `url` with one query parameter replaced (or removed with `null`). */
export function withParam(url: string, name: string, value: string | null): string {
  const changed = new URL(url);
  if (value === null) changed.searchParams.delete(name);
  else changed.searchParams.set(name, value);
  return changed.toString();
}
