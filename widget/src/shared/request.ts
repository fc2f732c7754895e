import type { Request, ApiResult } from "./types";

const NO_ANSWER: ApiResult = { ok: false, status: 0, code: undefined, result: null, message: undefined, retryAfter: 0 };

interface Envelope {
  success?: boolean;
  result?: unknown;
  message?: unknown;
}

/** Calls the API; never throws. Cookies are never sent (the API uses none). */
export const request: Request = async (method, url, { body, headers = {}, signal, cacheable } = {}) => {
  if (body !== undefined) headers["Content-Type"] = "application/json";
  try {
    const response = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "omit",
      cache: cacheable ? "default" : "no-store",
      signal,
    });
    let envelope: Envelope = {};
    try {
      envelope = ((await response.json()) as Envelope | null) ?? {};
    } catch {
      /* not JSON */
    }
    const result = envelope.result ?? null;
    const code = result && typeof result === "object" && "code" in result && typeof result.code === "string" ? result.code : undefined;
    return {
      ok: response.ok && envelope.success !== false,
      status: response.status,
      code,
      result,
      message: typeof envelope.message === "string" ? envelope.message : undefined,
      retryAfter: Number(response.headers.get("Retry-After")) || 0,
    };
  } catch {
    return NO_ANSWER;
  }
};
