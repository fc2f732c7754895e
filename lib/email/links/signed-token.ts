import { isSignature, signature, type SigningFormat } from "../../core/signing";
import { serviceSigningSecret } from "../../secrets/signing-secret";

// The tokens in our addresses (`r+<token>@…` replies, `b+<token>@…` bounces): a payload and an
// HMAC-SHA256 over it under the service's signing secret with a purpose of its own (a token made
// for one use proves nothing for another), cut to 80 bits. Lower-case base32, because mail systems
// may fold the case of a local part. Nothing is stored: the token proves itself.

const MAC_BYTES = 10;
const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
/** Far below the longest local part any token of ours can have; longer input is refused unread. */
const MAX_TOKEN_LENGTH = 300;

const tokenFormat = (purpose: string): SigningFormat => ({ purpose, separator: "\n", bytes: MAC_BYTES });

export async function sealToken(purpose: string, payload: Buffer): Promise<string> {
  return base32(Buffer.concat([payload, signature(await serviceSigningSecret(), tokenFormat(purpose), payload)]));
}

/** The payload a token carries, or null when it is malformed or its HMAC does not match (constant time). */
export async function openToken(purpose: string, token: string): Promise<Buffer | null> {
  if (token.length > MAX_TOKEN_LENGTH) return null;
  const bytes = unbase32(token.toLowerCase());
  if (!bytes || bytes.length <= MAC_BYTES) return null;
  const payload = bytes.subarray(0, bytes.length - MAC_BYTES);
  return isSignature(await serviceSigningSecret(), tokenFormat(purpose), payload, bytes.subarray(bytes.length - MAC_BYTES)) ? payload : null;
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
