import type { Request, Res } from "./types";

const NO: Res = { ok: false, status: 0, code: undefined, result: null, message: undefined, retryAfter: 0 };

interface Envelope {
  success?: boolean;
  result?: unknown;
  message?: unknown;
}

/** Calls the API; never throws. Cookies are never sent (the API uses none). */
export const request: Request = async (method, url, { body, headers = {}, signal, cacheable } = {}) => {
  if (body !== undefined) headers["Content-Type"] = "application/json";
  try {
    const r = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "omit",
      cache: cacheable ? "default" : "no-store",
      signal,
    });
    let j: Envelope = {};
    try {
      j = ((await r.json()) as Envelope | null) ?? {};
    } catch {
      /* not JSON */
    }
    const result = j.result ?? null;
    const code = result && typeof result === "object" && "code" in result && typeof result.code === "string" ? result.code : undefined;
    return {
      ok: r.ok && j.success !== false,
      status: r.status,
      code,
      result,
      message: typeof j.message === "string" ? j.message : undefined,
      retryAfter: Number(r.headers.get("Retry-After")) || 0,
    };
  } catch {
    return NO;
  }
};
