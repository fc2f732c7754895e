import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { ResolvedTarget } from "./target-guard";

// One HTTP attempt: POST to the address the guard checked, no redirects followed (node:http never
// follows them), the whole exchange cut at the timeout, at most 1 KB of the answer kept.

export const MAX_RESPONSE_BODY = 1024;

export interface AttemptResult {
  status: number | null;
  body: string | null;
  error: string | null;
}

export function postWebhook(
  target: ResolvedTarget,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<AttemptResult> {
  // The socket goes to the checked address; Host and TLS (SNI, certificate) still use the name.
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    } else {
      callback(null, target.address, target.family);
    }
  };
  const client = target.url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(result);
    };
    const request = client.request(
      target.url,
      {
        method: "POST",
        lookup: pinned,
        agent: false,
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)), "user-agent": "Parley-Webhooks/1" },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on("data", (chunk: Buffer) => {
          if (kept < MAX_RESPONSE_BODY) {
            chunks.push(chunk.subarray(0, MAX_RESPONSE_BODY - kept));
            kept += Math.min(chunk.length, MAX_RESPONSE_BODY - kept);
          }
          if (kept >= MAX_RESPONSE_BODY) done();
        });
        const done = () =>
          finish({ status: response.statusCode ?? null, body: Buffer.concat(chunks).toString("utf8"), error: null });
        response.on("end", done);
        response.on("error", done);
      },
    );
    const timer = setTimeout(
      () => finish({ status: null, body: null, error: `No answer within ${timeoutMs / 1000} s.` }),
      timeoutMs,
    );
    request.on("error", (error: NodeJS.ErrnoException) =>
      finish({ status: null, body: null, error: `Connection failed (${error.code ?? "error"}).` }),
    );
    request.end(body);
  });
}
