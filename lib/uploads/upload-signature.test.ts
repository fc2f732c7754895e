import { describe, expect, test } from "vitest";
import { isValidUploadSignature, signUpload } from "./upload-signature";

const secret = "s".repeat(32);
const signed = { attachmentId: "att-1", bytes: 1234, contentType: "image/png", expires: 1_900_000_000 };

describe("upload URL signatures", () => {
  test("verify for exactly what was signed", () => {
    expect(isValidUploadSignature(signed, signUpload(signed, secret), secret)).toBe(true);
  });

  test.each([
    ["the attachment id", { attachmentId: "att-2" }],
    ["the length", { bytes: 1235 }],
    ["the media type", { contentType: "image/jpeg" }],
    ["the expiry", { expires: 1_900_000_001 }],
  ])("changing %s breaks the signature", (_name, change) => {
    expect(isValidUploadSignature({ ...signed, ...change }, signUpload(signed, secret), secret)).toBe(false);
  });

  test("another secret, a truncated or an empty signature do not verify", () => {
    const signature = signUpload(signed, secret);
    expect(isValidUploadSignature(signed, signature, "t".repeat(32))).toBe(false);
    expect(isValidUploadSignature(signed, signature.slice(0, -1), secret)).toBe(false);
    expect(isValidUploadSignature(signed, "", secret)).toBe(false);
  });
});
