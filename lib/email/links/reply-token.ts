import { openToken, sealToken } from "./signed-token";

// The token of a reply address `r+<token>@MAIL_REPLY_DOMAIN` (decisions.md "Email in both
// directions"): what the email is about (a conversation or a ticket), who it was sent to (the
// visitor — for a ticket, its filer — or one member), sealed under a purpose of its own
// (signed-token.ts). Nothing is stored: the token proves itself.

export type ReplyThread = { kind: "conversation" | "ticket"; id: string };
export type ReplyRecipient = { kind: "visitor" } | { kind: "member"; id: string };
export interface ReplyBinding {
  thread: ReplyThread;
  recipient: ReplyRecipient;
}

const PURPOSE = "parley-reply-address-v1";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// Flags byte: bit 0 ticket (else conversation), bit 1 member recipient (else visitor), bit 2 the
// thread id is a UUID packed into 16 bytes (else length-prefixed UTF-8).
const TICKET = 1;
const MEMBER = 2;
const PACKED_UUID = 4;

export const replyToken = (binding: ReplyBinding): Promise<string> => sealToken(PURPOSE, encodePayload(binding));

/** The binding a token proves, or null when it is malformed or its HMAC does not match. */
export async function verifyReplyToken(token: string): Promise<ReplyBinding | null> {
  const payload = await openToken(PURPOSE, token);
  if (!payload || payload.length === 0) return null;
  // Re-encoding must give the same bytes: one encoding per binding, no trailing garbage.
  const binding = decodePayload(payload);
  return binding && encodePayload(binding).equals(payload) ? binding : null;
}

function encodePayload({ thread, recipient }: ReplyBinding): Buffer {
  const packed = UUID.test(thread.id);
  const flags = (thread.kind === "ticket" ? TICKET : 0) | (recipient.kind === "member" ? MEMBER : 0) | (packed ? PACKED_UUID : 0);
  const parts = [Buffer.from([flags]), packed ? Buffer.from(thread.id.replace(/-/g, ""), "hex") : lengthPrefixed(thread.id)];
  if (recipient.kind === "member") parts.push(lengthPrefixed(recipient.id));
  return Buffer.concat(parts);
}

function decodePayload(payload: Buffer): ReplyBinding | null {
  const flags = payload[0]!;
  let at = 1;
  let id: string;
  if (flags & PACKED_UUID) {
    const hex = payload.subarray(at, at + 16).toString("hex");
    if (hex.length !== 32) return null;
    id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    at += 16;
  } else {
    const read = readPrefixed(payload, at);
    if (!read) return null;
    [id, at] = read;
  }
  const thread: ReplyThread = { kind: flags & TICKET ? "ticket" : "conversation", id };
  if (!(flags & MEMBER)) return { thread, recipient: { kind: "visitor" } };
  const member = readPrefixed(payload, at);
  return member ? { thread, recipient: { kind: "member", id: member[0] } } : null;
}

function lengthPrefixed(text: string): Buffer {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length > 255) throw new Error("An id too long for a reply address.");
  return Buffer.concat([Buffer.from([bytes.length]), bytes]);
}

function readPrefixed(payload: Buffer, at: number): [string, number] | null {
  const length = payload[at];
  if (length === undefined || at + 1 + length > payload.length) return null;
  return [payload.subarray(at + 1, at + 1 + length).toString("utf8"), at + 1 + length];
}
