import { createHash, createHmac } from "node:crypto";

// An independent check of an AWS Signature V4 presigned URL, as S3 itself verifies one: proves in
// tests that a presigned PUT is bound to the Content-Length and Content-Type it was signed for.
// (The S3 emulator used by the tests accepts any V4 signature, so it cannot show this.)

const encode = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");
const hmac = (key: string | Buffer, value: string) => createHmac("sha256", key).update(value).digest();

export interface PresignedRequest {
  method: string;
  url: string;
  /** The headers the client will send (lower-case names), besides Host. */
  headers: Record<string, string>;
  now?: Date;
}

export function verifyPresignedUrl({ method, url, headers, now = new Date() }: PresignedRequest, secretAccessKey: string): boolean {
  const parsed = new URL(url);
  const query = Object.fromEntries(parsed.searchParams);
  const amzDate = query["X-Amz-Date"]!;
  const [, date, region, service] = query["X-Amz-Credential"]!.split("/");
  const signedHeaders = query["X-Amz-SignedHeaders"]!.split(";");
  const issuedAt = Date.UTC(+amzDate.slice(0, 4), +amzDate.slice(4, 6) - 1, +amzDate.slice(6, 8), +amzDate.slice(9, 11), +amzDate.slice(11, 13), +amzDate.slice(13, 15));
  if (now.getTime() > issuedAt + Number(query["X-Amz-Expires"]) * 1000) return false;

  const sent: Record<string, string> = { ...headers, host: parsed.host };
  if (signedHeaders.some((name) => sent[name] === undefined)) return false;
  const canonicalQuery = Object.entries(query)
    .filter(([key]) => key !== "X-Amz-Signature")
    .map(([key, value]) => [encode(key), encode(value)])
    .sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0))
    .map(([key, value]) => `${key}=${value}`)
    .join("&");
  const canonicalRequest = [
    method,
    parsed.pathname,
    canonicalQuery,
    signedHeaders.map((name) => `${name}:${sent[name]!.trim()}\n`).join(""),
    signedHeaders.join(";"),
    query["X-Amz-Content-Sha256"] ?? "UNSIGNED-PAYLOAD",
  ].join("\n");
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonicalRequest)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, date!), region!), service!), "aws4_request");
  return createHmac("sha256", key).update(stringToSign).digest("hex") === query["X-Amz-Signature"];
}
