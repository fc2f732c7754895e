import http from "node:http";
import https from "node:https";
import { agentFor, pinnedLookup } from "./keep-alive-agents";
import type { ResolvedTarget } from "./target-guard";

// One HTTP attempt: POST to the address the guard checked, no redirects followed (node:http never
// follows them), the whole exchange cut at the timeout, at most 1 KB of the answer kept. The
// connection is kept for the next attempt to the same receiver only after an answer read to its
// end; a timeout, an error or an answer cut at 1 KB closes it.

export const MAX_RESPONSE_BODY = 1024;

export interface AttemptResult {
  status: number | null;
  body: string | null;
  error: string | null;
}

export function postWebhook(
  target: ResolvedTarget,
  headers: Record<string, string>,
  body: string | Buffer,
  timeoutMs: number,
): Promise<AttemptResult> {
  const client = target.url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    let request: http.ClientRequest;
    const finish = (result: AttemptResult, keepConnection = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!keepConnection) request.destroy();
      resolve(result);
    };
    const send = (agent: http.Agent | false) => {
      let answered = false;
      const sent = client.request(
        target.url,
        {
          method: "POST",
          // The socket goes to the checked address; Host and TLS (SNI, certificate) still use the name.
          lookup: pinnedLookup(target),
          agent,
          headers: { ...headers, "content-length": String(Buffer.byteLength(body)), "user-agent": "Parley-Webhooks/1" },
        },
        (response) => {
          answered = true;
          const chunks: Buffer[] = [];
          let kept = 0;
          const answer = () => ({ status: response.statusCode ?? null, body: Buffer.concat(chunks).toString("utf8"), error: null });
          response.on("data", (chunk: Buffer) => {
            if (kept < MAX_RESPONSE_BODY) {
              chunks.push(chunk.subarray(0, MAX_RESPONSE_BODY - kept));
              kept += Math.min(chunk.length, MAX_RESPONSE_BODY - kept);
            }
            // The rest would stay unread on the connection, so it cannot serve another attempt.
            if (kept >= MAX_RESPONSE_BODY) finish(answer());
          });
          response.on("end", () => finish(answer(), true));
          response.on("error", () => finish(answer()));
        },
      );
      sent.on("error", (error: NodeJS.ErrnoException) => {
        // A kept connection the receiver closed just as it was reused: the receiver has not
        // answered, so the attempt goes once more, on a new connection.
        if (!settled && !answered && sent.reusedSocket && error.code === "ECONNRESET") {
          send(false);
          return;
        }
        finish({ status: null, body: null, error: `Connection failed (${error.code ?? "error"}).` });
      });
      request = sent;
      sent.end(body);
    };
    const timer = setTimeout(
      () => finish({ status: null, body: null, error: `No answer within ${timeoutMs / 1000} s.` }),
      timeoutMs,
    );
    send(agentFor(target));
  });
}
