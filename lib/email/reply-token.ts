import { createHmac, timingSafeEqual } from "node:crypto";
import { uploadSigningSecret } from "../uploads/signing-secret";

// The token of a reply address `r+<token>@MAIL_REPLY_DOMAIN` (decisions.md "Email in both
// directions"): what the email is about (a conversation or a ticket), who it was sent to (the
// visitor — for a ticket, its filer — or one member), and an HMAC-SHA256 over both under the
// service's signing secret with a purpose of its own, cut to 80 bits. Lower-case base32, because
// mail systems may fold the case of a local part. Nothing is stored: the token proves itself.

export type ReplyThread = { kind: "conversation" | "ticket"; id: string };
export type ReplyRecipient = { kind: "visitor" } | { kind: "member"; id: string };
export interface ReplyBinding {
  thread: ReplyThread;
  recipient: ReplyRecipient;
}

const MAC_BYTES = 10;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
/** Far below the longest local part any token of ours can have; longer input is refused unread. */
const MAX_TOKEN_LENGTH = 300;

// Flags byte: bit 0 ticket (else conversation), bit 1 member recipient (else visitor), bit 2 the
// thread id is a UUID packed into 16 bytes (else length-prefixed UTF-8).
const TICKET = 1;
const MEMBER = 2;
const PACKED_UUID = 4;

async function mac(payload: Buffer): Promise<Buffer> {
  const secret = await uploadSigningSecret();
  return createHmac("sha256", secret).update("parley-reply-address-v1\n").update(payload).digest().subarray(0, MAC_BYTES);
}

export async function replyToken(binding: ReplyBinding): Promise<string> {
  const payload = encodePayload(binding);
  return base32(Buffer.concat([payload, await mac(payload)]));
}

/** The binding a token proves, or null when it is malformed or its HMAC does not match (constant time). */
export async function verifyReplyToken(token: string): Promise<ReplyBinding | null> {
  if (token.length > MAX_TOKEN_LENGTH) return null;
  const bytes = unbase32(token.toLowerCase());
  if (!bytes || bytes.length <= MAC_BYTES) return null;
  const payload = bytes.subarray(0, bytes.length - MAC_BYTES);
  const given = bytes.subarray(bytes.length - MAC_BYTES);
  if (!timingSafeEqual(given, await mac(payload))) return null;
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

function base32(bytes: Buffer): string {
  let out = "";
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

function unbase32(text: string): Buffer | null {
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const character of text) {
    const digit = ALPHABET.indexOf(character);
    if (digit === -1) return null;
    value = ((value << 5) | digit) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  // Leftover bits must be zero padding: otherwise two spellings would decode to one token.
  if (bits >= 5 || (value & ((1 << bits) - 1)) !== 0) return null;
  return Buffer.from(bytes);
}
