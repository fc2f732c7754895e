// The inbox pages' calls to their own API (same origin: the browser sends the cookie and Origin).

export interface ApiOutcome<Result = unknown> {
  ok: boolean;
  status: number;
  result: Result;
  message: string;
  fields?: { path: string; problem: string }[];
}

export async function inboxApi<Result = unknown>(method: string, path: string, body?: unknown): Promise<ApiOutcome<Result>> {
  try {
    const response = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
    const json = await response.json().catch(() => null);
    return {
      ok: response.ok,
      status: response.status,
      result: json?.result,
      message: json?.message ?? `The request failed (${response.status}).`,
      fields: json?.result?.fields,
    };
  } catch {
    return { ok: false, status: 0, result: undefined as Result, message: "The service cannot be reached. Check your connection." };
  }
}

/** An error message with the first field problem, for forms. */
export const describeFailure = (outcome: ApiOutcome) =>
  outcome.fields?.length ? `${outcome.message.split(".")[0]}: ${outcome.fields.map((field) => `${field.path} ${field.problem}`).join("; ")}` : outcome.message;
