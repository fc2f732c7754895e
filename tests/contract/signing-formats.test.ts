import { createHmac } from "node:crypto";
import { describe, expect, test, vi } from "vitest";
import { bounceAddress, bouncedEmailId } from "../../lib/email/links/bounce-address";
import { ratingToken, verifyRatingToken } from "../../lib/email/links/rating-links";
import { replyToken, verifyReplyToken, type ReplyBinding } from "../../lib/email/links/reply-token";
import { siteUnsubscribe, verifySiteUnsubscribe, verifyUnsubscribe } from "../../lib/email/links/unsubscribe-links";
import { addressHash } from "../../lib/email/suppression/suppressions";
import { serviceSigningSecret } from "../../lib/secrets/signing-secret";
import { isValidUploadSignature, signUpload } from "../../lib/uploads/upload-signature";

// What the service has already handed out keeps verifying: unsubscribe links, rating links, reply
// and bounce addresses sit in mailboxes for months, upload URLs live 15 minutes, and suppressed
// addresses are kept as keyed hashes. Each format is checked twice against the one signing helper
// (lib/core/signing.ts): values captured from the code that wrote them before it existed (a fixed
// secret), and values this file computes the way that code did, for inputs it picks itself.

const SECRET = vi.hoisted(() => {
  const secret = "fixture-secret-for-formats-sent-before-r4-0123456789";
  process.env.UPLOAD_SIGNING_SECRET = secret;
  process.env.MAIL_REPLY_DOMAIN = "reply.example.com";
  return secret;
});

/** The old code's HMAC: SHA-256 under the secret over the purpose-prefixed input. */
const oldHmac = (...parts: (string | Buffer)[]) => parts.reduce((mac, part) => mac.update(part), createHmac("sha256", SECRET)).digest();

/** The old signed-token.ts codec: lower-case RFC 4648 base32 without padding. */
function oldBase32(bytes: Buffer): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz234567";
  let bits = "";
  for (const byte of bytes) bits += byte.toString(2).padStart(8, "0");
  bits = bits.padEnd(Math.ceil(bits.length / 5) * 5, "0");
  return bits.match(/.{5}/g)!.map((group) => alphabet[parseInt(group, 2)]).join("");
}

/** A reply or bounce token as the old code sealed it: payload, then the first 80 bits of its HMAC. */
const oldToken = (purpose: string, payload: Buffer) => oldBase32(Buffer.concat([payload, oldHmac(`${purpose}\n`, payload).subarray(0, 10)]));

const CONVERSATION_ID = "6f1c2a9e-0b7d-4c35-9a8e-2f4b6d1e3c5a";

test("the signing secret is the configured one (the fixtures below were signed with it)", async () => {
  expect(await serviceSigningSecret()).toBe(SECRET);
});

describe("unsubscribe links", () => {
  const captured = { emailId: "em_ad4dc1b9-09bf-4bd6-b9ee-d5df613170bf", emailSignature: "Hf-5skLB-vVWJaSyYXG-w9GykifA28TAY24QXGa5Re0" };

  test("a link captured from the old code verifies, and a one-letter change does not", async () => {
    expect(await verifySiteUnsubscribe(captured.emailId, captured.emailSignature)).toBe(true);
    expect(await verifyUnsubscribe("conv-1", "glNJztUF8csGbKxDsV7Upgkl3ycx3Dwh7M1obVHGXvY")).toBe(true);
    expect(await verifySiteUnsubscribe(captured.emailId, captured.emailSignature.replace("H", "h"))).toBe(false);
    expect(await verifyUnsubscribe("conv-2", "glNJztUF8csGbKxDsV7Upgkl3ycx3Dwh7M1obVHGXvY")).toBe(false);
  });

  test("links signed the old way verify, and new links are signed the old way", async () => {
    const emailId = "em_11111111-2222-4333-8444-555555555555";
    expect(await verifySiteUnsubscribe(emailId, oldHmac(`unsubscribe-email:${emailId}`).toString("base64url"))).toBe(true);
    expect(await verifyUnsubscribe("conv-9", oldHmac("unsubscribe:conv-9").toString("base64url"))).toBe(true);
    // A signature for one kind of link is no signature for the other.
    expect(await verifyUnsubscribe(emailId, oldHmac(`unsubscribe-email:${emailId}`).toString("base64url"))).toBe(false);

    const { url, draft } = await siteUnsubscribe("Ada@Example.com");
    expect(new URL(url).searchParams.get("signature")).toBe(oldHmac(`unsubscribe-email:${draft.id}`).toString("base64url"));
  });
});

describe("rating links", () => {
  const close = { conversationId: CONVERSATION_ID, closedAt: new Date("2026-05-01T12:34:56.789Z") };
  const captured =
    "WyI2ZjFjMmE5ZS0wYjdkLTRjMzUtOWE4ZS0yZjRiNmQxZTNjNWEiLDE3Nzc2Mzg4OTY3ODld.UbrhCunObDUcWfz3mFU-S-1piVwyCqrNjHdeN9i7Ay0";

  test("a token captured from the old code rates the same close, and the new code writes it again", async () => {
    expect(await verifyRatingToken(captured)).toEqual(close);
    expect(await ratingToken(close)).toBe(captured);
    expect(await verifyRatingToken(captured.replace("Ubrh", "Ubri"))).toBeNull();
  });

  test("a token signed the old way verifies", async () => {
    const payload = Buffer.from(JSON.stringify(["conv-7", 1_700_000_000_000])).toString("base64url");
    const token = `${payload}.${oldHmac(`rate:${payload}`).toString("base64url")}`;
    expect(await verifyRatingToken(token)).toEqual({ conversationId: "conv-7", closedAt: new Date(1_700_000_000_000) });
  });
});

describe("reply and bounce addresses", () => {
  const visitor: ReplyBinding = { thread: { kind: "conversation", id: CONVERSATION_ID }, recipient: { kind: "visitor" } };
  const member: ReplyBinding = { thread: { kind: "ticket", id: "ticket-42" }, recipient: { kind: "member", id: "grace.hopper" } };
  const bouncedId = "em_0f3e6a1c-9b2d-4e5f-8a7b-6c5d4e3f2a1b";

  test("tokens captured from the old code open to the same bindings, and the new code writes them again", async () => {
    expect(await verifyReplyToken("arxryku6bn6uynm2ryxuw3i6hrne35hcrhz42sddc6rq")).toEqual(visitor);
    expect(await verifyReplyToken("amexi2ldnnsxiljugiggo4tbmnss42dpobygk4xdgjquhfpudo5nsti")).toEqual(member);
    expect(await replyToken(visitor)).toBe("arxryku6bn6uynm2ryxuw3i6hrne35hcrhz42sddc6rq");
    expect(await bouncedEmailId("b47guhe3fvhf7ct3nrou4pzkdof3dvjdunv2exubfi")).toBe(bouncedId);
    expect(await bounceAddress(bouncedId)).toBe("b+b47guhe3fvhf7ct3nrou4pzkdof3dvjdunv2exubfi@reply.example.com");
    expect(await verifyReplyToken("arxryku6bn6uynm2ryxuw3i6hrne35hcrhz42sddc6rr")).toBeNull();
  });

  test("tokens sealed the old way open, each only for its own purpose", async () => {
    // A member reply on a conversation with a packed UUID: flags 4 (packed) | 2 (member).
    const payload = Buffer.concat([Buffer.from([6]), Buffer.from(CONVERSATION_ID.replace(/-/g, ""), "hex"), Buffer.from([3]), Buffer.from("m-1")]);
    const reply = oldToken("parley-reply-address-v1", payload);
    expect(await verifyReplyToken(reply)).toEqual({ thread: { kind: "conversation", id: CONVERSATION_ID }, recipient: { kind: "member", id: "m-1" } });
    expect(await bouncedEmailId(reply)).toBeNull();

    const bounce = oldToken("parley-bounce-address-v1", Buffer.from("00112233445566778899aabbccddeeff", "hex"));
    expect(await bouncedEmailId(bounce)).toBe("em_00112233-4455-6677-8899-aabbccddeeff");
  });
});

describe("upload URLs", () => {
  const upload = { attachmentId: "att-1", bytes: 1234, contentType: "image/png", expires: 1_900_000_000 };

  test("a signature captured from the old code verifies, and the new code writes it again", () => {
    expect(isValidUploadSignature(upload, "5SgBVLAcisbH25TMh2kLd4GyV2EVVrswg8MkaBMrNmM", SECRET)).toBe(true);
    expect(signUpload(upload, SECRET)).toBe("5SgBVLAcisbH25TMh2kLd4GyV2EVVrswg8MkaBMrNmM");
    expect(isValidUploadSignature({ ...upload, bytes: 1235 }, "5SgBVLAcisbH25TMh2kLd4GyV2EVVrswg8MkaBMrNmM", SECRET)).toBe(false);
  });

  test("a signature made the old way verifies", () => {
    const other = { attachmentId: "att-9", bytes: 42, contentType: "application/pdf", expires: 1_800_000_000 };
    const old = oldHmac(["parley-upload-v1", other.attachmentId, String(other.bytes), other.contentType, String(other.expires)].join("\n"));
    expect(isValidUploadSignature(other, old.toString("base64url"), SECRET)).toBe(true);
  });
});

describe("suppressed addresses' keyed hashes", () => {
  test("an address hashes to what the old code stored, so entries kept as hashes still match", async () => {
    expect(await addressHash(" Ada@Example.com")).toBe("Y_oJHLJYqN1b2oeF_wPmqcDxKcFxrqoRpBEPd6L6NwY");
    expect(await addressHash("grace@example.com")).toBe(oldHmac("suppressed-address:grace@example.com").toString("base64url"));
  });
});
