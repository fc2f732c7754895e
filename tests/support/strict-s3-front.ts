import http from "node:http";
import type { AddressInfo } from "node:net";
import { verifyPresignedUrl } from "./sigv4";

// The S3 emulator (s3rver) accepts any signature and ignores `If-None-Match` on PUT. Real S3 (and
// R2, MinIO) do neither: this front adds both in front of the emulator, the way S3 does them, so a
// test can show what a real bucket would answer. A presigned PUT must verify (tests/support/sigv4.ts,
// over the headers the client actually sent); a PUT with `If-None-Match: *` onto an existing object
// is refused 412 PreconditionFailed (S3's conditional write). Everything else passes through.

const SIGNED_CANDIDATES = ["content-length", "content-type", "if-none-match"];
const HOP_HEADERS = new Set(["host", "connection", "transfer-encoding", "content-encoding", "keep-alive"]);

const s3Error = (response: http.ServerResponse, status: number, code: string) => {
  response.writeHead(status, { "Content-Type": "application/xml" });
  response.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code></Error>`);
};

async function readBody(request: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startStrictS3Front(upstream: string, secretAccessKey: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(async (request, response) => {
    try {
      const url = `http://${request.headers.host}${request.url}`;
      const body = await readBody(request);
      const target = new URL(request.url!, upstream);
      if (request.method === "PUT" && new URL(url).searchParams.has("X-Amz-Signature")) {
        const headers = Object.fromEntries(
          SIGNED_CANDIDATES.filter((name) => typeof request.headers[name] === "string").map((name) => [name, request.headers[name] as string]),
        );
        if (!verifyPresignedUrl({ method: "PUT", url, headers }, secretAccessKey)) return s3Error(response, 403, "SignatureDoesNotMatch");
        if (request.headers["if-none-match"] === "*") {
          const existing = await fetch(new URL(target.pathname, upstream), { method: "HEAD" });
          if (existing.status === 200) return s3Error(response, 412, "PreconditionFailed");
        }
      }
      const forwarded = await fetch(target, {
        method: request.method,
        headers: Object.fromEntries(Object.entries(request.headers).filter(([name]) => !HOP_HEADERS.has(name))) as Record<string, string>,
        body: request.method === "GET" || request.method === "HEAD" ? undefined : new Uint8Array(body),
      });
      response.writeHead(forwarded.status, Object.fromEntries([...forwarded.headers].filter(([name]) => !HOP_HEADERS.has(name))));
      response.end(Buffer.from(await forwarded.arrayBuffer()));
    } catch {
      s3Error(response, 500, "InternalError");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
